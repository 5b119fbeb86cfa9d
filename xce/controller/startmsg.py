"""From a dispatch decision to the agent's start message: everything the
agent needs to run a started job, fitted to the agent's protocol
version (an older agent gets no field it does not know, or no job)."""

from xce.agent import protocol
from xce.controller import (containercheck, execplan, interactive,
                            jobdir, joblimits, mail, rlimits, stage)
from xce.errors import text
from xce.lang import appmerge, resreq
from xce.model import arrayspec, jobcwd
from xce.model import gpus as devices
from xce.model import outdir
from xce.model.jobid import show

GPU_PROTOCOL = 11       # the first agent that gives a job its GPUs


def expand(path, jobid, idx):
    """LSF's %J and %I in file names."""
    if path is None:
        return None
    return path.replace("%J", str(jobid)).replace("%I", str(idx))


def start_message(ctl, job):
    spec = job["spec"]
    jobid, idx = job["jobid"], job["idx"]
    data = ctl.job_data(job)
    command_lines = (data["jobfile"] or spec["command"]).splitlines()
    # A command-line job has no script: the agent runs it with sh -c.
    jobfile = data["jobfile"]
    out = outdir.directory(job)
    wraps = execplan.start_fields(ctl.cfg, job)
    queue = ctl.cfg.queues.get(job["queue"])
    nice = queue.nice if queue else 0
    host = (job["exec_hosts"] or "").split()[:1]
    if spec.get("gpu_alloc") and host and \
            ctl.hosts[host[0]].get("protocol", 1) < GPU_PROTOCOL:
        raise RuntimeError(text("GPU_OLD_AGENT", host=host[0]))
    env = _requirement_env(ctl, job, _array_env(
        spec, _job_env(ctl, spec, data["env"])))
    create = jobcwd.has_pattern(jobdir.asked(spec))
    msg = {
        **wraps, **interactive.start_fields(ctl, job, host[0] if host
                                            else None),
        **containercheck.start_field(ctl.cfg, spec, job["queue"], env),
        "op": "start", "job": jobid, "idx": idx, "attempt": job["attempt"],
        "label": show(jobid, idx), "user": job["user"], "uid": spec["uid"],
        "gid": spec["gid"], "queue": job["queue"], "name": job["name"],
        "jobfile": jobfile, "command": spec["command"],
        "command_lines": command_lines,
        "cwd": outdir.working_directory(job), "subcwd": spec["subcwd"],
        # LSF creates a -cwd (or DEFAULT_JOB_CWD, JOB_CWD) with a dynamic
        # pattern (xce.model.jobcwd), and removes it JOB_CWD_TTL hours
        # after the job (xce.agent.cwdttl).
        "cwd_create": create,
        **jobdir.ttl_field(ctl.cfg, spec, create),
        "env": env,
        "args": spec.get("args") or [],
        "stdin": expand(spec.get("stdin"), jobid, idx),
        "stdout": outdir.inside(expand(spec.get("stdout"), jobid, idx), out),
        # No -o: each run's output alone, as LSF mails it (a requeued
        # run leaves none behind).
        "stdout_mode": spec.get("stdout_mode", "a") if spec.get("stdout")
        else "w",
        "stderr": outdir.inside(expand(spec.get("stderr"), jobid, idx), out),
        "outdir": out,
        "stderr_mode": spec.get("stderr_mode", "a"),
        "hosts": (job["exec_hosts"] or "").split(),
        **joblimits.agent_limits(ctl.cfg, job),     # runlimit, memlimit
        # bsub -c -v -S -F -D -C -p -T (xce.controller.rlimits)
        "rlimits": rlimits.agent_limits(
            ctl.cfg, ctl.cfg.queues.get(job["queue"]), spec,
            (job["exec_hosts"] or "").split()[0] if job["exec_hosts"]
            else None),
        "terminate_interval": ctl.cfg.param_int("JOB_TERMINATE_INTERVAL", 10),
        "nice": nice,       # queue NICE (agent.spawn.nice_argv)
        # The GPUs the job got on its first host (blaunch tasks get
        # their own host's: xce.controller.blaunch).
        "gpu_env": devices.job_env(spec.get("gpu_alloc"),
                                   host[0] if host else None),
        "from_host": job["from_host"], "submit_time": job["submit_time"],
        "cluster": ctl.cfg.cluster_name, "restart": job["attempt"] > 1,
        "exact_peak": ctl.cfg.param_flag("XCE_EXACT_JOB_PEAK"),
        **mail.start_fields(ctl, job),      # mail, requeue_exit
        **stage.start_fields(ctl, job, host[0] if host else None),  # -f
    }
    if not host:
        return msg
    # An older agent would run the job without what it does not know:
    # such a field is left out when empty, else the job is not started.
    version = ctl.hosts[host[0]].get("protocol", 1)
    msg, missing = protocol.fit(msg, version)
    if missing:
        raise RuntimeError(text("OLD_AGENT", host=host[0], version=version,
                                what=", ".join(missing)))
    return msg


def _job_env(ctl, spec, env):
    """The submission environment, with the ENV_VARS of the job's
    application profile over it (they reach its pre/post-exec too)."""
    app = ctl.cfg.apps.get(spec.get("app") or "")
    if app is None or not app.env:
        return env
    return {**(env or {}), **app.env}


def _requirement_env(ctl, job, env):
    """LSB_EFFECTIVE_RSRCREQ: the requirement the job is dispatched with,
    as bjobs -l shows it ("Effective:"); none when nothing was asked (and
    never the submitter's own value)."""
    env = {k: v for k, v in env.items() if k != "LSB_EFFECTIVE_RSRCREQ"}
    queue = ctl.cfg.queues.get(job["queue"])
    queue_req = (queue.raw or {}).get("RES_REQ") if queue else None
    try:
        found = appmerge.job_requirement(
            job["spec"], queue_req, ctl.cfg.params.get("LSF_UNIT_FOR_LIMITS"))
    except resreq.ResReqError:
        found = job["spec"].get("resreq_merged")
    if found:
        env["LSB_EFFECTIVE_RSRCREQ"] = found
    return env


def _array_env(spec, env):
    """LSB_JOBINDEX_END and LSB_JOBINDEX_STEP for an array's element (the
    agent sets LSB_JOBINDEX); a job that is not an array has neither, even
    when its submitter ran inside an array element."""
    env = {k: v for k, v in (env or {}).items()
           if k not in ("LSB_JOBINDEX_END", "LSB_JOBINDEX_STEP")}
    if spec.get("array_spec"):
        try:
            end, step = arrayspec.end_and_step(spec.get("name"))
        except (TypeError, arrayspec.ArraySpecError):
            return env
        env.update(LSB_JOBINDEX_END=str(end), LSB_JOBINDEX_STEP=str(step))
    return env
