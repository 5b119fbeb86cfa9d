"""A host's job exit rate (LSF's host exceptions, "black hole" hosts).

A host's threshold is its EXIT_RATE (lsb.hosts), else GLOBAL_EXIT_RATE
(lsb.params): jobs exiting per minute, averaged over the last
JOB_EXIT_RATE_DURATION minutes (5).  When the rate goes above it, LSF runs
eadmin, whose default action closes the host (``badmin hclose`` with the
comment below); ``badmin hopen`` opens it again.  As LSF's default
EXIT_RATE_TYPE (JOBEXIT_NONLSF), a job counts when it exits (EXIT) on the
host after it started there, unless it ended for one of LSF's own reasons
(killed by bkill or a limit, preempted, requeued, ...).  Pure: the
controller keeps the times and acts, bhosts -l shows the rate.
"""

DEFAULT_DURATION_MIN = 5
CLOSE_COMMENT = "eadmin: JOB EXIT THRESHOLD EXCEEDED"

# Exits that are LSF's doing, not the host's (JOBEXIT_NONLSF leaves them
# out); TERM_GANG is xce's: a gang member killed because another failed.
IGNORED = frozenset((
    "TERM_ADMIN", "TERM_CHKPNT", "TERM_CPULIMIT", "TERM_DEADLINE",
    "TERM_FORCE_ADMIN", "TERM_FORCE_OWNER", "TERM_LOAD", "TERM_MEMLIMIT",
    "TERM_OWNER", "TERM_PREEMPT", "TERM_PROCESSLIMIT", "TERM_REQUEUE_ADMIN",
    "TERM_REQUEUE_OWNER", "TERM_RUNLIMIT", "TERM_SWAP", "TERM_THREADLIMIT",
    "TERM_UNKNOWN", "TERM_WINDOW", "TERM_ZOMBIE", "TERM_GANG",
    "TERM_BUCKET_KILL"))


def counts(stat, reason):
    """Does a job that ended *stat* for *reason* count on its host?"""
    return stat == "EXIT" and str(reason or "") not in IGNORED


def _number(value):
    if value is None or str(value).strip() in ("", "-"):
        return None
    try:
        return float(str(value).strip())
    except ValueError:
        return None         # the loader refuses it


def threshold(host_keys, params):
    """Jobs per minute above which the host is closed, or None."""
    own = _number((host_keys or {}).get("EXIT_RATE"))
    return own if own is not None else \
        _number((params or {}).get("GLOBAL_EXIT_RATE"))


def window(params):
    """The span the rate is averaged over, in seconds."""
    minutes = _number((params or {}).get("JOB_EXIT_RATE_DURATION"))
    return (minutes if minutes and minutes > 0 else DEFAULT_DURATION_MIN) \
        * 60.0


def rate(times, now, span):
    """Exits per minute over the *span* seconds up to *now*."""
    recent = sum(1 for t in times if now - span < t <= now)
    return recent / (span / 60.0)


def exceeded(times, now, span, limit):
    return limit is not None and rate(times, now, span) > limit


def host_of(exec_hosts):
    """The host a job's exit counts on: its first execution host."""
    names = (exec_hosts or "").split()
    return names[0] if names else None
