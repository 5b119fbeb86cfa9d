"""Argument vectors for every command of setup.cfg, and a faithful way to
run many of them fast: each command's ``main(argv)`` called in this
process with stdin, stdout and stderr replaced, ``SystemExit`` caught and
any other exception counted as the traceback the real command would have
printed.

Options come from the commands themselves (the lsfargs tables of the LSF
commands, the click parameters of xce's own tools), so a new option or command is fuzzed without a change
here.  Values come from a vocabulary of what users mistype: numbers out of
range, full-width and superscript digits, signs, fractions, 40 digits,
empty and blank words, undecodable bytes (as Python shows them in argv),
names that exist and names that do not.  The vocabulary is safe to run
as a job command and as job options: no word names a directory outside
the campaign's, so -o, -e and -cwd write nowhere else (not "/", "~root"
or "$HOME", which jobs run as root would write into).  It avoids what
waits by design (bsub -K, bpeek -f) or stops the cluster (xce start/stop,
badmin hshutdown ...), which get only names that match nothing.
"""

import configparser
import gc
import importlib
import io
import signal
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import click

REPO = Path(__file__).resolve().parents[2]
TRACEBACK = "Traceback (most recent call last)"

BAD_NUMBERS = ["-1", "0", "-0", "1.5", "0.01", "1e3", "+7", "1_000", " 3",
               "1234567890" * 4, "99999999999999999999", "2147483648",
               "\uff13", "\u00b2", "\u0663", "\U0001d7d9", "NaN", "inf",
               "0x10", "3,", ",3", "1,0", "5,2", "1:75", "1:30", "-1:-1",
               "90/hostA", "4GB", "12XB", "-4G", "1.5G", "9" * 400 + "G"]
GOOD_NUMBERS = ["1", "2", "3", "10", "60", "100"]
WORDS = ["", " ", "\t", "-", "--", "all", "default", "normal", "short",
         "nosuch", "root", "nosuchuser", "\udcff", "\u00e9t\u00e9",
         "\uff41\uff42", "a" * 5000, "%s%n", "[1-3]", "x[", "*", "~nosuchuser",
         "others", "hostA+2", "h!", "h@c", "'", '"', "\\", "$NOSUCHVAR",
         "a b", "select[mem>100] rusage[mem=10]", "span[ptile=0]",
         "select[", "rusage[mem=-1]", "order[r15s", "done(1)",
         "ended(*)", "exit(1,==0)", "done(", "numrun(1,", "jobid",
         "stat:5 user", "jobid:99999999999", "unknown_field",
         ".-1,.", ".-\u00b2,.", "2026/13/40", "SIGTERM", "KILL", "\u00b9",
         "/nonexistent/x", "out.txt", "script.sh", "lsfconf", "outdir"]
JOB_IDS = ["1", "2", "3", "0", "1[1]", "1[0]", "2[99999]", "-1",
           "99999999999999999999", "1[", "1]", "\uff11", "1[\u00b2]"]
SAFE_COMMANDS = ["true", "echo hi", "sleep 0", "exit 3", "", " "]
# Subcommands that would stop or restart the cluster under test: they get
# targets that match nothing.
HARMFUL = {"xce": {"start", "stop"},
           "badmin": {"hshutdown", "hrestart", "hstartup", "qclose",
                      "qinact", "hclose", "mbdrestart"},
           "lsadmin": {"limshutdown", "resshutdown", "limrestart",
                       "resrestart", "reconfig"}}
NO_MATCH = ["nosuch", "\uff4e\uff4f", "", "-", "99999999999999999999"]
# Options that wait by design (a job's end, a file's growth).
WAITING = {("bsub", "-K"), ("bpeek", "-f"), ("bwait", "-w")}
# Daemons: only vectors that fail before they would start one.
DAEMONS = {"xce-controller", "xce-agent"}


def entry_points():
    """{command: "module:function"} of setup.cfg's console scripts."""
    cfg = configparser.ConfigParser()
    cfg.read(REPO / "setup.cfg")
    text = cfg["options.entry_points"]["console_scripts"]
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {name.strip(): target.strip() for name, target in pairs}


class Command:
    """One command: its main(), its options (flag -> takes a value) and
    its subcommands (for click groups)."""

    def __init__(self, name, target):
        module_name, func = target.split(":")
        self.name = name
        module = importlib.import_module(module_name)
        self.main = getattr(module, func)
        self.options, self.subcommands = {}, {}
        if hasattr(module, "PARSER"):
            self.options = _parser_options(module.PARSER)
        elif hasattr(module, "COMMANDS"):
            self.subcommands = {
                sub: _parser_options(parser)
                for sub, (parser, _) in module.COMMANDS.commands.items()}
        elif hasattr(module, "cli"):
            self.options = _click_options(module.cli)
            if isinstance(module.cli, click.Group):
                self.subcommands = {
                    sub: _click_options(cmd)
                    for sub, cmd in module.cli.commands.items()}


def _parser_options(parser):
    """flag -> takes a value, of an lsfargs table (its refused options
    too: they must be refused whatever follows)."""
    out = {flag: False for flag in parser.refused}
    for opt in parser.opts:
        for flag in opt.flags:
            out[flag] = opt.takes
    return out


def _click_options(command):
    out = {}
    for param in command.params:
        if isinstance(param, click.Option):
            for flag in param.opts + param.secondary_opts:
                out[flag] = not param.is_flag
    return out


def commands():
    return [Command(name, target) for name, target in
            sorted(entry_points().items())]


def _value(rnd, flag):
    roll = rnd.random()
    if roll < 0.35:
        return rnd.choice(BAD_NUMBERS)
    if roll < 0.5:
        return rnd.choice(GOOD_NUMBERS)
    if roll < 0.6:
        return rnd.choice(JOB_IDS)
    return rnd.choice(WORDS)


def vector(rnd, command):
    """One argument vector for *command*."""
    argv, options = [], command.options
    if command.subcommands:
        sub = rnd.choice(sorted(command.subcommands) + ["nosuchsub", ""])
        argv.append(sub)
        options = command.subcommands.get(sub, {})
        if sub in HARMFUL.get(command.name, ()):
            return argv + [rnd.choice(NO_MATCH)]
    flags = sorted(f for f in options
                   if (command.name, f) not in WAITING)
    for _ in range(rnd.randrange(0, 4)):
        if flags and rnd.random() < 0.85:
            flag = rnd.choice(flags)
            argv.append(flag)
            if options[flag]:
                argv.append(_value(rnd, flag))
        elif flags and rnd.random() < 0.5:
            argv.append(glued(rnd, flags))
        else:
            argv.append(rnd.choice(["-Z", "-", "--", "-\uff4c", "-W="]))
    argv += _positionals(rnd, command)
    if command.name in DAEMONS:
        argv.append("--no-such-option")
    return argv


def glued(rnd, flags):
    """An option word with a value stuck to it, cut short or with another
    option's letters (the issue's -outdir, -Jd, -ext, -gpu as -o, -J, -e
    and -g would have read them): it must be refused, never run."""
    flag = rnd.choice(flags)
    kind = rnd.randrange(3)
    if kind == 0:
        return flag + rnd.choice(["d", "xt", "pu", "utdir", "name", "4"])
    if kind == 1 and len(flag) > 2:
        return flag[:rnd.randrange(2, len(flag))]
    return flag + rnd.choice(flags)[1:]


def option_words(command):
    """The words a job's command must never start with: the command's
    options, implemented and refused."""
    return set(command.options)


def _positionals(rnd, command):
    if command.name == "bsub":
        return [rnd.choice(SAFE_COMMANDS)] if rnd.random() < 0.9 else []
    pool = JOB_IDS if rnd.random() < 0.6 else WORDS
    return [rnd.choice(pool) for _ in range(rnd.randrange(0, 3))]


class Hung(BaseException):
    """A command ran past its time (BaseException: no ``except Exception``
    in a command may swallow it)."""


def _on_alarm(signum, frame):
    raise Hung()


class Outcome:
    def __init__(self, code, out, err, traceback=None, hung=False):
        self.code, self.out, self.err = code, out, err
        self.traceback, self.hung = traceback, hung


def _stream():
    """A text stream like a terminal's under a UTF-8 locale: strict
    encoding (a lone surrogate printed to it fails as it would for real)
    and a byte buffer for commands that write bytes."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict",
                            write_through=True)


def run_in_process(command, argv, seconds=5.0):
    """Call *command*'s main(argv) as its console script would run."""
    out, err = _stream(), _stream()
    err.reconfigure(errors="backslashreplace")
    saved = sys.stdin, sys.argv
    sys.stdin = io.StringIO("")
    sys.argv = [command.name, *argv]
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    code, trace, hung = 0, None, False
    try:
        with redirect_stdout(out), redirect_stderr(err):
            command.main(list(argv))
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None
                                                       else 1)
    except Hung:
        hung = True
    except Exception as e:          # noqa: BLE001 -- what the fuzz counts
        import traceback as tb
        trace = "".join(tb.format_exception(e))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        sys.stdin, sys.argv = saved
        _as_at_exit()
    return Outcome(code, _text(out), _text(err), trace, hung)


_calls = [0]


def _as_at_exit():
    """What the end of a real process does for the next call: the
    collector back on (bhist turns it off for its own run), and store
    connections left to the collector closed every 50 calls rather than
    after hundreds of calls have used up the descriptors.  What was
    loaded before the campaign is frozen, so a collection walks only
    what the calls made."""
    gc.enable()
    _calls[0] += 1
    if _calls[0] == 1:
        gc.collect()
        gc.freeze()
    elif _calls[0] % 50 == 0:
        gc.collect()


def _text(stream):
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "replace")
