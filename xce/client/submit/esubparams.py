"""The LSB_SUB_* job parameters an esub reads and may modify.

LSF's esub protocol names each bsub option by a parameter
(``LSB_SUB_QUEUE``, ``LSB_SUB_NUM_PROCESSORS``, ``LSB_SUB_RLIMIT_RUN`` ...).
bsub writes the job's parameters to ``LSB_SUB_PARM_FILE``; an esub writes
the ones it changes to ``LSB_SUB_MODIFY_FILE``.  A modification is turned
back into bsub option words here and parsed by bsub's own option parser,
then checked by the same code as a command-line value: an esub can do no
more than its user could with bsub options.
"""

import math

# parameter: (bsub option key, option flag, kind).  Kinds: "text" (the
# value as written), "flag" (Y sets the option, N clears it), "seconds"
# (LSF gives -W and -c in seconds; bsub takes minutes), "kb" (-M in KB).
PARAMS = {
    "LSB_SUB_QUEUE": ("queue", "-q", "text"),
    "LSB_SUB_JOB_NAME": ("name", "-J", "text"),
    "LSB_SUB_RES_REQ": ("resreq", "-R", "text"),
    "LSB_SUB_PROJECT_NAME": ("project", "-P", "text"),
    "LSB_SUB_OUT_FILE": ("stdout", "-o", "text"),
    "LSB_SUB_ERR_FILE": ("stderr", "-e", "text"),
    "LSB_SUB_IN_FILE": ("stdin", "-i", "text"),
    "LSB_SUB_HOSTS": ("hosts", "-m", "text"),
    "LSB_SUB_DEPEND_COND": ("depend", "-w", "text"),
    "LSB_SUB_USER_GROUP": ("user_group", "-G", "text"),
    "LSB_SUB_MAIL_USER": ("mail_user", "-u", "text"),
    "LSB_SUB_PRE_EXEC": ("pre_exec", "-E", "text"),
    "LSB_SUB3_POST_EXEC": ("post_exec", "-Ep", "text"),
    "LSB_SUB3_CWD": ("cwd", "-cwd", "text"),
    "LSB_SUB3_JOB_DESCRIPTION": ("description", "-Jd", "text"),
    "LSB_SUB3_APP": ("app", "-app", "text"),
    "LSB_SUB2_JOB_GROUP": ("job_group", "-g", "text"),
    "LSB_SUB2_JOB_PRIORITY": ("priority", "-sp", "text"),
    "LSB_SUB_HOLD": ("hold", "-H", "flag"),
    "LSB_SUB_EXCLUSIVE": ("exclusive", "-x", "flag"),
    "LSB_SUB_NOTIFY_BEGIN": ("mail_begin", "-B", "flag"),
    "LSB_SUB_NOTIFY_END": ("mail_notify", "-N", "flag"),
    "LSB_SUB_RLIMIT_RUN": ("runlimit", "-W", "seconds"),
    "LSB_SUB_RLIMIT_CPU": ("cpulimit", "-c", "seconds"),
    "LSB_SUB_RLIMIT_RSS": ("memlimit", "-M", "kb"),
}
# -n min[,max]: two parameters for one option.
SLOTS = ("LSB_SUB_NUM_PROCESSORS", "LSB_SUB_MAX_NUM_PROCESSORS")
# Written for the esub to read; changing them means nothing.
READ_ONLY = ("LSB_SUB_COMMAND_LINE", "LSB_SUB_ADDITIONAL")


class BadModification(Exception):
    """An esub's modification that bsub refuses (the message says why)."""


def quote(value):
    """A value as a sh-sourceable double-quoted word (LSF's form)."""
    text = str(value)
    for ch in ("\\", '"', "$", "`"):
        text = text.replace(ch, "\\" + ch)
    return '"' + text + '"'


def parm_lines(opts, command_line):
    """The LSB_SUB_* lines of a job's parameters, in LSF's NAME="value"."""
    out = []
    for name, (key, _flag, kind) in PARAMS.items():
        value = opts.get(key)
        if value in (None, False, (), ""):
            continue
        if key == "resreq":
            value = " ".join(value)
        elif kind == "flag":
            value = "Y"
        elif kind in ("seconds", "kb"):
            value = _native(value, kind)
            if value is None:
                continue
        out.append(f"{name}={quote(value)}")
    if opts.get("slots"):
        parts = str(opts["slots"]).split(",")
        for name, part in zip(SLOTS, parts + parts[:1]):
            out.append(f"{name}={quote(part.strip())}")
    out.append(f"LSB_SUB_COMMAND_LINE={quote(command_line)}")
    return out


def _native(value, kind):
    """-W/-c minutes as seconds, -M as written when not a plain number."""
    try:
        if kind == "seconds":
            hours, _, minutes = str(value).rpartition(":")
            return int((int(hours or 0) * 60 + float(minutes)) * 60)
        return int(value)
    except ValueError:
        return None


def parse_modify_file(text):
    """[(name, value)] of an LSB_SUB_MODIFY_FILE (or ENVFILE): lines of
    NAME=value, the value shell-quoted or bare; BadModification on any
    other line."""
    import shlex
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, eq, raw = line.partition("=")
        if not eq or not name or not (name.replace("_", "a").isalnum()
                                      and not name[0].isdigit()):
            raise BadModification(f"line {number} is not NAME=value")
        try:
            words = shlex.split(raw)
        except ValueError:
            words = None
        if words is None or len(words) > 1:
            raise BadModification(f"line {number}: {name} has no single value")
        pairs.append((name, words[0] if words else ""))
    return pairs


def option_words(pairs):
    """(bsub option words, {key: False} for flags cleared) of the
    modifications; BadModification names a parameter xce does not take."""
    words, cleared, slots = [], {}, {}
    for name, value in pairs:
        if name in SLOTS:
            slots[name] = value
            continue
        if name not in PARAMS:
            why = "is read-only" if name in READ_ONLY else \
                "is not supported by xce"
            raise BadModification(f"{name} {why}")
        key, flag, kind = PARAMS[name]
        if kind == "flag":
            if value.upper() == "Y":
                words.append(flag)
            elif value.upper() == "N":
                cleared[key] = False
            else:
                raise BadModification(f"{name}={value}: not Y or N")
            continue
        if kind == "seconds":
            value = _minutes(name, value)
        elif kind == "kb":
            value = _kb(name, value)
        words += [flag, value]
    if slots:
        low = slots.get(SLOTS[0], slots.get(SLOTS[1]))
        high = slots.get(SLOTS[1], low)
        words += ["-n", low if low == high else f"{low},{high}"]
    return words, cleared


def _minutes(name, value):
    if not value.isdigit():
        raise BadModification(f"{name}={value}: not a number of seconds")
    return str(math.ceil(int(value) / 60))


def _kb(name, value):
    if not value.isdigit():
        raise BadModification(f"{name}={value}: not a number of KB")
    return value + "KB"
