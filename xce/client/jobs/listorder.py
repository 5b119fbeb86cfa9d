"""The order bjobs lists jobs in, as LSF's mbatchd hands them over.

OpenLava's mbatchd (LSF's ancestor) keeps its jobs in lists and answers a
query by walking them in turn: started jobs (running and suspended), then
pending ones, then finished ones.  Started jobs are kept by queue
priority (higher first), then start time; pending ones in the order they
are scheduled: queue priority, then -sp job priority, then position in
the queue (which btop and bbot change); finished ones in the order they
finished.  Every layout (the table, -w, -o, -json, -l) lists the rows in
this order.
"""

from xce.model import states

# Extra columns a listing reads to order its rows.
ORDER_COLUMNS = ("start_time", "end_time")
# And where -sp orders pending jobs (MAX_USER_PRIORITY): the priority and
# when it was set, from the spec of pending jobs only (whose spec is one
# the controller loaded).
PRIORITY_COLUMNS = (
    "CASE WHEN stat IN ('PEND', 'PSUSP') THEN "
    "json_extract(spec, '$.user_priority') END AS _order_sp",
    "CASE WHEN stat IN ('PEND', 'PSUSP') THEN "
    "json_extract(spec, '$.user_priority_time') END AS _order_sp_time")


def columns(policy):
    """The columns ordered() needs under *policy* (see ordered)."""
    return ORDER_COLUMNS + (PRIORITY_COLUMNS if policy is not None else ())


_STARTED, _PENDING, _FINISHED = 0, 1, 2
_LOWEST = float("-inf")


def _part(stat):
    if stat in states.PENDING:
        return _PENDING
    if stat in states.RUNNING:
        return _STARTED
    return _FINISHED            # DONE, EXIT, and ZOMBI (killed, ending)


def _number(value):
    return value if value is not None else 0


def ordered(rows, priorities, policy=None):
    """*rows* (job rows with columns(policy)) in bjobs' order.
    *priorities*: queue name -> priority; *policy*: the userprio.Policy
    of the parameters (None: -sp does not order pending jobs)."""
    if policy is not None:
        from xce.model import userprio      # namedtuple: only when needed
    def key(row):
        part = _part(row["stat"])
        qprio = priorities.get(row["queue"], _LOWEST)
        tail = (_number(row["seq"]), row["jobid"], row["idx"])
        if part == _STARTED:
            return (part, -qprio, _number(row["start_time"])) + tail
        if part == _PENDING:
            rank = 0 if policy is None else userprio.rank(
                policy, row["_order_sp"],
                row["_order_sp_time"] or row["submit_time"])
            return (part, -qprio, -rank) + tail
        return (part, 0, _number(row["end_time"])) + tail
    return sorted(rows, key=key)
