"""bjobs' table layouts: default, -w, -p (with pend reasons)."""


from xce.client.text.units import short_time
from xce.model import jsoncodec, suspreasons
from xce.store.reader import HELD_SPEC
from xce.model.jobid import show
from xce.errbase import text as _text

HEADER = ("JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   "
          "JOB_NAME   SUBMIT_TIME")
PEND_HEADER = ("JOBID   USER    STAT  QUEUE       FROM_HOST      "
               "JOB_NAME           SUBMIT_TIME")
EXEC_COLUMN = 45        # where continuation exec hosts line up


# Columns the table layouts read: fetching only these keeps bjobs fast.
LIST_COLUMNS = ("jobid", "idx", "stat", "user", "queue", "name", "from_host",
                "exec_hosts", "submit_time", "pend_reason", "seq", HELD_SPEC)

def cut_name(name, width):
    """LSF cuts long names from the front and marks them with ``*``."""
    name = name or ""
    if len(name) <= width:
        return name
    return "*" + name[-(width - 1):]


def job_label(row):
    return show(row["jobid"], row["idx"])


def default_line(row, wide=False):
    hosts = (row["exec_hosts"] or "").split()
    if wide:
        exec_host = ":".join(hosts) or ""
        return (f"{job_label(row):<7} {row['user']:<7} {row['stat']:<5} "
                f"{row['queue']:<10} {row['from_host']:<11} "
                f"{exec_host:<11} {row['name']:<10} "
                f"{short_time(row['submit_time'])}")
    # The line every bjobs prints thousands of times: calls inlined.
    jobid, idx, name = row["jobid"], row["idx"], row["name"] or ""
    if len(name) > 10:
        name = "*" + name[-9:]
    line = (f"{(f'{jobid}[{idx}]' if idx else jobid)!s:<7} "
            f"{row['user']:<7.7} {row['stat']:<5.5} "
            f"{row['queue']:<10.10} {row['from_host']:<11.11} "
            f"{hosts[0] if hosts else '':<11.11} {name:<10} "
            f"{short_time(row['submit_time'])}")
    if len(hosts) < 2:
        return line
    return "\n".join([line] + [" " * EXEC_COLUMN + h[:11]
                                for h in hosts[1:]])


def pend_line(row, wide=False):
    if wide:
        return (f"{job_label(row):<7} {row['user']:<7} {row['stat']:<5} "
                f"{row['queue']:<11} {row['from_host']:<14} "
                f"{row['name']:<18} {short_time(row['submit_time'])}")
    return (f"{job_label(row):<7} {row['user']:<7.7} {row['stat']:<5.5} "
            f"{row['queue']:<11.11} {row['from_host']:<14.14} "
            f"{cut_name(row['name'], 18):<18} "
            f"{short_time(row['submit_time'])}")


PSUSP_REASON = suspreasons.USER_HELD


def held_reason(row):
    """Why a PSUSP job is held: by its user, or by an administrator
    (the spec's text is looked into before it is decoded)."""
    spec = (row["spec"] if "spec" in row.keys() else None) or ""
    if suspreasons.ADMIN_STOP in spec and \
            suspreasons.admin_stopped(jsoncodec.loads(spec)):
        return suspreasons.ADMIN_HELD
    return PSUSP_REASON
NEW_REASON = "New job is waiting for scheduling"


def pend_reasons(row, host_names=False):
    """Reason lines for a pending job: job-wide, or host-based with counts."""
    try:
        reasons = jsoncodec.loads(row["pend_reason"]) if row["pend_reason"] \
            else None
    except ValueError:
        reasons = None
    if row["stat"] == "PSUSP":
        # Suspended past its pre-exec retry limit: LSF says why.
        if reasons and reasons[0][0] == _text("PREEXEC_PEND"):
            return [f" {reasons[0][0]};"]
        return [f" {held_reason(row)};"]
    if not reasons:
        return [f" {NEW_REASON};"]
    lines = []
    for text, hosts in reasons:
        if hosts is None:
            lines.append(f" {text};")
        elif host_names:
            lines.append(f" {text}: {', '.join(hosts)};")
        else:
            n = len(hosts)
            lines.append(f" {text}: {n} host{'s' if n != 1 else ''};")
    return lines
