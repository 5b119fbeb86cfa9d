"""``bhist``: which jobs, their event histories and the time spent per state.

The history is the store's ``events`` table (one row per event the
controller applied to a job); the job rows say which jobs match.  A job
whose events are gone (or were never written, as for rows loaded straight
into a store) gets a history rebuilt from its row: submitted, dispatched,
finished.
"""

import json
import time

from xce.client import acct_window
from xce.client.jobfmt import cut_name, job_label
from xce.client.jobquery import Query, current_user

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
            ors = []
            for _, jobid, idx in self.ids:
                ors.append("jobid=?" if idx is None else "(jobid=? AND idx=?)")
                args += [jobid] if idx is None else [jobid, idx]
            clauses.append("(" + " OR ".join(ors) + ")")
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
            acct_window.sql_clause(column, window, clauses, args)
        return " AND ".join(clauses), args

    def rows(self, reader):
        where, args = self.where()
        return Query(name=self.name).filter_names(reader.jobs(where, args))


def histories(reader, rows):
    """[(row, [(time, kind, data), ...])] with each job's events, oldest first."""
    found = reader.job_events((r["jobid"], r["idx"]) for r in rows)
    out = []
    for row in rows:
        raw = found.get((row["jobid"], row["idx"]))
        events = [(t, kind, _decode(data)) for t, kind, data in raw] \
            if raw else rebuilt_events(row)
        out.append((row, events))
    return out


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
    out = []
    for t, kind, data in events:
        if kind == "SUBMIT":
            stat = "PSUSP" if data.get("hold") else "PEND"
        elif kind == "START":
            stat = "RUN"
        elif kind == "FINISH":
            stat, t = data.get("stat"), data.get("end_time") or t
        else:
            stat = data.get("stat")
        if stat:
            out.append((int(t), stat))
    return out


def durations(events, now=None):
    """Seconds in each state of STATES, and the time the sums run to."""
    now = int(time.time() if now is None else now)
    spent = dict.fromkeys(STATES, 0)
    steps = transitions(events)
    until = now
    for i, (t, stat) in enumerate(steps):
        if i + 1 < len(steps):
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


def summary_line(row, spent, wide=False):
    values = [spent[s] for s in STATES]
    numbers = "".join(f"{v:<8d}" for v in values) + f"{sum(values):<10d}"
    if wide:
        return (f"{job_label(row):<7} {row.get('user') or '':<7} "
                f"{job_name(row):<9} {numbers}")
    return (f"{job_label(row):<7.7} {row.get('user') or '':<7.7} "
            f"{cut_name(job_name(row), 8):<9.9} {numbers}")


def summary_table(items, wide=False, now=None):
    """The default bhist output for [(row, events)]."""
    lines = [SUMMARY_TITLE, SUMMARY_HEADER]
    for row, events in items:
        spent, _ = durations(events, now)
        lines.append(summary_line(row, spent, wide))
    return "\n".join(lines) + "\n"
