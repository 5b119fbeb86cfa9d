"""LSF load thresholds: ``loadSched/loadStop`` of a queue (lsb.queues
``r1m = 0.7/2.0``) or a host (lsb.hosts columns), over the built-in load
indices the agents report.

A host whose load is beyond a scheduling threshold (loadSched) takes no
new job; one beyond a stopping threshold (loadStop) has a job suspended,
which is resumed once the load is back within the scheduling thresholds.
"Beyond" is above for the indices that grow with load (r15s r1m r15m ut
pg io ls) and below for those that shrink (it tmp swp mem).  Pure.
"""

# In LSF's order (bqueues -l and bhosts -l print them so).
INDICES = ("r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp",
           "swp", "mem")
DECREASING = frozenset({"it", "tmp", "swp", "mem"})
SCHED, STOP = 0, 1

# Pend reason of a host beyond a scheduling threshold, per index (LSF's).
PEND_REASONS = {
    "r15s": "The 15s effective CPU queue length (r15s) is beyond threshold",
    "r1m": "The 1 min effective CPU queue length (r1m) is beyond threshold",
    "r15m": "The 15 min effective CPU queue length (r15m) is beyond "
            "threshold",
    "ut": "The CPU utilization (ut) is beyond threshold",
    "pg": "The paging rate (pg) is beyond threshold",
    "io": "The disk IO rate (io) is beyond threshold",
    "ls": "There are too many login users (ls)",
    "it": "The idle time (it) is not long enough",
    "tmp": "The available /tmp space (tmp) is low",
    "swp": "The available swap space (swp) is low",
    "mem": "The available memory (mem) is low",
}
# bjobs -l SUSPENDING REASONS of a job suspended by load (LSF's).
SUSPEND_NAMES = {
    "r15s": "15-second CPU run queue length (r15s)",
    "r1m": "1-minute CPU run queue length (r1m)",
    "r15m": "15-minute CPU run queue length (r15m)",
    "ut": "1-minute CPU utilization (ut)",
    "pg": "Paging rate (pg)",
    "io": "Disk IO rate (io)",
    "ls": "Number of login sessions (ls)",
    "it": "Idle time (it)",
    "tmp": "Available /tmp space (tmp)",
    "swp": "Available swap space (swp)",
    "mem": "Available memory (mem)",
}


class ThresholdError(ValueError):
    pass


def parse(value):
    """(loadSched, loadStop) of one index's value (each None when not
    set): ``sched/stop``, ``sched``, ``sched/`` or ``/stop``; ``()``, ``-``
    or nothing sets neither."""
    if isinstance(value, bool):
        raise ThresholdError(f"{value!r} is not loadSched[/loadStop]")
    if isinstance(value, (int, float)):
        return float(value), None
    text = "".join(str(value if value is not None else "").split())
    if text in ("", "()", "-"):
        return None, None
    parts = text.split("/")
    if len(parts) > 2:
        raise ThresholdError(f"{text!r} is not loadSched[/loadStop]")
    out = []
    for part in parts:
        if part in ("", "-", "()"):
            out.append(None)
            continue
        try:
            number = float(part)
        except ValueError:
            raise ThresholdError(f"{text!r} is not loadSched[/loadStop] "
                                 "(numbers)") from None
        if number != number or number in (float("inf"), float("-inf")) \
                or number < 0:
            raise ThresholdError(f"{text!r}: a threshold is a number, 0 or "
                                 "more")
        out.append(number)
    return out[0], out[1] if len(out) == 2 else None


def of(props):
    """{index: (sched, stop)} of the indices *props* sets (a queue's keys
    or a host's columns); raises ThresholdError naming the index."""
    found = {}
    for name in INDICES:
        if name in props:
            try:
                pair = parse(props[name])
            except ThresholdError as e:
                raise ThresholdError(f"{name}: {e}") from None
            if pair != (None, None):
                found[name] = pair
    return found


def beyond(thresholds, load, which=SCHED):
    """The first index (LSF's order) whose *load* is beyond its *which*
    threshold, or None.  An index the host did not report is not beyond."""
    if not thresholds or not load:
        return None
    for name in INDICES:
        pair = thresholds.get(name)
        limit = pair[which] if pair else None
        value = load.get(name)
        if limit is None or value is None:
            continue
        if value < limit if name in DECREASING else value > limit:
            return name
    return None


def cells(thresholds, which):
    """The threshold of each index, LSF's order, None where not set."""
    return [(thresholds.get(n) or (None, None))[which] for n in INDICES]
