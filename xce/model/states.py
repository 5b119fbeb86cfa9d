"""Job, host and queue states, their groups and the legal job transitions.

Import-free on purpose: commands, the controller and the scheduler share it.
"""

PEND, PSUSP, RUN, USUSP, SSUSP = "PEND", "PSUSP", "RUN", "USUSP", "SSUSP"
DONE, EXIT, UNKWN, ZOMBI = "DONE", "EXIT", "UNKWN", "ZOMBI"

PENDING = frozenset({PEND, PSUSP})
RUNNING = frozenset({RUN, USUSP, SSUSP, UNKWN})
SUSPENDED = frozenset({PSUSP, USUSP, SSUSP})
FINISHED = frozenset({DONE, EXIT})
UNFINISHED = PENDING | RUNNING | {ZOMBI}
ALL = UNFINISHED | FINISHED

# lsb.events JOB_STATUS codes, which some tools read.
CODES = {PEND: 1, PSUSP: 2, RUN: 4, SSUSP: 8, USUSP: 16, EXIT: 32,
         DONE: 64, UNKWN: 65536}

_LEGAL = {
    None: {PEND, PSUSP},
    PEND: {PSUSP, RUN, EXIT},
    PSUSP: {PEND, EXIT},
    # PSUSP: past its pre-exec retry limit (LOCAL_MAX_PREEXEC_RETRY).
    RUN: {USUSP, SSUSP, UNKWN, DONE, EXIT, PEND, PSUSP},
    USUSP: {RUN, SSUSP, UNKWN, DONE, EXIT, PEND},
    SSUSP: {RUN, USUSP, UNKWN, DONE, EXIT, PEND},
    UNKWN: {RUN, USUSP, SSUSP, DONE, EXIT, PEND, ZOMBI},
    ZOMBI: {EXIT, DONE},
    # brequeue -d/-e/-a puts a finished job back in the queue.
    DONE: {PEND, PSUSP},
    EXIT: {PEND, PSUSP},
}


class IllegalTransition(RuntimeError):
    """A broken invariant: the controller stops rather than corrupt state."""


def check_transition(old, new):
    """Return *new* if ``old -> new`` is legal, else raise."""
    if old == new or new in _LEGAL[old]:
        return new
    raise IllegalTransition(f"job state {old} -> {new} is not legal")


# Host states shown by bhosts.
HOST_OK = "ok"
HOST_CLOSED_ADM = "closed_Adm"
HOST_CLOSED_FULL = "closed_Full"
HOST_CLOSED_EXCL = "closed_Excl"
HOST_CLOSED_WIND = "closed_Wind"    # out of its dispatch window
HOST_CLOSED_BUSY = "closed_Busy"    # load beyond a loadSched threshold
HOST_UNAVAIL = "unavail"
HOST_UNREACH = "unreach"
# bhosts without -w shows every closed_* state as this one word.
HOST_CLOSED = "closed"
# The host's agent cannot be reached: no job can go there.
HOST_DOWN = frozenset({HOST_UNAVAIL, HOST_UNREACH})
# lsload's status (LIM's view, not bhosts'): an index is beyond the
# host's LIM threshold (lsf.cluster); batch dispatch does not look at it.
LIM_BUSY = "busy"


def host_closed(status):
    """True for every closed_* state."""
    return status.startswith(HOST_CLOSED)


# Queue states shown by bqueues: "Open:Active", "Closed:Inact", ...
QUEUE_OPEN, QUEUE_CLOSED = "Open", "Closed"
QUEUE_ACTIVE, QUEUE_INACT, QUEUE_INACT_ADM = "Active", "Inact", "Inact_Adm"
# A queue active but out of its dispatch or run window.
QUEUE_INACT_WIN = "Inact_Win"


def queue_status(is_open, active, inactive_word=QUEUE_INACT):
    """bqueues' STATUS of a queue; bqueues -l says QUEUE_INACT_ADM."""
    return ((QUEUE_OPEN if is_open else QUEUE_CLOSED) + ":" +
            (QUEUE_ACTIVE if active else inactive_word))


# lsclusters' cluster status.
CLUSTER_OK, CLUSTER_UNKNOWN = HOST_OK, "unknown"
