"""The one LSF-style option parser of every LSF command.

Each command declares its table next to its code: ``OPTIONS``, the LSF
options xce acts on (an ``Opt`` each: spellings, arity, repeatable), and
``UNSUPPORTED``, the rest of LSF 10.1's option list for that command.  A
refused option is refused at its word, before anything is done, so its
arity is never read.  Options that LSF forbids together are declared as
``conflicts`` of the ``Parser``.  The tables live beside the code that
acts on them (not in one package of tables) because that code reads the
same destinations: implementing an option is one edit in one file, moving
its flag from UNSUPPORTED into OPTIONS.  tests/unit/test_option_tables.py
walks every table.

LSF options are single-dash words (``-o``, ``-oo``, ``-cwd``, ``-noheader``)
matched whole: ``-Jd`` is never ``-J d`` and ``-outdir`` never ``-o utdir``.
Only a parser made with ``bundle=True`` reads a word it does not know as
single letters (``bjobs -aJ name``), for commands whose LSF parser is
getopt's, where users type such clusters.

Errors read as LSF's: ``bsub: illegal option -- z`` then the usage line,
exit 255; an LSF option xce does not implement is one line naming it, exit
255.  Importing click costs a command about 30 ms; this parser costs
nothing to import.
"""

import sys

from xce.errbase import EXIT_FAILURE, XceError, text


class UsageError(Exception):
    """A bad command line; its message is a _Message, read when shown."""


class _Message:
    """A catalogue message (xce.errbase.text) built when it is shown: the
    parse that only finds where the options end (_first_arg) throws its
    error away, and ``bsub -h`` then never loads the catalogue."""

    __slots__ = ("key", "suffix", "fields")

    def __init__(self, key, suffix="", **fields):
        self.key, self.suffix, self.fields = key, suffix, fields

    def __str__(self):
        return text(self.key, **self.fields) + self.suffix


class Refused(UsageError):
    """A refusal that needs no usage line: one line, exit 255."""


class NotSupported(Refused):
    """An LSF option xce does not implement: one line, no usage."""


class EmptyValue(Refused):
    """An empty value ("") given to an option that takes none."""


class Opt:
    """One option: its spellings, where its value goes, what it takes."""

    # A command builds its whole table at each start: slots make each of
    # its options cheaper to make (no instance dictionary).
    __slots__ = ("flags", "dest", "takes", "multiple", "type", "metavar",
                 "help", "const", "sample", "initial", "empty")

    def __init__(self, flags, dest, takes=True, multiple=False, type=str,
                 metavar="value", help="", const=True, default=None,
                 sample=None, empty=False):
        self.flags = flags.split() if isinstance(flags, str) else list(flags)
        self.dest, self.takes, self.multiple = dest, takes, multiple
        self.type, self.metavar, self.help = type, metavar, help
        # What a flag stores: True, or its own value when several flags
        # share one destination (bjobs -p0 .. -p3).
        self.const = const
        # A value the table test gives the option to show it parses (the
        # metavar's words are not always a value).
        self.sample = sample
        # Its value when the line does not give it.
        self.initial = () if multiple else default if default is not None \
            else None if takes or const is not True else False
        # The option takes "" (a parser that refuses empty values still
        # lets this one have it).
        self.empty = empty


def whole(low=0):
    """A value type: a whole number of ASCII digits from *low* to a C int,
    as LSF's commands read one (``int`` takes ``３`` and any length)."""
    def convert(value):
        from xce.model import numbers
        number = numbers.whole(str(value).strip(), low=low)
        if number is None:
            raise ValueError(value)
        return number
    convert.__name__ = "whole"
    return convert


class Parser:
    def __init__(self, prog, opts, args_metavar="", help_text="",
                 stop_at_first_arg=False, refused=(), conflicts=(),
                 bundle=False, version=True, usage_name=None,
                 nargs=(0, None), empty_values=True, not_done="",
                 reasons=None, empty_arg=None):
        self.prog, self.opts = prog, opts
        # The name the usage line shows (badmin qopen) when errors name
        # the command alone (badmin: illegal option -- Z).
        self.usage_name = usage_name or prog
        self.by_flag = {f: o for o in opts for f in o.flags}
        # LSF options xce does not implement, refused whole (an option
        # that became implemented is taken, wherever a list still names it).
        self.refused = frozenset(refused) - set(self.by_flag)
        # Why xce refuses some of them (said after the refusal).
        self.reasons = dict(reasons or {})
        self.args_metavar, self.help_text = args_metavar, help_text
        self.stop_at_first_arg = stop_at_first_arg
        self.conflicts = tuple(tuple(pair) for pair in conflicts)
        self.bundle = bundle
        # How many words follow the options: (least, most or None).
        self.nargs = nargs
        # -V (version, to stderr) is every LSF command's unless the table
        # gives it a meaning of its own.
        self.version = version and "-V" not in self.by_flag
        # empty_values=False: "" is refused for every option that takes a
        # value, unless its Opt says empty=True (honour or refuse: an
        # empty queue, file or name would otherwise read as not given).
        self.empty_values = empty_values
        # How a refused value's line ends (". Job not submitted.").
        self.not_done = not_done
        # What the words after the options name ("queue name"): given, ""
        # among them (an unset variable's) is refused with it, rather than
        # looked up as a name that then shows empty in the error.
        self.empty_arg = empty_arg

    def flags(self):
        """Every LSF option of the table: implemented and refused."""
        return set(self.by_flag) | set(self.refused)

    # -- parsing -------------------------------------------------------------
    def parse(self, argv):
        """(values by dest, positional words); raises UsageError."""
        values = {o.dest: o.initial for o in self.opts}
        args, words, given = [], list(argv), []
        while words:
            word = words.pop(0)
            if word == "--":
                args += words
                break
            if not word.startswith("-") or word == "-":
                if word == "" and self.empty_arg:
                    raise EmptyValue(_Message(
                        "EMPTY_ARGUMENT", self.not_done,
                        prog=self.usage_name, what=self.empty_arg))
                args.append(word)
                if self.stop_at_first_arg:
                    args += words
                    break
                continue
            given += self._option(word, words, values)
        self._check_conflicts(given)
        self._check_count(args)
        return values, args

    def _option(self, word, words, values):
        """Read one option word (and its value); the flags it gave."""
        opt = self.by_flag.get(word)
        if opt is not None:
            self._take(opt, word, None, words, values)
            return [word]
        if word in self.refused:
            raise self._refusal(word)
        if not self.bundle:
            raise UsageError(_Message("ILLEGAL_OPTION", prog=self.prog,
                                      option=word[1:]))
        return self._letters(word, words, values)

    def _letters(self, word, words, values):
        """getopt's reading of a word: single letters, the last of them
        perhaps taking the rest of the word (-aJ name, -Jname)."""
        rest, given = word[1:], []
        while rest:
            flag = "-" + rest[0]
            opt = self.by_flag.get(flag)
            if opt is None:
                if flag in self.refused:
                    raise self._refusal(flag)
                raise UsageError(_Message(
                    "ILLEGAL_OPTION", prog=self.prog,
                    option=rest if rest == word[1:] else rest[0]))
            given.append(flag)
            if opt.takes:
                self._take(opt, flag, rest[1:] or None, words, values)
                return given
            values[opt.dest] = opt.const
            rest = rest[1:]
        return given

    def _refusal(self, flag):
        reason = f": {self.reasons[flag]}" if flag in self.reasons else ""
        return NotSupported(_Message("OPTION_NOT_SUPPORTED", reason,
                                     prog=self.prog, option=flag))

    def _take(self, opt, flag, attached, words, values):
        if not opt.takes:
            values[opt.dest] = opt.const
            return
        if attached is None:
            if not words:
                raise UsageError(_Message("OPTION_NEEDS_ARGUMENT",
                                          prog=self.prog, option=flag[1:]))
            attached = words.pop(0)
        if attached == "" and not (self.empty_values or opt.empty):
            raise EmptyValue(_Message("EMPTY_OPTION_VALUE", self.not_done,
                                      prog=self.prog, flag=flag))
        try:
            value = opt.type(attached)
        except ValueError:
            raise UsageError(_Message("BAD_OPTION_VALUE", prog=self.prog,
                                      flag=flag, value=attached))
        if opt.multiple:
            values[opt.dest] = values[opt.dest] + (value,)
        else:
            values[opt.dest] = value

    def _check_conflicts(self, given):
        for first, second in self.conflicts:
            if first in given and second in given:
                raise UsageError(_Message("OPTIONS_CONFLICT", prog=self.prog,
                                          first=first, second=second))

    def _check_count(self, args):
        low, high = self.nargs
        if len(args) < low:
            raise UsageError(_Message("ARGUMENT_NEEDED", prog=self.prog,
                                      what=self.args_metavar))
        if high is not None and len(args) > high:
            raise UsageError(_Message("EXTRA_ARGUMENTS", prog=self.prog,
                                      word=args[high]))

    # -- texts ---------------------------------------------------------------
    def usage(self):
        tail = f" {self.args_metavar}" if self.args_metavar else ""
        return f"Usage: {self.usage_name} [options]{tail}"

    def help(self):
        lines = [self.usage(), "", f"  {self.help_text}", "", "Options:"]
        for o in self.opts:
            spell = ", ".join(o.flags)
            if o.takes:
                spell += f" {o.metavar}"
            lines.append(f"  {spell:<24} {o.help}")
        if self.version:
            lines.append(f"  {'-V':<24} Print the version and exit.")
        lines.append(f"  {'-h, --help':<24} Show this message and exit.")
        return "\n".join(lines)


class Commands:
    """A command of subcommands (badmin, lsadmin): the first word names
    one; each has its own Parser and action."""

    def __init__(self, prog, help_text, refused=()):
        self.prog, self.help_text = prog, help_text
        self.commands = {}          # name -> (Parser, action)
        # LSF subcommands xce does not implement: name -> catalogue key.
        self.refused = dict(refused)

    def add(self, name, parser, action):
        self.commands[name] = (parser, action)

    def usage(self):
        return f"Usage: {self.prog} [options] command [arguments]"

    def help(self):
        lines = [self.usage(), "", f"  {self.help_text}", "", "Options:",
                 f"  {'-V':<12} Print the version and exit.",
                 f"  {'-h, --help':<12} Show this message and exit.", "",
                 "Commands:"]
        for name, (parser, _) in sorted(self.commands.items()):
            lines.append(f"  {name:<12} {parser.help_text}")
        return "\n".join(lines)


_HELP_OR_VERSION = frozenset(("-h", "--help", "-V"))


def run(parser, action, argv=None):
    """Parse, act, exit: LSF's one-line errors and exit codes."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if isinstance(parser, Commands):
        parser, action, argv = _subcommand(parser, argv)
    # Where the options end matters only when a help or version flag is
    # among the words (finding it parses the line once more).
    if any(a in _HELP_OR_VERSION for a in argv):
        options = argv[:_first_arg(parser, argv)]
        if any(a in ("-h", "--help") for a in options):
            print(parser.help())
            sys.exit(0)
        if parser.version and "-V" in options:
            print_version()
            sys.exit(0)
    try:
        values, args = parser.parse(argv)
        code = action(values, args)
    except Refused as e:
        print(e, file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    except UsageError as e:
        print(e, file=sys.stderr)
        print(parser.usage(), file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    except XceError as e:
        print(str(e), file=sys.stderr)
        sys.exit(e.exit_code)
    except UnicodeEncodeError:
        # A value with undecodable bytes reached the store or a request.
        print(text("ARGUMENT_NOT_TEXT", prog=parser.prog), file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    except (BrokenPipeError, KeyboardInterrupt, EOFError):
        # A closed pipe, ^C in bwait or bpeek -f: no traceback.
        sys.exit(EXIT_FAILURE)
    except _store_errors() as e:
        # Reading the store failed (an older schema, a damaged file): one
        # line, as for any other error, never a traceback.
        from xce.client.site import store_error
        print(store_error(e), file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    sys.exit(code or 0)


def _store_errors():
    """sqlite3's error class when a command has loaded it (the light
    commands never do; importing it for them would cost start-up).  The
    store reader loads the C module ``_sqlite3`` alone, whose Error is the
    package's own class."""
    module = sys.modules.get("sqlite3") or sys.modules.get("_sqlite3")
    return module.Error if module is not None else ()


def print_version():
    from xce import LSF_COMPAT_VERSION, __version__
    print(f"xce {__version__} (LSF {LSF_COMPAT_VERSION} compatible)",
          file=sys.stderr)


def _subcommand(commands, argv):
    """(Parser, action, the words after the subcommand's name)."""
    prog = commands.prog
    if not argv:
        # LSF's badmin would turn interactive; xce shows what it takes.
        _fail(commands.help())
    if argv[0] in ("-h", "--help"):
        print(commands.help())
        sys.exit(0)
    name = argv[0]
    if name == "-V":
        print_version()
        sys.exit(0)
    if name.startswith("-"):
        _fail(text("ILLEGAL_OPTION", prog=prog, option=name[1:]),
              commands.usage())
    if name in commands.refused:
        _fail(text(commands.refused[name], prog=prog, command=name))
    if name not in commands.commands:
        _fail(text("INVALID_COMMAND", command=name))
    parser, action = commands.commands[name]
    return parser, action, argv[1:]


def _fail(message, usage=None):
    print(message, file=sys.stderr)
    if usage:
        print(usage, file=sys.stderr)
    sys.exit(EXIT_FAILURE)


def _first_arg(parser, argv):
    """Where the command starts (help flags after it belong to the job)."""
    if not parser.stop_at_first_arg:
        return len(argv)
    try:
        values, args = parser.parse(argv)
    except UsageError:
        return len(argv)
    return len(argv) - len(args)
