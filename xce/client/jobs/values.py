"""Values derived from a job row, shared by ``bjobs -l`` and ``bjobs -o``.

Stdlib only and cheap: every bjobs call may import it.  Memory amounts in
the store are KB; LSF prints them scaled, as ``Kbytes``/``Mbytes``/``Gbytes``.
"""

import functools
import json
import time

# bacct/bjobs wording of the exit reasons (the -l line adds a final ".").
EXIT_REASONS = {
    "TERM_OWNER": "job killed by owner",
    "TERM_ADMIN": "job killed by root or LSF administrator",
    "TERM_RUNLIMIT": "job killed after reaching LSF run time limit",
    "TERM_MEMLIMIT": "job killed after reaching LSF memory usage limit",
    "TERM_CPULIMIT": "job killed after reaching LSF CPU usage limit",
    "TERM_SWAP": "job killed after reaching LSF swap usage limit",
    "TERM_PROCESSLIMIT": "job killed after reaching LSF process limit",
    "TERM_THREADLIMIT": "job killed after reaching LSF thread limit",
    "TERM_DEADLINE": "job killed after deadline expires",
    "TERM_FORCE_OWNER": "job killed by owner without time for cleanup",
    "TERM_FORCE_ADMIN": "job killed by root or LSF administrator without "
                        "time for cleanup",
    "TERM_REQUEUE_OWNER": "job killed and requeued by owner",
    "TERM_REQUEUE_ADMIN": "job killed and requeued by root or LSF "
                          "administrator",
    "TERM_PREEMPT": "job killed after preemption",
    "TERM_EXTERNAL_SIGNAL": "job killed by a signal external to LSF",
    "TERM_CWD_NOTEXIST": "current working directory is not accessible or "
                         "does not exist on the execution host",
    "TERM_UNKNOWN": "LSF cannot determine a termination reason",
    "TERM_ZOMBIE": "job exited while LSF is not available",
}

_SCALE = (("K", 1), ("M", 1024), ("G", 1024 ** 2), ("T", 1024 ** 3),
          ("P", 1024 ** 4), ("E", 1024 ** 5), ("Z", 1024 ** 6))
_UNIT_FACTOR = dict(_SCALE)


def spec(row):
    """The submission (a dict) of a job row; {} if absent or unreadable."""
    try:
        return json.loads(row.get("spec") or "{}")
    except ValueError:
        return {}


def hosts(row):
    """Execution hosts, one entry per slot."""
    return (row.get("exec_hosts") or "").split()


def started(row):
    return bool(row.get("start_time")) and bool(hosts(row)) and \
        row.get("stat") not in ("PEND", "PSUSP")


def finished(row):
    return row.get("stat") in ("DONE", "EXIT")


def counted_hosts(names):
    """``a a b`` -> ``["2*a", "b"]``, in first-seen order (LSF's host lists)."""
    counts = {}
    for h in names:
        counts[h] = counts.get(h, 0) + 1
    return [f"{n}*{h}" if n > 1 else h for h, n in counts.items()]


def _trim(number, decimals=1):
    """One decimal, but ``48`` rather than ``48.0`` as LSF prints."""
    text = f"{number:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def mem_bytes(kb):
    """``344 Mbytes``, ``2.5 Gbytes``, ``900 Kbytes``; "" when unknown."""
    if kb is None or kb <= 0:
        return ""
    kb = int(kb)
    if kb < 1024:
        return f"{kb} Kbytes"
    if kb < 1024 ** 2:
        return f"{kb // 1024} Mbytes"
    for letter, factor in reversed(_SCALE):
        if kb >= factor:
            return f"{_trim(kb / factor)} {letter}bytes"
    return f"{kb} Kbytes"


def mem_in_unit(kb, unit):
    """A memory amount in the unit a ``-o`` field asked for (``GB``, ``S``).

    LSF keeps two decimals with a unit letter (``0.01G``); ``S`` scales
    automatically and drops the ``bytes`` suffix.
    """
    if kb is None or kb <= 0:
        return ""
    letter = unit.upper()[:1]
    if letter == "S":
        text = mem_bytes(kb)
        return text.replace(" ", "").replace("bytes", "")
    return f"{kb / _UNIT_FACTOR[letter]:.2f}{letter}"


def limit_amount(kb):
    """A memory limit as bjobs -l prints it: ``3.9 G``, ``100 M``."""
    for letter, factor in reversed(_SCALE):
        if kb >= factor:
            return f"{_trim(kb / factor)} {letter}"
    return f"{int(kb)} K"


def long_time(t):
    """``Thu Mar 18 02:06:32``, the stamp of bjobs -l and history lines."""
    return time.strftime("%a %b %d %H:%M:%S", time.localtime(t))


def hms(seconds):
    """``00:00:01`` (hours grow past 99 rather than wrap)."""
    s = int(seconds or 0)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


@functools.lru_cache(maxsize=256)
def home_of(user):
    """The user's home directory, or None if the name is unknown here."""
    import pwd
    try:
        return pwd.getpwnam(user).pw_dir
    except (KeyError, TypeError):
        return None


def home_relative(path, home):
    """LSF shows a directory under the user's home as ``$HOME/...``."""
    if not path or not home or home == "/":
        return path
    if path == home:
        return "$HOME"
    if path.startswith(home.rstrip("/") + "/"):
        return "$HOME/" + path[len(home.rstrip("/")) + 1:]
    return path


def exit_reason(row):
    """``TERM_OWNER: job killed by owner``; "" for none."""
    code = row.get("exit_reason")
    if not code:
        return ""
    text = EXIT_REASONS.get(code)
    return f"{code}: {text}" if text else code


def runlimit_minutes(row, job_spec, queue_conf=None):
    """The job's run limit in minutes: its own -W, else its queue's."""
    if job_spec.get("runlimit"):
        return float(job_spec["runlimit"])
    limit = (queue_conf or {}).get("runlimit")
    if limit:
        return float(limit[0])
    return None
