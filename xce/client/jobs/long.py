"""``bjobs -l``: LSF's long, multi-line job description.

Each job is a list of logical lines (the header, then one line per event,
then blocks such as RUNLIMIT and MEMORY USAGE) that are wrapped mechanically
after 79 characters (see :mod:`xce.client.text.wrap`); jobs are separated
by a line of 78 dashes.  Tools parse these strings (Toil: ``Status <RUN>``,
``Done successfully``, ``Completed <exit>``, ``MAX MEM: (.*?);``), so the
wording follows LSF's.
"""

import time

from xce.client.jobs import table
from xce.client.jobs import values as jv
from xce.client.text import limits, units
from xce.client.text.wrap import CONTINUATION, wrap
from xce.lang import loadthresh
from xce.model import suspreasons, ugroupsel, userprio
from xce.model.joboutput import fallback_sentences

SEPARATOR = "-" * 78
# LSF's SUSP_MBD_PREEMPT: suspended by the scheduler for a higher-priority
# job (PREEMPTION in lsb.queues); it resumes when its slots are free.
PREEMPTED_REASON = "The job was preempted by a higher priority job"


def long_format(rows, reader=None, params=None, now=None, gpu=False):
    """The whole ``bjobs -l`` text for *rows* (print adds the last newline);
    *gpu*: each record ends with the GPUs the job holds (bjobs -l -gpu)."""
    now = time.time() if now is None else now
    queues = {q["name"]: q["conf"] for q in reader.queues()} if reader else {}
    held = reader.reservations() if reader else {}
    unit = (params or {}).get("LSF_UNIT_FOR_LIMITS")
    prio = userprio.policy(params)
    records = [job_record(row, queues.get(row.get("queue")), now,
                          held.get((row.get("jobid"), row.get("idx"))), unit,
                          prio)
               for row in rows]
    if gpu:
        from xce.client.cluster import gpus
        devs = {h["name"]: gpus.devices(h) for h in reader.hosts()} \
            if reader else {}
        records = ["\n".join([rec, *gpus.bjobs_section(
            row, jv.spec(row), devs)]) for rec, row in zip(records, rows)]
    return ("\n" + SEPARATOR + "\n").join(records) + "\n"


def job_record(row, queue_conf=None, now=None, held=None, unit=None,
               prio=None):
    """One job's text: a leading blank line, then its wrapped lines.
    *held*: the job's slot reservation (Reader.reservations), if any;
    *prio*: the cluster's userprio.Policy (None: MAX_USER_PRIORITY unset)."""
    now = time.time() if now is None else now
    spec = jv.spec(row)
    home = jv.home_of(row.get("user"))
    lines = [header_line(row, spec, jv.priority(row, spec, prio, now)),
             submitted_line(row, spec, home)]
    if jv.started(row):
        lines.append(started_line(row, spec, home))
        lines += output_lines(row, spec)
    elif held and held.get("hosts"):
        lines.append(reserved_line(held))
    lines += state_lines(row, now)
    lines += [f"{e};" for e in spec.get("stage_errors") or ()]  # bsub -f
    lines += limits_section(row, spec, queue_conf)
    lines += memory_lines(row)
    lines += resreq_lines(row, spec, queue_conf, unit)
    return "\n" + "\n".join(wrap(line) for line in lines)


_FILED_UNDER = (("app", "Application"), ("user_group", "User Group"),
                ("job_group", "Job Group"))


def header_line(row, spec, priority=None):
    items = [f"Job <{table.job_label(row)}>"]
    if spec.get("name"):                  # only a name the user gave (-J)
        items.append(f"Job Name <{row.get('name')}>")
    items += [f"User <{row.get('user')}>",
              f"Project <{spec.get('project') or 'default'}>"]
    # What the job is filed under, when it names it (bsub -app/-G/-g).
    # -G "~group ...": the excluded groups as given (ugroupsel.shown).
    filed = dict(spec, user_group=ugroupsel.shown(spec))
    items += [f"{label} <{filed[key]}>" for key, label in _FILED_UNDER
              if filed.get(key)]
    if spec.get("mail_user"):             # bsub -u
        items.append(f"Mail <{spec['mail_user']}>")
    items += [f"Status <{row.get('stat')}>", f"Queue <{row.get('queue')}>"]
    if jv.interactive_mode(spec):
        items.append(jv.interactive_mode(spec))
    priority = spec.get("user_priority") if priority is None else priority
    if priority:
        items.append(f"Job Priority <{priority}>")
    command = (row.get("command") or "").replace("\n", "; ")
    items.append(f"Command <{command}>")
    if spec.get("description"):             # bsub -Jd
        items.append(f"Job Description <{spec['description']}>")
    if spec.get("share_path"):      # the fairshare account it started in
        path = "/".join(str(name) for name in spec["share_path"])
        items.append(f"Share group charged </{path}>")
    return ", ".join(items)


def _file_item(label, path, mode):
    # -oo/-eo (mode "w") replace the file; LSF marks them "(overwrite)".
    if mode == "w":
        label += " (overwrite)"
    return f"{label} <{path}>"


def submitted_line(row, spec, home, queue=None):
    """The ``Submitted from host`` line; *queue*: bhist's ``to Queue``."""
    items = [f"CWD <{jv.home_relative(spec.get('subcwd'), home) or '$HOME'}>"]
    if spec.get("specified_cwd"):
        items.append(f"Specified CWD <{spec['specified_cwd']}>")
    if spec.get("stdin"):
        items.append(f"Input File <{spec['stdin']}>")
    if spec.get("stdout"):
        items.append(_file_item("Output File", spec["stdout"],
                                spec.get("stdout_mode")))
    if spec.get("stderr"):
        items.append(_file_item("Error File", spec["stderr"],
                                spec.get("stderr_mode")))
    if spec.get("xfiles"):                # bsub -f, as LSF shows them
        items.append("Copy Files " + " ".join(
            f'"{e[0]} {e[1]} {e[2]}"' for e in spec["xfiles"]))
    items += _request_items(spec)
    return ", ".join([submitted_head(row, spec, queue)] + items) + ";"


def submitted_head(row, spec, queue=None):
    """The submission line up to its files: stamp, host, queue, and the
    bsub -b and -t times, where LSF puts them (bhist -b stops here)."""
    text = (f"{units.long_time(row.get('submit_time') or 0)}: "
            f"Submitted from host <{row.get('from_host')}>")
    if spec.get("hold"):
        text += " with hold"
    if queue:
        text += f", to Queue <{queue}>"
    if spec.get("begin_time"):
        text += (", Specified Start Time "
                 f"<{units.long_time(spec['begin_time'])}>")
    if spec.get("term_time"):
        text += (", Specified Termination Time "
                 f"<{units.long_time(spec['term_time'])}>")
    return text


def requested_resources(spec):
    """The -R text bjobs -l and bhist show: the one -R string, or the
    merged requirement of several; "" when none was given."""
    resreq = spec.get("resreq") or []
    if len(resreq) == 1:
        return resreq[0]
    return (spec.get("resreq_merged") or " ".join(resreq)) if resreq else ""


def _request_items(spec):
    items = _notify_items(spec)
    if spec.get("exclusive"):
        items.append("Exclusive Execution")
    if spec.get("rerunnable"):            # bsub -r
        items.append("Re-runnable")
    if spec.get("requeue_exit"):          # bsub -Q
        items.append(f"Requeue Exit Values <{spec['requeue_exit']}>")
    lo, hi = (spec.get("nslots") or [1, 1])[:2]
    if lo == hi and lo > 1:
        items.append(f"{lo} Task(s)")
    elif hi > lo:
        items.append(f"{lo}-{hi} Processors Requested")
    if requested_resources(spec):
        items.append(f"Requested Resources <{requested_resources(spec)}>")
    depend = spec.get("depend") or spec.get("dependency")
    if depend:
        items.append(f"Dependency Condition <{depend}>")
    if spec.get("hostfile"):
        items.append(f"Host file <{spec['hostfile']}>")
    elif spec.get("asked_hosts"):
        items.append("Specified Hosts " + ", ".join(
            f"<{w}>" for w in spec["asked_hosts"]))
    if spec.get("nnodes"):
        items.append(f"{spec['nnodes']} Nodes Requested")
    if spec.get("outdir"):
        items.append(f"Output Directory <{spec['outdir']}>")
    # bsub -L, -E, -Ep, as LSF names them.
    for key, label in (("login_shell", "Login Shell"),
                       ("pre_exec", "Pre-execution Command"),
                       ("post_exec", "Post-execution Command")):
        if spec.get(key):
            items.append(f"{label} <{spec[key]}>")
    return items


def _notify_items(spec):
    """bsub -B / -N, in LSF's words."""
    begin, end = spec.get("mail_begin"), spec.get("mail_notify")
    if begin and end:
        return ["Notify when job begins/ends"]
    if begin:
        return ["Notify when job begins"]
    return ["Notify when job ends"] if end else []


def started_line(row, spec, home):
    hosts = jv.hosts(row)
    where = " ".join(f"<{h}>" for h in jv.counted_hosts(hosts))
    n = len(hosts)
    items = [f"{units.long_time(row['start_time'])}: Started {n} Task(s) on "
             f"Host(s) {where}", f"Allocated {n} Slot(s) on Host(s) {where}"]
    if home:
        items.append(f"Execution Home <{home}>")
    if spec.get("cwd"):
        from xce.model.outdir import working_directory
        items.append(f"Execution CWD <{working_directory(row, spec)}>")
    if not spec.get("stdout") and row.get("outfile"):
        # No -o: the output is kept under the spool; say where.
        items.append(f"Output File (spool) <{row['outfile']}>")
    return ", ".join(items) + ";"


def output_lines(row, spec):
    """-o/-e files the job's user could not open, and where the output
    went instead (known a moment after the start)."""
    stamp = units.long_time(row["start_time"])
    return [f"{stamp}: {sentence}" for sentence in
            fallback_sentences(spec.get("output_fallback"))]


def reserved_line(held):
    """A pending job's reserved slots, as LSF words them."""
    hosts = held["hosts"]
    n = sum(hosts.values())
    where = " ".join(f"<{k}*{h}>" if k > 1 else f"<{h}>"
                     for h, k in sorted(hosts.items()))
    return (f"{units.long_time(held['since'])}: Reserved <{n}> job slot"
            f"{'s' if n > 1 else ''} on host(s) {where};")


def state_lines(row, now):
    stat = row.get("stat")
    if stat in ("PEND", "PSUSP"):
        return [" PENDING REASONS:"] + table.pend_reasons(row,
                                                          host_names=True)
    if stat in ("DONE", "EXIT"):
        return finish_lines(row)
    lines = usage_lines(row, now)
    why = suspend_reasons(row)
    return lines + [" SUSPENDING REASONS:"] + why if why else lines


def suspend_reasons(row):
    """Why a started job is suspended, LSF's lines (bjobs -l and -s)."""
    stat = row.get("stat")
    if stat == "USUSP":
        return [f" {suspreasons.ADMIN_STOPPED};" if suspreasons.admin_stopped(
            jv.spec(row)) else f" {suspreasons.USER_STOPPED};"]
    if stat == "SSUSP" and jv.spec(row).get("preempted"):
        return [f" {PREEMPTED_REASON};"]
    if stat == "SSUSP" and jv.spec(row).get("sys_susp"):
        return [system_suspend_reason(jv.spec(row)["sys_susp"])]
    return []


def system_suspend_reason(why):
    """LSF's line for a job the system suspended: its queue's run window
    closed (WINDOW), or a host's load past a threshold (LOAD:<index>)."""
    if why == "WINDOW":
        return " The run windows of the queue are closed;"
    if why == suspreasons.USER_RESUME:
        return f" {suspreasons.RESUMED_WAITING};"
    index = why.split(":", 1)[-1]
    if index == "STOP_COND":
        return " STOP_COND is true with current host load;"
    return " Host load exceeded threshold: " + \
        loadthresh.SUSPEND_NAMES.get(index, index)


def usage_lines(row, now):
    """The ``Resource usage collected.`` block of a running job."""
    cpu, mem = row.get("cpu_time"), row.get("max_mem")
    pids = (row.get("pids") or "").split()
    if not (cpu or mem or pids):
        return []
    lines = [f"{units.long_time(now)}: Resource usage collected."]
    if cpu:
        lines.append(f"{CONTINUATION}The CPU time used is {int(cpu)} "
                     "seconds.")
    if mem:
        lines.append(f"{CONTINUATION}MEM: {units.mem_bytes(mem)}")
    if pids:
        lines.append(f"{CONTINUATION}PGID: {row.get('pgid') or pids[0]};  "
                     f"PIDs: {' '.join(pids)}")
    return lines


def finish_lines(row):
    end = units.long_time(row.get("end_time") or 0)
    code = row.get("exit_code")
    if row.get("stat") == "DONE":
        text = "Done successfully."
    elif code:
        text = f"Exited with exit code {code}."
    else:
        text = "Exited."
    if jv.hosts(row) and row.get("start_time"):
        cpu = row.get("cpu_time")
        text += (" The CPU time used is unknown." if cpu is None else
                 f" The CPU time used is {cpu:.1f} seconds.")
    if row.get("stat") == "DONE":
        completed = "Completed <done>."
    else:
        reason = jv.exit_reason(row)
        completed = f"Completed <exit>; {reason}." if reason \
            else "Completed <exit>."
    return [f"{end}: {text}", f"{end}: {completed}"] + post_lines(row)


def post_lines(row):
    """The post-exec stage's outcome, once known."""
    spec = jv.spec(row)
    said = POST_TEXT.get(spec.get("post"))
    if said is None:
        return []
    when = units.long_time(spec.get("post_time") or row.get("end_time") or 0)
    return [f"{when}: {said}."]


POST_TEXT = {"POST_DONE": "Post job process done successfully",
             "POST_ERR": "Post job process failed"}


def limits_section(row, spec, queue_conf=None):
    """The job's limits (CPULIMIT, RUNLIMIT, its own or its queue's,
    MEMLIMIT, the row of size and count limits) and its ESTIMATED_RUNTIME,
    each a block after a blank line: bjobs -l shows them after the job's
    events, bhist -l after its submission."""
    return (limit_lines(spec, jv.runlimit_minutes(row, spec, queue_conf)) +
            estimate_lines(row, spec, queue_conf))


def estimate_lines(row, spec, queue_conf):
    """LSF's ESTIMATED_RUNTIME block: bsub -We, else the application
    profile's RUNTIME, else the queue's value."""
    minutes, source = spec.get("estimate"), "user provided"
    if "estimate" in (spec.get("app_filled") or ()):
        source = "application configured"
    if not minutes:
        minutes = (queue_conf or {}).get("estimated_runtime")
        source = "queue configured"
    if not minutes:
        return []
    # -We 10/hostA names the host the minutes are of (LSF's "min of").
    host = spec.get("estimate_host") if spec.get("estimate") else None
    return ["", " ESTIMATED_RUNTIME:",
            f" {float(minutes):.1f} min of {host or row.get('from_host')} "
            f"based on "
            f"{source} runtime estimation."]


def limit_lines(spec, runlimit):
    lines = limits.cpu_lines(spec.get("cpulimit"), spec.get("cpulimit_host"))
    if runlimit:
        host = spec.get("runlimit_host")    # -W 10/hostA
        lines += ["", f" {'RUNLIMIT':<24}",
                  f" {limits.minutes_text(runlimit)} min" +
                  (f" of {host}" if host else "")]
    if spec.get("memlimit"):
        number, letter = units.limit_amount(spec["memlimit"]).split()
        lines += ["", " MEMLIMIT", f" {number:>8} {letter}"]
    return lines + limits.row_lines(spec)


def memory_lines(row):
    if not row.get("max_mem"):
        return []
    avg = units.mem_bytes(row.get("avg_mem")) or "-"
    return ["", " MEMORY USAGE:",
            f" MAX MEM: {units.mem_bytes(row['max_mem'])};  AVG MEM: {avg}"]


def resreq_lines(row, spec, queue_conf=None, unit=None):
    """LSF's RESOURCE REQUIREMENT DETAILS: "Combined:" is the job's -R,
    its application profile's RES_REQ and its queue's RES_REQ merged
    (xce.lang.appmerge.combined) as the configuration now stands;
    "Effective:" what the job was dispatched with, once it started."""
    combined = combined_requirement(spec, queue_conf, unit) or "-"
    effective = combined if jv.started(row) else "-"
    return ["", " RESOURCE REQUIREMENT DETAILS:", f" Combined: {combined}",
            f" Effective: {effective}"]


def combined_requirement(spec, queue_conf, unit=None):
    """The job's combined requirement text (None: nothing asked)."""
    from xce.lang import appmerge, resreq      # only bjobs -l needs them
    queue = ((queue_conf or {}).get("lsf") or {}).get("RES_REQ")
    try:
        return appmerge.job_requirement(spec, queue, unit)
    except resreq.ResReqError:
        return spec.get("resreq_merged")    # from an older configuration
