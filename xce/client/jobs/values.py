"""Values derived from a job row, shared by ``bjobs -l`` and ``bjobs -o``.

Stdlib only and cheap: every bjobs call may import it.  Memory and time
text is in xce.client.text.units.
"""

import functools

from xce.model import jsoncodec, userprio

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
    "TERM_WINDOW": "job killed after queue run window closed",
    "TERM_LOAD": "job killed after load exceeds threshold",
    # xce's own: a gang group's failure policy (xce gang, xce(1)).
    "TERM_GANG": "job killed because another member of its gang group "
                 "failed",
    "TERM_EXTERNAL_SIGNAL": "job killed by a signal external to LSF",
    "TERM_BUCKET_KILL": "job killed with bkill -b",
    "TERM_CWD_NOTEXIST": "current working directory is not accessible or "
                         "does not exist on the execution host",
    "TERM_UNKNOWN": "LSF cannot determine a termination reason",
    "TERM_ZOMBIE": "job exited while LSF is not available",
}

def spec(row):
    """The submission (a dict) of a job row; {} if absent or unreadable."""
    try:
        return jsoncodec.loads(row.get("spec") or "{}")
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


# bjobs -l and bhist -l name an interactive job's mode in its header.
_INTERACTIVE_MODES = {"I": "Interactive mode",
                      "Ip": "Interactive pseudo-terminal mode",
                      "Is": "Interactive pseudo-terminal shell mode"}


def interactive_mode(spec):
    """LSF's words for bsub -I, -Ip, -Is; None for a batch job."""
    return _INTERACTIVE_MODES.get(spec.get("interactive"))


def priority(row, spec, prio, now):
    """The job's priority as LSF's bjobs -l shows it: with
    MAX_USER_PRIORITY, its -sp or the default, escalated while it pends
    (JOB_PRIORITY_OVER_TIME) and no further once started or finished."""
    if prio is None:
        return spec.get("user_priority")
    until = row.get("start_time") if started(row) else \
        row.get("end_time") if finished(row) else now
    since = spec.get("user_priority_time") or row.get("submit_time")
    return userprio.current(prio, spec.get("user_priority"), since, until)
