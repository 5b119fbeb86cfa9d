"""``bhist -l``: a job's header, one dated line per event, the time summary.

Lines are wrapped as ``bjobs -l`` wraps them (79 columns, continuations
behind 21 spaces); jobs are separated by 78 dashes.  The wording follows
LSF's, because scripts grep it (Snakemake: ``Project <([^<>]+)>``).
"""

import signal
import time

from xce.client.history.changes import modify_lines
from xce.client.history.events import FINISHED, STATES, durations
from xce.client.jobs import values as jv
from xce.client.jobs.long import (SEPARATOR, limits_section, submitted_head,
                                  submitted_line)
from xce.client.jobs.table import job_label
from xce.client.text import units
from xce.client.text.wrap import wrap
from xce.model import suspreasons
from xce.model.joboutput import fallback_sentences
from xce.errors import text as _text
from xce.lang.rlimits import as_submitted

SUMMARY_BY = "Summary of time in seconds spent in various states by"
STATE_HEADER = "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL"


def long_history(items, now=None, queues=None, brief=False):
    """The whole ``bhist -l`` text for [(row, events)]; *queues*: each
    queue's configuration by name (its RUNLIMIT and ESTIMATED_RUNTIME
    show among a job's limits, as in bjobs -l).  *brief*: ``bhist -b``,
    the same but for the submission, which says only where from, to
    which queue and when the job may start and must end (no files, no
    requests, no limits)."""
    now = time.time() if now is None else now
    queues = queues or {}
    return ("\n" + SEPARATOR + "\n").join(
        job_history(row, events, now, queues, brief)
        for row, events in items)


def job_history(row, events, now, queues=None, brief=False):
    """One job's text; *queues*: each queue's configuration by name."""
    spec = jv.spec(row)
    home = jv.home_of(row.get("user"))
    lines = [header_line(row, spec)]
    for t, kind, data in events:
        if kind == "SUBMIT" and brief:
            lines.append(_brief_submit(row, spec, t, data))
            continue
        lines += event_lines(row, spec, home, t, kind, data)
        if kind == "SUBMIT":
            lines += submitted_limits(row, spec, data, queues or {})
    spent, until = durations(events, now)
    values = [spent[s] for s in STATES]
    numbers = "".join(f"{v:<9d}" for v in values) + f"{sum(values):<12d}"
    text = "\n" + "\n".join(wrap(line) for line in lines) + "\n"
    return (text + f"\n{SUMMARY_BY}  {units.long_time(until)}\n"
            f"{STATE_HEADER}\n  {numbers}\n")


def submitted_limits(row, spec, data, queues):
    """LSF's place for the job's limits: after its submission, in bjobs
    -l's blocks, as submitted (each bmod or bswitch since is said in its
    own lines): those the SUBMIT event recorded, with the RUNLIMIT and
    ESTIMATED_RUNTIME of the queue it went to.  A job from before the
    event recorded them shows its current ones."""
    queue = queues.get(data.get("queue") or row.get("queue"))
    block = limits_section(row, as_submitted(spec, data.get("limits")),
                           queue)
    return block + [""] if block else []


def _brief_submit(row, spec, t, data):
    """bhist -b's submission line: no files, requests or limits."""
    queue = data.get("queue") or row.get("queue")
    head = submitted_head(row, spec, queue).split(": ", 1)[1]
    return f"{units.long_time(t)}: {head};"


def header_line(row, spec):
    items = [f"Job <{job_label(row)}>"]
    if spec.get("name"):
        items.append(f"Job Name <{row.get('name')}>")
    command = (row.get("command") or "").replace("\n", "; ")
    items += [f"User <{row.get('user')}>",
              f"Project <{spec.get('project') or 'default'}>"]
    if spec.get("mail_user"):               # bsub -u, as bjobs -l shows it
        items.append(f"Mail <{spec['mail_user']}>")
    if jv.interactive_mode(spec):
        items.append(jv.interactive_mode(spec))
    items.append(f"Command <{command}>")
    if spec.get("description"):             # bsub -Jd, as bjobs -l
        items.append(f"Job Description <{spec['description']}>")
    return ", ".join(items)


def event_lines(row, spec, home, t, kind, data):
    """The dated line(s) one event prints; [] for events bhist does not show."""
    stamp = units.long_time(t) + ": "
    if kind == "MODIFY":            # bmod: the stamp on its first line only
        first, *rest = modify_lines(data)
        return [stamp + first] + rest
    fn = _EVENTS.get(kind)
    if fn is None:
        stat = data.get("stat")
        return [stamp + _status_text(stat, data) + ";"] if stat else []
    return [stamp + text for text in fn(row, spec, home, data)]


def _submit(row, spec, home, data):
    queue = data.get("queue") or row.get("queue")
    return [submitted_line(row, spec, home, queue).split(": ", 1)[1]]


def _start(row, spec, home, data):
    hosts = data.get("hosts") or jv.hosts(row)
    where = " ".join(f"<{h}>" for h in jv.counted_hosts(hosts))
    n = len(hosts)
    text = (f"Dispatched {n} Task(s) on Host(s) {where}, "
            f"Allocated {n} Slot(s) on Host(s) {where}")
    if spec.get("resreq_merged"):
        text += f", Effective RES_REQ <{spec['resreq_merged']}>"
    return [text + ";"]


def _running(row, spec, home, data):
    from xce.model.outdir import working_directory
    pid = data.get("pid")
    cwd = (working_directory(row, spec) if spec.get("cwd") else None) or \
        home or ""
    return [f"Starting (Pid {pid});",
            f"Running with execution home <{home or ''}>, Execution CWD "
            f"<{cwd}>, Execution Pid <{pid}>;"]


def _signal(row, spec, home, data):
    return [f"Signal <{signal_name(data.get('signal'))}> requested by user "
            f"or administrator <{data.get('by')}>;"]


def _status(row, spec, home, data):
    stat = data.get("stat")
    if stat in FINISHED and data.get("pre_failed") is not None:
        # Ended by its pre-exec (exit 99, or past its retry limit).
        return [f"{PREEXEC_FAILED};", f"Exited with exit code "
                f"{data.get('exit_code')}.;", _completed(data)]
    if stat in FINISHED:
        if not data.get("by"):      # ended by the system (bsub -t passed)
            return ["Exited;", _completed(data)]
        return [f"Signal <KILL> requested by user or administrator "
                f"<{data.get('by')}>;", "Exited;", _completed(data)]
    return [_status_text(stat, data) + ";"]


def _requeue(row, spec, home, data):
    """brequeue, a lost host, a failed pre-exec, an exit value of
    bsub -Q / REQUEUE_EXIT_VALUES (LSF: the exit code after the reason),
    or a gang's policy when another member did not start."""
    stat = data.get("stat")
    if data.get("gang"):        # its gang's policy (xce gang, continue)
        return [f"{REQUEUED} ({data.get('cause')});"]
    if data.get("exit_code") is not None and not data.get("by") and \
            data.get("pre_failed") is None:
        return [f"Pending: Requeued job is waiting for rescheduling;"
                f"(exit code {data['exit_code']})"]
    if data.get("pre_failed") is None:
        if stat == "PEND":      # brequeue, or a rerunnable job's lost host
            return [f"{REQUEUED};"]
        return [_status_text(stat, data) + ";"]
    if stat == "PSUSP":
        return [f"{PREEXEC_FAILED};", "Suspended: the pre-exec retry limit "
                f"is reached ({data.get('preexec_tries')} attempts);"]
    return [f"Pending: {PREEXEC_FAILED};"]


def _post(row, spec, home, data):
    if data.get("post") == "RUN":       # one host's part; more to come
        return []
    return [("Post job process done successfully" if data.get("post") ==
             "POST_DONE" else "Post job process failed") + ";"]


PREEXEC_FAILED = _text("PREEXEC_PEND")
START_FAILED = _text("START_FAILED_PEND")
REQUEUED = "Pending: Job has been requeued"


def _finish(row, spec, home, data):
    cpu = data.get("cpu_time")
    used = "" if cpu is None else f" The CPU time used is {cpu:.1f} seconds"
    moved = fallback_sentences(data.get("output_fallback")) + \
        _staging(data)
    if data.get("stat") == "DONE":
        return [f"Done successfully.{used};"] + moved
    code = data.get("exit_code")
    text = f"Exited with exit code {code}." if code else "Exited."
    return [text + used + ";", _completed(data)] + moved


def _staging(data):
    """bsub -f copies that failed, in LSF's words."""
    return [f"{e};" for e in data.get("stage_errors") or ()]


def _completed(data):
    reason = jv.exit_reason({"exit_reason": data.get("reason")})
    return f"Completed <exit>; {reason}." if reason else "Completed <exit>."


def _status_text(stat, data):
    by = data.get("by")
    if stat == "USUSP":
        return f"Suspended by the user or administrator <{by}>"
    if stat == "PSUSP":
        return f"Suspended by the user or administrator <{by}> while pending"
    if stat == "PEND":
        if data.get("start_failed"):    # its host discarded its start
            return f"Pending: {START_FAILED}"
        if data.get("by"):      # bresume of a job held while pending
            return "Pending: Waiting for scheduling after resumed by user"
        return REQUEUED
    if stat == "RUN":
        return "Running"
    if stat == "SSUSP" and data.get("reason") == suspreasons.USER_RESUME:
        return f"Suspended: {suspreasons.RESUMED_WAITING}"
    if stat == "SSUSP":
        return "Suspended by the system"
    if stat == "UNKWN":
        return "Unknown; unable to reach the execution host"
    return f"Status changed to <{stat}>"


def signal_name(sig):
    """``KILL`` for 9 or ``SIGKILL``; other text as given."""
    if isinstance(sig, int) or (isinstance(sig, str) and sig.isdigit()):
        try:
            return signal.Signals(int(sig)).name[3:]
        except ValueError:
            return str(sig)
    sig = str(sig)
    return sig[3:] if sig.startswith("SIG") else sig


_EVENTS = {"SUBMIT": _submit, "START": _start, "RUNNING": _running,
           "SIGNAL": _signal, "STATUS": _status, "FINISH": _finish,
           "USAGE": lambda *a: [], "REQUEUE": _requeue, "POST": _post,
           "OUTPUT": lambda row, spec, home, data:
           fallback_sentences(data.get("output_fallback")) + _staging(data)}
