"""Building a submission from bsub's options, #BSUB lines and the environment.

``re``, ``shlex`` and ``xce.lang.units`` (which loads ``re`` and
``decimal``) are imported by the readers of the options that need them:
a plain ``bsub command`` then starts without them.
"""


from xce import oslite
from xce.errbase import XceError, about, text
from xce.model import jobcwd, numbers


class SubmitError(XceError):
    """``str()`` is printed followed by ``. Job not submitted.``"""


def bsub_lines(script):
    """Option words from the script's ``#BSUB`` lines, in order."""
    import shlex
    words = []
    for line in script.splitlines():
        # As LSF: the text after #BSUB must begin with an option, else the
        # line is prose and skipped.
        if line.startswith("#BSUB") and line[5:].lstrip().startswith("-"):
            try:
                words += shlex.split(_uncommented(line[5:]), comments=False)
            except ValueError:
                raise SubmitError(about(line.strip(), "BAD_ARGUMENT"))
    return words


def _uncommented(text):
    """*text* up to its comment: as LSF reads a #BSUB line, a word that
    begins with ``#`` ends it (``-W 10  # minutes``); a ``#`` inside a
    word, inside quotes or after a backslash does not."""
    quote, escaped, word_start = None, False, True
    for i, ch in enumerate(text):
        blank = False
        if escaped:
            escaped = False
        elif quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                escaped = True
        elif ch == "\\":
            escaped = True
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and word_start:
            return text[:i]
        else:
            blank = ch in " \t"
        word_start = blank
    return text


def read_script_file(word):
    """The text of *word* if it names a text file to copy, else None."""
    try:
        with open(word, "rb") as f:
            head = f.read(1 << 20)
    except OSError:
        return None
    if b"\0" in head[:4096]:
        return None         # a binary: run it, do not copy it
    try:
        return head.decode()
    except UnicodeDecodeError:
        return None


def parse_slots(value):
    """-n min[,max]: LSF's "Bad argument for option -n" for what is not
    one or two whole numbers (ASCII digits, within an int), and its
    "must be a positive integer" for 0 or less."""
    if value is None:
        return [1, 1]
    groups = slot_words(value)
    pair = [numbers.whole(g, low=None) for g in groups] if groups else [None]
    if None in pair[:1] or (groups and groups[1] and pair[1] is None):
        raise SubmitError(text("BAD_N"))
    lo = pair[0]
    hi = lo if pair[1] is None else pair[1]
    if lo <= 0 or hi <= 0:
        raise SubmitError(text("PROCS_NOT_POSITIVE"))
    if hi < lo:
        raise SubmitError(text("BAD_N"))
    return [lo, hi]


_ASCII_SPACE = " \t\n\r\f\v"


def slot_words(value):
    """The two numbers of ``min[,max]`` (max None when absent), each an
    optional sign and ASCII digits, spaces around them allowed; None for
    anything else.  (What the pattern
    ``\\s*([+-]?[0-9]+)\\s*(?:,\\s*([+-]?[0-9]+)\\s*)?`` matches, without
    loading re: tests/unit/test_lean_parsers.py holds them together.)"""
    words = [w.strip(_ASCII_SPACE) for w in value.split(",")]
    if len(words) > 2 or not all(
            numbers.digits(w[1:] if w[:1] in ("+", "-") else w)
            for w in words):
        return None
    return words[0], (words[1] if len(words) == 2 else None)


def parse_priority(value):
    """-sp: a whole number above 0 (LSF's "Illegal job priority")."""
    if value is None:
        return None
    priority = numbers.whole(str(value).strip(), low=1)
    if priority is None:
        raise SubmitError(about(value, "BAD_PRIORITY"))
    return priority


def parse_hosts(value):
    """The words of -m, their syntax checked (the controller checks the
    names against the configuration and the queue)."""
    from xce.lang import hostlist
    words = hostlist.split(value)
    try:
        hostlist.parse(words)
    except hostlist.BadHostList as e:
        raise SubmitError(str(e))
    return words


def parse_runlimit(value, fractions=False):
    """-W [hour:]minute in whole minutes, LSF's words for each refusal.
    With *fractions* (XCE_FRACTIONAL_RUNLIMIT=Y) minutes may have
    decimals, so that tests and demonstrations can use seconds.  A
    ``/host`` is refused here (-We takes none)."""
    minutes, host = parse_run_spec(value, fractions)
    if host is not None:
        raise SubmitError(about(value, "BAD_RUNLIMIT"))
    return minutes


def parse_run_spec(value, fractions=False):
    """-W [hour:]minute[/host_name | /host_model]: (minutes, host or model
    or None); the controller checks that the host or model exists."""
    if value is None:
        return None, None
    from xce.lang import units
    try:
        minutes, host = units.clock_minutes(value, fractions)
    except ValueError:
        minutes = host = None
    if minutes is None:
        raise SubmitError(about(value, "BAD_RUNLIMIT"))
    if minutes > units.RUNLIMIT_MAX_MINUTES:
        raise SubmitError(about(value, "RUNLIMIT_TOO_BIG"))
    if minutes <= 0:
        raise SubmitError(about(value, "RUNLIMIT_NOT_POSITIVE"))
    return float(minutes), host


def run_fields(value, fractions=False):
    """The spec's runlimit and, when -W names one, runlimit_host."""
    minutes, host = parse_run_spec(value, fractions)
    return {"runlimit": minutes, **({"runlimit_host": host} if host else {})}


def fractional_runlimit(site):
    """XCE_FRACTIONAL_RUNLIMIT=Y (xce.yaml parameters, or the environment)."""
    return str(site.setting("XCE_FRACTIONAL_RUNLIMIT") or "").upper() in \
        ("Y", "YES", "TRUE")


def parse_memlimit(value, unit):
    if value is None:
        return None
    from xce.lang import units
    try:
        kb = units.memory_kb(value, unit)
    except ValueError:
        kb = -1
    if kb <= 0:
        raise SubmitError(about(value, "MEMLIMIT_NOT_POSITIVE"))
    return kb


def job_environment(rule, environ):
    """Apply LSF's -env rule: all, none, "all, ~VAR, VAR=val", "VAR1, VAR2"."""
    rule = (rule or "all").strip()
    items = [i.strip() for i in rule.split(",") if i.strip()]
    if not items:
        raise SubmitError(about(rule, "BAD_ARGUMENT"))
    first = items[0].lower()
    env = dict(environ) if first == "all" else {}
    rest = items[1:] if first in ("all", "none") else items
    for item in rest:
        if item.startswith("~"):
            env.pop(item[1:], None)
        elif "=" in item:
            k, _, v = item.partition("=")
            env[k.strip()] = v
        elif item in environ:
            env[item] = environ[item]
    return env


def parse_array_limit(value):
    """bmod -J "%N": N, a whole number from 1, as bsub -J takes it."""
    if not (value.isascii() and value.isdigit()) or not \
            1 <= int(value) <= 2**31 - 1:
        raise SubmitError(text("ARRAY_INDEX"))
    return int(value)


def check_job_name(name):
    if name is not None and (not name or len(name) > 4094 or
                             "[" in name or "]" in name):
        raise SubmitError(text("BAD_JOB_NAME"))


def user_group_fields(value):
    """bsub/bmod -G: {"user_group": group}, or {"user_group_exclude":
    [group, ...]} for -G "~group ..." (xce.model.ugroupsel); both forms
    at once are refused here."""
    from xce.model import ugroupsel
    try:
        group, excluded = ugroupsel.parse(value)
    except ugroupsel.BadGroupOption as e:
        raise SubmitError(text(e.key, str(e)))
    if excluded:
        return {"user_group_exclude": list(excluded)}
    return {"user_group": group}


def submission_cwd():
    pwd = oslite.getenv("PWD")
    try:
        if pwd and oslite.samefile(pwd, "."):
            return pwd
    except OSError:
        pass
    return oslite.getcwd()


def resolve_cwd(asked, subcwd):
    """bsub's -cwd (or LSB_JOB_CWD) made the job's working directory by
    the one rule (xce.model.jobcwd); a bad one is refused."""
    try:
        return jobcwd.resolve(asked, subcwd)
    except jobcwd.BadCwd as e:
        raise SubmitError(text(e.key, **e.fields))


def check_cwd(asked):
    """bmod -cwd: what can be checked before the job's own submission
    directory (the controller's) resolves it."""
    try:
        jobcwd.check_asked(asked)
    except jobcwd.BadCwd as e:
        raise SubmitError(text(e.key, **e.fields))


def asked_cwd(opt_cwd):
    """-cwd, else the submitter's LSB_JOB_CWD (LSF's order: -cwd, then
    LSB_JOB_CWD); None without either.  An empty LSB_JOB_CWD is unset."""
    if opt_cwd is not None:
        return opt_cwd
    return oslite.getenv("LSB_JOB_CWD") or None


def from_host():
    # What socket.gethostname() returns on Linux, without loading socket.py.
    return oslite.uname().nodename
