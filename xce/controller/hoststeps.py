"""HOST_PRE_EXEC and HOST_POST_EXEC on every host of a parallel job.

LSF runs the host-based commands on each execution host of a job.  The
job's first host runs them in its own pre and post stages, in LSF's order
with the others (xce.controller.execplan, xce.agent.prepost); the job's
other hosts get a ``host_steps`` message (agent protocol 13) with just
those steps:

- before the start: the start message is held until every other host has
  said ``host_steps_done``.  All passed: the start goes to the first host.
  One failed: the job goes back to PEND as after a failed pre-exec
  (xce.controller.prepost, with its retry limits);
- when the job has run (it finished or went back to the queue): the other
  hosts run HOST_POST_EXEC; a failure there is logged (the job's post
  status is its first host's, which ran the same command).

A held start lives in memory: after a controller restart the first host's
hello sends the start again (xce.controller.reconcile) without waiting.
"""

import logging
import signal

from xce.controller import blaunch, execplan, prepost
from xce.errors import text
from xce.model import states
from xce.model.jobid import show

log = logging.getLogger("xce.controller")

HOST_STEPS_VERSION = 13   # the first agent protocol with "host_steps"


def _host_steps(steps):
    return [s for s in steps or () if s["level"] == execplan.HOST]


def _message(job, msg, stage, steps):
    return {"op": "host_steps", "job": job["jobid"], "idx": job["idx"],
            "attempt": job["attempt"], "stage": stage, "steps": steps,
            "start": {k: v for k, v in msg.items()
                      if k not in ("pre", "post", "jobfile", "command_lines",
                                   "rlimits", "mail")}}


def _check_versions(ctl, hosts):
    for host in hosts:
        version = ctl.hosts.get(host, {}).get("protocol", 1)
        if version < HOST_STEPS_VERSION:
            raise RuntimeError(text(
                "OLD_AGENT", host=host, version=version,
                what=f"HOST_PRE_EXEC/HOST_POST_EXEC on every host "
                     f"(protocol {HOST_STEPS_VERSION})"))


def start(ctl, job, msg):
    """Send *msg* (the job's start) to its first host, or hold it while
    the other hosts run HOST_PRE_EXEC.  RuntimeError (the job cannot
    start) when one of them has an agent too old for that."""
    others = blaunch.other_hosts(job)
    first = (job["exec_hosts"] or "").split()[0]
    steps = _host_steps(msg.get("pre"))
    if others and (steps or _host_steps(msg.get("post"))):
        _check_versions(ctl, others)
    if not others or not steps:
        ctl.links[first].queue(msg)
        return
    ctl.host_pre_waiting[(job["jobid"], job["idx"])] = {
        "attempt": job["attempt"], "msg": msg, "hosts": set(others)}
    for host in others:
        ctl.links[host].queue(_message(job, msg, "pre", steps))


def reported(ctl, host, msg):
    """An agent's ``host_steps_done``: one host's steps have ended."""
    key = (int(msg["job"]), int(msg.get("idx", 0)))
    code = int(msg.get("code") or 0)
    if msg.get("stage") == "post":
        if code:
            log.warning("job %s: HOST_POST_EXEC on %s exited with %s",
                        show(*key), host, code)
        return
    held = ctl.host_pre_waiting.get(key)
    job = ctl.jobs.get(key)
    if held is None or job is None or held["attempt"] != msg["attempt"] \
            or job["attempt"] != msg["attempt"] or \
            job["stat"] not in states.RUNNING:
        return
    held["hosts"].discard(host)
    if code:
        del ctl.host_pre_waiting[key]
        log.info("job %s: HOST_PRE_EXEC on %s exited with %s",
                 ctl.label(job), host, code)
        prepost.pre_failed(ctl, job, code)
        ctl.dirty = True
    elif not held["hosts"]:
        del ctl.host_pre_waiting[key]
        first = (job["exec_hosts"] or "").split()[0]
        link = ctl.links.get(first)
        if link is not None:
            link.queue(held["msg"])


def signalled(ctl, job, sig, reason):
    """A signal for a job whose start is held: a terminating one ends it
    (EXIT, with the signal's reason) before it ever started; others wait
    with it.  True when the job's start is held."""
    key = (job["jobid"], job["idx"])
    if key not in ctl.host_pre_waiting:
        return False
    if sig == "KILLSEQ" or int(sig) in (signal.SIGKILL, signal.SIGTERM,
                                        signal.SIGINT):
        ctl.emit("STATUS", job, stat=states.EXIT, reason=reason,
                 exit_code=128 + signal.SIGKILL)
        ctl.dirty = True
    return True


def job_ended(ctl, job, hosts, attempt):
    """The job left its hosts (ended, requeued, or its pre-exec failed):
    HOST_POST_EXEC on the other ones."""
    ctl.host_pre_waiting.pop((job["jobid"], job["idx"]), None)
    view = dict(job, exec_hosts=hosts, attempt=attempt)
    others = blaunch.other_hosts(view)
    if not others:
        return
    plan = execplan.start_fields(ctl.cfg, view)
    steps = _host_steps(plan.get("post"))
    if not steps:
        return
    msg = {"hosts": hosts.split(), "job": job["jobid"], "idx": job["idx"],
           "queue": job["queue"], "name": job["name"], "user": job["user"],
           "cwd": "/", "subcwd": (job["spec"] or {}).get("subcwd") or "/",
           "from_host": job["from_host"], "stdout": None,
           "env": {}, "uid": (job["spec"] or {}).get("uid"),
           "gid": (job["spec"] or {}).get("gid")}
    for host in others:
        link = ctl.links.get(host)
        if link is not None and ctl.hosts.get(host, {}).get(
                "protocol", 1) >= HOST_STEPS_VERSION:
            link.queue(_message(view, msg, "post", steps))
