"""``bacct``: accounting of finished jobs, LSF's SUMMARY block and -l blocks.

The summary is computed by SQLite over the matching job rows (sums,
minima, maxima), so it costs one indexed query whatever the number of
jobs; ``-l`` reads the rows themselves.
"""

import time

from xce.client.history.long import _completed
from xce.client.jobs import values as jv
from xce.client.jobs.long import SEPARATOR, header_line, submitted_line
from xce.client.text import units
from xce.client.text.wrap import wrap

TABLE_HEADER = ("     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR"
                "    MEM    SWAP")

# Per job: wait (queued until start, or until the end if it never started),
# turnaround, run time, hog factor; aggregated by SQLite.
_WAIT = "(COALESCE(start_time, end_time) - submit_time)"
_TURN = "(end_time - submit_time)"
_RUN = "(CASE WHEN start_time IS NOT NULL THEN end_time - start_time END)"
_CPU = "COALESCE(cpu_time, 0)"
_HOG = f"(CASE WHEN {_TURN} > 0 THEN {_CPU} / {_TURN} ELSE 0 END)"
_EXP = f"(CASE WHEN {_RUN} > 0 THEN {_TURN} * 1.0 / {_RUN} END)"
_TOTALS = ("SUM(stat='DONE')", "SUM(stat='EXIT')",
           f"SUM({_CPU})", f"MAX({_CPU})", f"MIN({_CPU})",
           f"SUM({_WAIT})", f"MAX({_WAIT})", f"MIN({_WAIT})",
           f"SUM({_TURN})", f"MAX({_TURN})", f"MIN({_TURN})",
           f"AVG({_HOG})", f"MAX({_HOG})", f"MIN({_HOG})",
           f"AVG({_EXP})", f"MAX({_EXP})", f"MIN({_EXP})",
           f"SUM({_RUN})", f"MAX({_RUN})", f"MIN({_RUN})", f"COUNT({_RUN})",
           "MIN(end_time)", "MAX(end_time)")
_KEYS = ("done", "exited", "cpu", "cpu_max", "cpu_min", "wait", "wait_max",
         "wait_min", "turn", "turn_max", "turn_min", "hog", "hog_max",
         "hog_min", "exp", "exp_max", "exp_min", "run", "run_max", "run_min",
         "ran", "first_end", "last_end")


def totals(reader, where, args):
    row = reader.job_totals(_TOTALS, where, args)
    return {k: (v or 0) for k, v in zip(_KEYS, row)}


def header(users, queue=None, project=None, host=None):
    if users == "all":
        who = "  - submitted by all users."
    else:
        who = f"  - submitted by users {users},"
    where = f"  - submitted to queues {queue}," if queue else \
        "  - submitted to all queues."
    return "\n".join([
        "Accounting information about jobs that are: ", who,
        f"  - accounted on projects {project}," if project else
        "  - accounted on all projects.", "  - completed normally or exited",
        f"  - executed on hosts {host}," if host else
        "  - executed on all hosts.", where,
        "  - accounted on all service classes.", SEPARATOR]) + "\n"


def summary(t):
    """The SUMMARY block (LSF's field widths) from :func:`totals`."""
    n = t["done"] + t["exited"]
    avg = (lambda x: x / n) if n else (lambda x: 0.0)
    lines = [
        "SUMMARY:      ( time unit: second ) ",
        f" Total number of done jobs:{t['done']:8d}      "
        f"Total number of exited jobs:{t['exited']:6d}",
        f" Total CPU time consumed:{t['cpu']:10.1f}      "
        f"Average CPU time consumed:{avg(t['cpu']):8.1f}",
        f" Maximum CPU time of a job:{t['cpu_max']:8.1f}      "
        f"Minimum CPU time of a job:{t['cpu_min']:8.1f}",
        f" Total wait time in queues:{t['wait']:8.1f}",
        f" Average wait time in queue:{avg(t['wait']):7.1f}",
        f" Maximum wait time in queue:{t['wait_max']:7.1f}      "
        f"Minimum wait time in queue:{t['wait_min']:7.1f}",
        f" Average turnaround time:{int(avg(t['turn'])):10d} (seconds/job)",
        f" Maximum turnaround time:{int(t['turn_max']):10d}      "
        f"Minimum turnaround time:{int(t['turn_min']):10d}",
        f" Average hog factor of a job:{t['hog']:6.2f} "
        "( cpu time / turnaround time )",
        f" Maximum hog factor of a job:{t['hog_max']:6.2f}      "
        f"Minimum hog factor of a job:{t['hog_min']:6.2f}",
        f" Average expansion factor of a job:  {t['exp']:.2f} "
        "( turnaround time / run time )",
        f" Maximum expansion factor of a job:  {t['exp_max']:.2f}",
        f" Minimum expansion factor of a job:  {t['exp_min']:.2f}",
        f" Total Run time consumed:{int(t['run']):10d}      Average Run time "
        f"consumed:{int(t['run'] / t['ran']) if t['ran'] else 0:8d}",
        f" Maximum Run time of a job:{int(t['run_max']):8d}      "
        f"Minimum Run time of a job:{int(t['run_min']):8d}"]
    if n:
        span = t["last_end"] - t["first_end"]
        if span > 0:
            hours = span / 3600.0
            lines.append(f" Total throughput:{n / hours:17.2f} (jobs/hour)"
                         f"  during{hours:8.2f} hours")
        lines.append(f" Beginning time:       {_day_minute(t['first_end'])}"
                     f"      Ending time:          "
                     f"{_day_minute(t['last_end'])}")
    return "\n".join(lines) + "\n"


def _day_minute(t):
    tm = time.localtime(t)
    return (f"{time.strftime('%b', tm)} {tm.tm_mday:>2} "
            f"{time.strftime('%H:%M', tm)}")


def job_block(row):
    """One job of ``bacct -l``: its story, then its accounting line."""
    spec = jv.spec(row)
    home = jv.home_of(row.get("user"))
    lines = [header_line(row, spec), submitted_line(row, spec, home)]
    end = units.long_time(row.get("end_time") or 0)
    if row.get("start_time") and jv.hosts(row):
        hosts = jv.hosts(row)
        where = " ".join(f"<{h}>" for h in jv.counted_hosts(hosts))
        lines.append(f"{units.long_time(row['start_time'])}: Dispatched "
                     f"{len(hosts)} Task(s) on Host(s) {where};")
    if row.get("stat") == "DONE":
        lines.append(f"{end}: Completed <done>.")
    else:
        lines.append(f"{end}: " + _completed({"reason": row.get("exit_reason")}))
    return ("\n" + "\n".join(wrap(line) for line in lines) +
            "\n\nAccounting information about this job:\n" + TABLE_HEADER +
            "\n" + table_line(row) + "\n" + SEPARATOR + "\n")


def table_line(row):
    submit = row.get("submit_time") or 0
    end = row.get("end_time") or submit
    start = row.get("start_time") or end
    cpu = row.get("cpu_time") or 0.0
    turn = int(end - submit)
    hog = cpu / turn if turn > 0 else 0.0
    status = "done" if row.get("stat") == "DONE" else "exit"
    return (f"{cpu:10.2f} {int(start - submit):8d} {turn:14d} {status:>8} "
            f"{hog:14.4f} {units.mem_compact(row.get('max_mem')):>6} {'0M':>7}")


