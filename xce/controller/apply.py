"""Applying an event to a job: the only code that changes a job's state.

Pure: takes the job dict, the event kind and its data, changes the job and
checks the state transition.  Handlers decide; this applies; side effects
(talking to agents, replies) happen after the commit, elsewhere.
"""

from xce.lang.rlimits import LIMITS as _RLIMITS
from xce.model import states, suspreasons

# bsub -c -v ... limits a queue switch may fill from the new queue.
RLIMIT_KEYS = tuple(limit.key for limit in _RLIMITS) + ("cpulimit_host",
                                                       "runlimit_host")

# STATUS reason of a job suspended (SSUSP) or resumed by preemption.
PREEMPTED = "PREEMPTED"
# STATUS reasons of a job suspended by a closed run window or a host's
# load (xce.scheduler.suspending), or resumed by its user and waiting for
# the system to resume it: kept in the spec as "sys_susp".
SYS_SUSPEND = ("WINDOW", "LOAD:", suspreasons.USER_RESUME)


def _set_stat(job, new):
    job["stat"] = states.check_transition(job.get("stat"), new)
    if new != states.UNKWN and "unkwn" in (job.get("spec") or {}):
        # Out of UNKWN: the host-loss record has served (see _status).
        spec = dict(job["spec"])
        del spec["unkwn"]
        job["spec"] = spec
    if new not in (states.SSUSP, states.UNKWN) and \
            "preempted" in (job.get("spec") or {}):
        # Resumed, stopped by a user, finished or requeued: no longer a
        # preempted job (UNKWN keeps it, to come back to).
        spec = dict(job["spec"])
        del spec["preempted"]
        job["spec"] = spec
    if new not in (states.SSUSP, states.UNKWN) and \
            "sys_susp" in (job.get("spec") or {}):
        spec = dict(job["spec"])
        del spec["sys_susp"]
        job["spec"] = spec
    if new not in (states.USUSP, states.PSUSP, states.UNKWN) and \
            suspreasons.ADMIN_STOP in (job.get("spec") or {}):
        # Resumed, released, finished or requeued: no longer held by an
        # administrator (UNKWN keeps it, to come back to).
        spec = dict(job["spec"])
        del spec[suspreasons.ADMIN_STOP]
        job["spec"] = spec


def apply(job, kind, data, now):
    fn = _APPLY.get(kind)
    if fn is None:
        raise ValueError(f"unknown event kind {kind}")
    fn(job, data, now)
    return job


def _submit(job, data, now):
    _set_stat(job, states.PSUSP if data.get("hold") else states.PEND)
    job["submit_time"] = now
    job["attempt"] = 0


def _start(job, data, now):
    _set_stat(job, states.RUN)
    job["exec_hosts"] = " ".join(data["hosts"])
    job["nslots"] = len(data["hosts"])     # -n min,max: what it got
    job["attempt"] = data["attempt"]
    job["start_time"] = now
    job["pend_reason"] = None
    job["pids"] = None
    # The rusage `||` alternative this start took (absent: the first), in
    # the spec so that it outlives a controller restart.
    if data.get("rusage_alt"):
        job["spec"]["rusage_alt"] = data["rusage_alt"]
    else:
        job["spec"].pop("rusage_alt", None)
    # The GPUs this start got (xce.scheduler.gpus.record), kept with the
    # job so that a restarted controller charges the same devices.
    if data.get("gpus"):
        job["spec"]["gpu_alloc"] = data["gpus"]
    else:
        job["spec"].pop("gpu_alloc", None)
    # The fairshare account's group the scheduler chose for a job without
    # -G (xce.scheduler.share_order): it stays charged there.
    if data.get("share_group"):
        job["spec"]["share_group"] = data["share_group"]
    else:
        job["spec"].pop("share_group", None)
    # Its account's path from the top of the queue's share tree, for
    # lsb.acct's chargedSAAP.
    if data.get("share_path"):
        job["spec"]["share_path"] = list(data["share_path"])
    else:
        job["spec"].pop("share_path", None)
    job["spec"].pop("output_fallback", None)    # a new run, new files
    job["spec"].pop("exec_cwd", None)           # and its own directory
    job["spec"].pop("kill_as_done", None)       # a bkill -d of a past run


def _running(job, data, now):
    job["pgid"] = data["pid"]
    job["pids"] = str(data["pid"])
    job["start_time"] = data.get("start_time", job["start_time"])
    if data.get("stdout"):
        job["outfile"] = data["stdout"]


def _usage(job, data, now):
    job["cpu_time"] = data.get("cpu_time", job.get("cpu_time"))
    job["max_mem"] = max(job.get("max_mem") or 0, data.get("max_mem") or 0)
    if data.get("pids"):
        job["pids"] = " ".join(str(p) for p in data["pids"])


def _finish(job, data, now):
    _set_stat(job, data["stat"])
    job["exit_code"] = data.get("exit_code")
    job["exit_reason"] = data.get("reason")
    job["end_time"] = data.get("end_time", now)
    job["cpu_time"] = data.get("cpu_time", job.get("cpu_time"))
    job["max_mem"] = data.get("max_mem") or job.get("max_mem")
    job["avg_mem"] = data.get("avg_mem")
    job["pend_reason"] = None
    _output(job, data, now)
    if data.get("exec_cwd"):        # its -cwd was missing: it ran there
        job["spec"] = dict(job["spec"] or {}, exec_cwd=data["exec_cwd"])
    if data.get("post_pending"):        # its post-exec runs now
        job["spec"] = dict(job["spec"] or {}, post="RUN")
        if data.get("post_hosts"):      # and HOST_POST_EXEC on these
            job["spec"]["post_hosts"] = data["post_hosts"]


def _output(job, data, now):
    """-o/-e files the user could not open: bjobs -l says where the
    output went instead; a job whose working directory was missing runs
    in /tmp, and says so while it runs."""
    if data.get("exec_cwd"):
        job["spec"] = dict(job["spec"] or {}, exec_cwd=data["exec_cwd"])
    if data.get("output_fallback"):
        job["spec"] = dict(job["spec"] or {},
                           output_fallback=data["output_fallback"])
    if data.get("stage_errors"):        # bsub -f copies that failed
        spec = job["spec"] or {}
        job["spec"] = dict(spec, stage_errors=[
            *(spec.get("stage_errors") or ()), *data["stage_errors"]])


def _post(job, data, now):
    """The job's post-exec stage has ended: POST_DONE or POST_ERR."""
    spec = dict(job["spec"] or {}, post=data["post"])
    if data["post"] != "RUN":
        spec["post_time"] = now
    if data.get("post_parts"):          # each host's part (hoststeps)
        spec["post_parts"] = data["post_parts"]
    job["spec"] = spec


def _preexec_tries(job, data):
    """Failed pre-exec attempts so far (LOCAL_MAX_PREEXEC_RETRY)."""
    if data.get("preexec_tries") is not None:
        job["spec"] = dict(job["spec"] or {},
                           preexec_tries=data["preexec_tries"])


def _status(job, data, now):
    """A state change by request: stop, resume, kill of a pending job or
    (ZOMBI) of a job whose host is lost; UNKWN when the host is lost (from
    what state, and since when, is kept in the spec so that it survives a
    controller restart); PEND again when its host discarded its start
    before running it (``start_failed``: its START undone, LSF's
    PEND_JOB_START_FAIL)."""
    if data.get("start_failed"):
        _unstart(job, data)
        return
    _set_stat(job, data["stat"])
    _preexec_tries(job, data)
    if data["stat"] == states.UNKWN and data.get("was"):
        job["spec"] = dict(job["spec"] or {},
                           unkwn={"was": data["was"], "since": now})
    if data["stat"] == states.SSUSP and data.get("reason") == PREEMPTED:
        # Suspended by the scheduler for a higher-priority job: kept in
        # the spec so that the scheduler resumes it, after restarts too.
        job["spec"] = dict(job["spec"] or {},
                           preempted={"since": now, "by": data.get("by")})
    if data["stat"] == states.SSUSP and \
            str(data.get("reason") or "").startswith(SYS_SUSPEND):
        # Suspended by its queue's run window or its host's load: the
        # system resumes it (xce.controller.windows), after restarts too.
        job["spec"] = dict(job["spec"] or {}, sys_susp=data["reason"])
    if data.get(suspreasons.ADMIN_STOP) and \
            data["stat"] in (states.USUSP, states.PSUSP):
        # Stopped by an administrator: its owner may not resume it
        # (lsb.params ENABLE_USER_RESUME), after restarts too.
        job["spec"] = dict(job["spec"] or {})
        job["spec"][suspreasons.ADMIN_STOP] = True
    if data["stat"] == states.ZOMBI:
        # Killed while its host is lost: the reason of the kill to come.
        job["exit_reason"] = data.get("reason")
    if data["stat"] in states.FINISHED:
        job["end_time"] = now
        job["exit_reason"] = data.get("reason")
        job["exit_code"] = data.get("exit_code")
        job["pend_reason"] = None


def _signal(job, data, now):
    """A signal sent to a running job changes nothing until it acts; a
    bkill -d is kept in the spec (to outlive a controller restart) so that
    the job is recorded DONE when it exits (see kill_as_done)."""
    if data.get("as_done"):
        job["spec"] = dict(job["spec"] or {}, kill_as_done=True)


def _modify(job, data, now):
    """bmod: spec keys set or removed, and the columns derived from them."""
    spec = dict(job["spec"] or {})      # array elements may share one dict
    for key in data.get("unset") or ():
        spec.pop(key, None)
    spec.update(data.get("set") or {})
    job["spec"] = spec
    job["queue"] = spec.get("queue") or job["queue"]
    job["name"] = spec.get("name") or spec.get("command") or job["name"]
    job["nslots"] = (spec.get("nslots") or [1])[0]
    if job["stat"] in states.PENDING:      # a started job keeps its files
        job["outfile"] = spec.get("stdout")
        job["errfile"] = spec.get("stderr")


def _switch(job, data, now):
    spec = dict(job["spec"] or {})
    spec["queue"] = data["queue"]
    for key in ("runlimit", "memlimit", *RLIMIT_KEYS):
        if data.get(key) is not None:
            spec[key] = data[key]
    job["spec"] = spec
    job["queue"] = data["queue"]


def _unstart(job, data):
    """Back to pending: the columns of the run it had go."""
    _set_stat(job, data["stat"])
    for key in ("exec_hosts", "start_time", "end_time", "pids", "pgid",
                "exit_code", "exit_reason", "cpu_time", "max_mem", "avg_mem"):
        job[key] = None
    job["pend_reason"] = data.get("reason")


def _requeue(job, data, now):
    """brequeue: back to PEND (or PSUSP), same job id; START makes a new attempt."""
    _unstart(job, data)
    _preexec_tries(job, data)
    if data.get("seq") is not None:     # an automatic requeue: to the head
        job["seq"] = data["seq"]
    if data.get("auto"):
        # An automatic requeue, counted for MAX_JOB_REQUEUE (requeue.py).
        spec = dict(job["spec"] or {})
        spec["auto_requeues"] = (spec.get("auto_requeues") or 0) + 1
        job["spec"] = spec
    if data.get("exclude_host"):
        # EXCLUDE() exit value: never on this host again (see requeue.py).
        spec = dict(job["spec"] or {})
        spec["requeue_excluded"] = sorted(
            set(spec.get("requeue_excluded") or ()) | {data["exclude_host"]})
        job["spec"] = spec
    spec = job.get("spec") or {}
    if data.get("retry_at") is not None or "preexec_retry_at" in spec:
        # Dispatched again no sooner (a failed pre-exec); any other
        # requeue clears it.
        spec = dict(spec)
        spec.pop("preexec_retry_at", None)
        if data.get("retry_at") is not None:
            spec["preexec_retry_at"] = data["retry_at"]
        job["spec"] = spec


def _move(job, data, now):
    """btop/bbot: a new place in the queue's first-come order."""
    job["seq"] = data["seq"]


_APPLY = {"SUBMIT": _submit, "START": _start, "RUNNING": _running,
          "USAGE": _usage, "FINISH": _finish, "STATUS": _status,
          "SIGNAL": _signal, "MODIFY": _modify, "SWITCH": _switch,
          "REQUEUE": _requeue, "MOVE": _move, "OUTPUT": _output,
          "POST": _post}
