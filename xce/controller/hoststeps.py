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
  hosts run HOST_POST_EXEC.  For a finished job each host's result is a
  part of the job's post-exec status, as in LSF (xce.controller.prepost:
  POST_ERR when any host's failed, shown by bjobs -l and bhist -l and met
  by post_err()); a host whose link comes back while its part is awaited
  is asked again.  After a requeue a failure is only logged.

A held start lives in memory and is re-derived, not stored: after a
controller restart the first host's hello finds the job dispatched there
and unknown to its agent (xce.controller.reconcile) and holds it again,
asking the other hosts once more; an agent still running that job's steps
goes on with them, one that ran them for this attempt already says again
how they ended (xce.agent.prepost: a done said while no controller was
connected is lost), one that lost them (restarted) runs them again.  A
host whose link came back while a start waits on it is asked again the
same way.  So the job neither starts without its other hosts'
HOST_PRE_EXEC nor starts twice.
"""

import logging
import signal

from xce.controller import blaunch, execplan, prepost, startgo
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


def start(ctl, job, msg, again=False):
    """Send *msg* (the job's start) to its first host, or hold it while
    the other hosts run HOST_PRE_EXEC.  RuntimeError (the job cannot
    start) when one of them has an agent too old for that.  *again*: the
    start of a job dispatched before a controller restart, whose agents'
    versions were checked then (the other hosts may not have said hello
    yet)."""
    others = blaunch.other_hosts(job)
    first = (job["exec_hosts"] or "").split()[0]
    steps = _host_steps(msg.get("pre"))
    if others and not again and (steps or _host_steps(msg.get("post"))):
        _check_versions(ctl, others)
    if not others or not steps:
        startgo.send(ctl, first, msg)
        return
    ask = _message(job, msg, "pre", steps)
    ctl.host_pre_waiting[(job["jobid"], job["idx"])] = {
        "attempt": job["attempt"], "msg": msg, "hosts": set(others),
        "ask": ask}
    for host in others:
        ctl.links[host].queue(ask)
    if again:
        log.info("job %s: start held again for HOST_PRE_EXEC on %s",
                 ctl.label(job), " ".join(others))


def hello(ctl, host):
    """*host*'s agent has (re)connected: what was queued for it before
    is gone with the old link, so each start still waiting on its
    HOST_PRE_EXEC asks it again (unless the ask is still queued, unsent),
    and so does each finished job still waiting for its HOST_POST_EXEC
    there."""
    link = ctl.links[host]
    for held in ctl.host_pre_waiting.values():
        if host in held["hosts"] and held["ask"] not in link.out:
            link.queue(held["ask"])
    # Finished jobs whose post stage still runs (few): their post state
    # is not known yet (xce.controller.jobindex).
    for key, done in ctl.index.finished.items():
        if done.post is None:
            job = prepost.post_job(ctl, key)
            if job is not None:
                _post_again(ctl, host, job, link)


def reported(ctl, host, msg):
    """An agent's ``host_steps_done``: one host's steps have ended."""
    key = (int(msg["job"]), int(msg.get("idx", 0)))
    code = int(msg.get("code") or 0)
    if msg.get("stage") == "post":
        if code:
            log.warning("job %s: HOST_POST_EXEC on %s exited with %s",
                        show(*key), host, code)
        job = prepost.post_job(ctl, key)
        if job is not None and job["attempt"] == msg["attempt"] and \
                job["stat"] in states.FINISHED:
            prepost.post_part(ctl, job, host,
                              "POST_ERR" if code else "POST_DONE")
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
        if first in ctl.links:
            startgo.send(ctl, first, held["msg"])


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
    for host in post_hosts(ctl, view):
        ctl.links[host].queue(_post_message(ctl, view))


def post_hosts(ctl, job):
    """The job's other hosts that run its HOST_POST_EXEC (those whose
    agent can)."""
    others = blaunch.other_hosts(job)
    if not others or not _host_steps(
            execplan.start_fields(ctl.cfg, job).get("post")):
        return []
    return [h for h in others if h in ctl.links and ctl.hosts.get(
        h, {}).get("protocol", 1) >= HOST_STEPS_VERSION]


def _post_message(ctl, job):
    spec = job["spec"] or {}
    steps = _host_steps(execplan.start_fields(ctl.cfg, job).get("post"))
    msg = {"hosts": job["exec_hosts"].split(), "job": job["jobid"],
           "idx": job["idx"], "queue": job["queue"], "name": job["name"],
           "user": job["user"], "cwd": "/",
           "subcwd": spec.get("subcwd") or "/",
           "from_host": job["from_host"], "stdout": None, "env": {},
           "uid": spec.get("uid"), "gid": spec.get("gid")}
    return _message(job, msg, "post", steps)


def _post_again(ctl, host, job, link):
    """*host* is back while its part of finished *job*'s post stage is
    awaited: ask it again (an agent still running it goes on)."""
    spec = job["spec"] or {}
    if spec.get("post") == "RUN" and host in (spec.get("post_hosts") or ())\
            and host not in (spec.get("post_parts") or {}):
        ask = _post_message(ctl, job)
        if ask not in link.out:
            link.queue(ask)
