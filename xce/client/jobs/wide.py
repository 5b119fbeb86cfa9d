"""bjobs -W (wide, with usage and times), -WL, -WF, -WP and host condensing.

-W prints the -w line followed by PROJ_NAME CPU_USED MEM SWAP PIDS
START_TIME FINISH_TIME, times as ``MM/DD-HH:MM:SS`` and ``-`` when unset.
-WL, -WF and -WP each add one column to the chosen layout: time left, the
expected finish time and the percentage of the run limit used, marked
``L`` because xce estimates from the run limit.
With ``LSB_SHORT_HOSTLIST=1`` the execution hosts print as ``4*hostA``;
-X asks for them one per slot again.
"""

import time

from xce.client.jobs import table
from xce.client.jobs import values as jv
from xce.client.jobs.fields import FIELDS, Job
from xce.client.text.units import cpu_text, wide_time

W_HEADER = table.HEADER + ("  PROJ_NAME CPU_USED MEM SWAP PIDS START_TIME "
                            "FINISH_TIME")
# flag -> header and width of the column it adds, in LSF's order (the
# widths of bjobs -o time_left and finish_time)
EXTRA = (("WL", "TIME_LEFT", 11), ("WF", "FINISH_TIME", 16),
         ("WP", "%COMPLETE", 11))


def w_line(job):
    """One -W line: nothing truncated, hosts joined with ':'."""
    row = job.row
    started = jv.started(row)
    exec_host = ":".join(jv.hosts(row)) if started else "-"
    pids = ",".join((row.get("pids") or "").split()) \
        if started and not jv.finished(row) else ""
    mem = (row.get("max_mem") or 0) if started else 0
    return (f"{table.job_label(row):<7} {row['user']:<7} {row['stat']:<5.5} "
            f"{row['queue']:<10} {row['from_host']:<11} {exec_host:<11} "
            f"{row['name']:<10} {wide_time(row['submit_time']):<14.14} "
            f"{job.spec.get('project') or 'default':<10} "
            f"{cpu_text(row.get('cpu_time')):<10} {mem:<6} {0:<6} "
            f"{pids or ' - '}"
            f" {wide_time(row['start_time']) if started else '-'}"
            f" {wide_time(row['end_time']) if jv.finished(row) else '-'}")


def percent_complete(job):
    limit = jv.runlimit_minutes(job.row, job.spec, job.queue_conf)
    row = job.row
    if not limit or not jv.started(row):
        return ""
    end = row["end_time"] if jv.finished(row) else job.now
    used = max(0.0, (end or job.now) - row["start_time"])
    return f"{min(100, int(used * 100 // (limit * 60)))}% L"


_VALUES = {"WL": FIELDS["time_left"][2], "WF": FIELDS["finish_time"][2],
           "WP": percent_complete}


def extra_header(flags):
    # One blank more than the lines: SUBMIT_TIME is a character shorter
    # than the times under it.
    cells = "".join(f" {name:<{width}}" for flag, name, width in EXTRA
                    if flag in flags)
    return (" " + cells).rstrip() if cells else ""


def extra_values(job, flags):
    return "".join(f" {_VALUES[flag](job) or '-':<{width}}"
                   for flag, _, width in EXTRA if flag in flags).rstrip()


def jobs(rows, reader, now=None):
    """Job views (decoded submission, queue limits) for the -W layouts."""
    now = time.time() if now is None else now
    queues = {q["name"]: q["conf"] for q in reader.queues()}
    return [Job(dict(r), now, queues) for r in rows]


def condensed(row):
    """The row with its execution hosts as ``N*host`` words."""
    names = (row["exec_hosts"] or "").split()
    if len(names) < 2:
        return row
    row = dict(row)
    row["exec_hosts"] = " ".join(jv.counted_hosts(names))
    return row
