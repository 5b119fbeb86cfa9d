"""``bhist``: which jobs, their event histories and the time spent per state.

The history is the store's ``events`` table (one row per event the
controller applied to a job); the job rows say which jobs match.  A job
whose events are gone (or were never written, as for rows loaded straight
into a store) gets a history rebuilt from its row: submitted, dispatched,
finished.
"""

import json
import time

from xce.client.history.windows import sql_clause
from xce.client.jobs.table import cut_name, job_label
from xce.client.jobs.query import Query, ids_clause
from xce.client.site import current_user
from xce.store.reader import Several

PENDING = ("PEND", "PSUSP")
FINISHED = ("DONE", "EXIT")
# The columns of the time summary, in LSF's order.
STATES = ("PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN")

SUMMARY_TITLE = "Summary of time in seconds spent in various states:"
SUMMARY_HEADER = ("JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     USUSP   "
                  "SSUSP   UNKWN   TOTAL")


class Selection:
    """The jobs a bhist/bacct command line names, as SQL over the jobs table.

    *stats*: None for the default (unfinished jobs), "all" for every job,
    else the set of states asked for.  Job ids select any user, and any
    state unless states are asked for.
    *windows*: column -> (t0, t1) from -C/-S/-D.
    """

    def __init__(self, user=None, queue=None, name=None, ids=(), stats=None,
                 windows=None):
        self.user = user
        self.queue = queue
        self.name = name
        self.ids = Query(ids=ids).ids
        self.stats = stats
        self.windows = windows or {}

    def where(self):
        clauses, args = [], []
        if self.ids:
            clauses.append(ids_clause(self.ids, args))
            if self.stats not in (None, "all"):
                marks = ",".join("?" * len(self.stats))
                clauses.append(f"stat IN ({marks})")
                args += sorted(self.stats)
        else:
            user = self.user or current_user()
            if user != "all":
                clauses.append("user=?")
                args.append(user)
            if self.stats is None:
                clauses.append("stat NOT IN ('DONE','EXIT')")
            elif self.stats != "all":
                marks = ",".join("?" * len(self.stats))
                clauses.append(f"stat IN ({marks})")
                args += sorted(self.stats)
        if self.queue:
            clauses.append("queue=?")
            args.append(self.queue)
        for column, window in self.windows.items():
            sql_clause(column, window, clauses, args)
        return " AND ".join(clauses), args

    def rows(self, reader, columns=None):
        """The jobs in the order they were submitted, as LSF's bhist reads
        them from lsb.events (not their places in their queues, which
        btop and bbot change)."""
        where, args = self.where()
        rows = reader.jobs(where, args, **({"columns": columns}
                                           if columns else {}))
        rows.sort(key=lambda r: (r["submit_time"] or 0, r["jobid"],
                                 r["idx"]))
        return Query(name=self.name).filter_names(rows)


# What the time table and a history rebuilt from a row read of a job: the
# big columns (spec, pend_reason) stay in the store.
SUMMARY_COLUMNS = ("jobid", "idx", "stat", "user", "queue", "name",
                   "submit_time", "start_time", "end_time", "exec_hosts",
                   "attempt", "exit_code", "exit_reason", "cpu_time")


def histories(reader, rows):
    """[(row, [(time, kind, data), ...])] with each job's events, oldest first."""
    found = reader.job_events((r["jobid"], r["idx"]) for r in rows)
    own = [_own(found, row) for row in rows]
    datas = iter(decode_all([data for raw in own if raw
                              for _, _, data in raw]))
    return [(row, [(t, kind, next(datas)) for t, kind, _ in raw] if raw
             else rebuilt_events(row)) for row, raw in zip(rows, own)]


def _own(found, row):
    """The events of *row*'s job: of the job submitted when it was,
    where its id served several jobs (MAX_JOBID wrapped)."""
    events = found.get((row["jobid"], row["idx"]))
    if type(events) is Several:
        return events.of(row["submit_time"])
    return events


def decode_all(texts):
    """The events' JSON objects, parsed as one array: one call instead of
    one per event (which cost most of ``bhist -l -a`` at 100,000 jobs)."""
    try:
        values = json.loads("[" + ",".join(t or "{}" for t in texts) + "]")
    except ValueError:
        values = None
    if values is None or len(values) != len(texts):
        return [_decode(t) for t in texts]      # one bad row: each alone
    return [v if isinstance(v, dict) else {} for v in values]


def _decode(data):
    try:
        value = json.loads(data or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def rebuilt_events(row):
    """A job's main events from its row alone."""
    events = [(row.get("submit_time") or 0, "SUBMIT",
               {"queue": row.get("queue"), "user": row.get("user")})]
    if row.get("start_time") and row.get("exec_hosts"):
        events.append((row["start_time"], "START",
                       {"hosts": row["exec_hosts"].split(),
                        "attempt": row.get("attempt") or 1}))
    if row.get("stat") in FINISHED:
        kind = "FINISH" if row.get("start_time") else "STATUS"
        events.append((row.get("end_time") or 0, kind, {
            "stat": row["stat"], "exit_code": row.get("exit_code"),
            "reason": row.get("exit_reason"), "cpu_time": row.get("cpu_time"),
            "end_time": row.get("end_time")}))
    return events


def transitions(events):
    """[(whole second, state)] each time the job's state changed."""
    return state_steps((t, kind, data.get("stat"), data.get("hold"),
                        data.get("end_time")) for t, kind, data in events)


def state_steps(steps):
    """transitions() over (time, kind, stat, hold, end_time) tuples, as
    Reader.job_state_steps gives them."""
    out = []
    for t, kind, stat, hold, end_time in steps:
        if kind == "SUBMIT":
            stat = "PSUSP" if hold else "PEND"
        elif kind == "START":
            stat = "RUN"
        elif kind == "FINISH":
            t = end_time or t
        if stat:
            out.append((int(t), stat))
    return out


def durations(events, now=None):
    """Seconds in each state of STATES, and the time the sums run to."""
    now = int(time.time() if now is None else now)
    return spent_in_states(transitions(events), now)


def spent_in_states(steps, now):
    spent = dict.fromkeys(STATES, 0)
    until = now
    last = len(steps) - 1
    for i, (t, stat) in enumerate(steps):
        if i < last:
            span = max(0, steps[i + 1][0] - t)
        elif stat in FINISHED:
            until = t
            break
        else:
            span = max(0, now - t)
        if stat in FINISHED:
            stat = "PEND"       # finished, then requeued: waiting again
        spent[stat if stat in spent else "UNKWN"] += span
    return spent, until


def job_name(row):
    name = row.get("name") or ""
    if row.get("idx"):
        name = f"{name.split('[', 1)[0]}[{row['idx']}]"
    return name


_NUMBERS = "%-8d" * len(STATES) + "%-10d"


def summary_line(row, spent, wide=False):
    values = [spent[s] for s in STATES]
    numbers = _NUMBERS % (*values, sum(values))
    if wide:
        return (f"{job_label(row):<7} {row.get('user') or '':<7} "
                f"{job_name(row):<9} {numbers}")
    return (f"{job_label(row):<7.7} {row.get('user') or '':<7.7} "
            f"{cut_name(job_name(row), 8):<9.9} {numbers}")


def summary_table(items, wide=False, now=None):
    """The default bhist output for [(row, events)]."""
    now = int(time.time() if now is None else now)
    lines = [SUMMARY_TITLE, SUMMARY_HEADER]
    for row, events in items:
        spent, _ = spent_in_states(transitions(events), now)
        lines.append(summary_line(row, spent, wide))
    return "\n".join(lines) + "\n"


def summary_of_rows(reader, rows, wide=False, now=None):
    """summary_table for job rows, reading only the state-deciding part of
    their events (no event is decoded in Python)."""
    now = int(time.time() if now is None else now)
    found = reader.job_state_steps((r["jobid"], r["idx"]) for r in rows)
    lines = [SUMMARY_TITLE, SUMMARY_HEADER]
    for row in rows:
        raw = _own(found, row)
        steps = state_steps(raw) if raw else \
            transitions(rebuilt_events(row))
        spent, _ = spent_in_states(steps, now)
        lines.append(summary_line(row, spent, wide))
    return "\n".join(lines) + "\n"
