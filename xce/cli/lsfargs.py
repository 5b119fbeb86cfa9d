"""A small LSF-style option parser for the commands users run most.

LSF options are single-dash words (``-o``, ``-oo``, ``-cwd``, ``-noheader``)
that take zero or one value; single letters may be clustered (``-aJ name``).
Importing click costs a command about 30 ms, more than all the rest of a
``bsub``; this parser costs nothing to import.  Errors read as LSF's:
``bsub: illegal option -- z`` then the usage line, exit 255.
"""

import sys

from xce.errors import EXIT_FAILURE, XceError, text


class UsageError(Exception):
    pass


class Opt:
    """One option: its spellings, where its value goes, what it takes."""

    def __init__(self, flags, dest, takes=True, multiple=False, type=str,
                 metavar="value", help="", const=True):
        self.flags = flags.split() if isinstance(flags, str) else list(flags)
        self.dest, self.takes, self.multiple = dest, takes, multiple
        self.type, self.metavar, self.help = type, metavar, help
        # What a flag stores: True, or its own value when several flags
        # share one destination (bjobs -p0 .. -p3).
        self.const = const

    def default(self):
        if self.multiple:
            return ()
        return None if self.takes or self.const is not True else False


class Parser:
    def __init__(self, prog, opts, args_metavar="", help_text="",
                 stop_at_first_arg=False, refused=()):
        self.prog, self.opts = prog, opts
        # LSF options refused as a whole, so that -Jd is never read as -J d.
        self.refused = frozenset(refused)
        self.args_metavar, self.help_text = args_metavar, help_text
        self.stop_at_first_arg = stop_at_first_arg
        self.by_flag = {f: o for o in opts for f in o.flags}

    # -- parsing -------------------------------------------------------------
    def parse(self, argv):
        """(values by dest, positional words); raises UsageError."""
        values = {o.dest: o.default() for o in self.opts}
        args, words = [], list(argv)
        while words:
            word = words.pop(0)
            if word == "--":
                args += words
                break
            if not word.startswith("-") or word == "-":
                args.append(word)
                if self.stop_at_first_arg:
                    args += words
                    break
                continue
            self._option(word, words, values)
        return values, args

    def _option(self, word, words, values):
        if word in self.refused:
            raise UsageError(text("ILLEGAL_OPTION", prog=self.prog,
                                  option=word[1:]))
        opt = self.by_flag.get(word)
        if opt is not None:
            self._take(opt, word, None, words, values)
            return
        # Clustered single letters: -aJ name, -Jname.
        rest = word[1:]
        while rest:
            opt = self.by_flag.get("-" + rest[0])
            if opt is None:
                raise UsageError(text(
                    "ILLEGAL_OPTION", prog=self.prog,
                    option=rest if rest == word[1:] else rest[0]))
            if opt.takes:
                self._take(opt, "-" + rest[0], rest[1:] or None, words,
                           values)
                return
            values[opt.dest] = opt.const
            rest = rest[1:]

    def _take(self, opt, flag, attached, words, values):
        if not opt.takes:
            values[opt.dest] = opt.const
            return
        if attached is None:
            if not words:
                raise UsageError(text("OPTION_NEEDS_ARGUMENT",
                                      prog=self.prog, option=flag[1:]))
            attached = words.pop(0)
        try:
            value = opt.type(attached)
        except ValueError:
            raise UsageError(text("BAD_OPTION_VALUE", prog=self.prog,
                                  flag=flag, value=attached))
        if opt.multiple:
            values[opt.dest] = values[opt.dest] + (value,)
        else:
            values[opt.dest] = value

    # -- texts ---------------------------------------------------------------
    def usage(self):
        tail = f" {self.args_metavar}" if self.args_metavar else ""
        return f"Usage: {self.prog} [options]{tail}"

    def help(self):
        lines = [self.usage(), "", f"  {self.help_text}", "", "Options:"]
        for o in self.opts:
            spell = ", ".join(o.flags)
            if o.takes:
                spell += f" {o.metavar}"
            lines.append(f"  {spell:<24} {o.help}")
        lines.append(f"  {'-h, --help':<24} Show this message and exit.")
        return "\n".join(lines)


def run(parser, action, argv=None):
    """Parse, act, exit: LSF's one-line errors and exit codes."""
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in argv[:_first_arg(parser, argv)]):
        print(parser.help())
        sys.exit(0)
    try:
        values, args = parser.parse(argv)
        code = action(values, args)
    except UsageError as e:
        print(e, file=sys.stderr)
        print(parser.usage(), file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    except XceError as e:
        print(str(e), file=sys.stderr)
        sys.exit(e.exit_code)
    except BrokenPipeError:
        sys.exit(EXIT_FAILURE)
    sys.exit(code or 0)


def _first_arg(parser, argv):
    """Where the command starts (help flags after it belong to the job)."""
    if not parser.stop_at_first_arg:
        return len(argv)
    try:
        values, args = parser.parse(argv)
    except UsageError:
        return len(argv)
    return len(argv) - len(args)
