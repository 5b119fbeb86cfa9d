"""Automatic requeue: a job ending with one of its requeue exit values.

The job's own ``bsub -Q`` list wins over its queue's REQUEUE_EXIT_VALUES
(xce.model.requeue reads both).  A job that ends with a listed value goes
back to PEND instead of finishing, at the head of its queue, as LSF puts
it; its next dispatch is a new attempt.  An EXCLUDE() value also keeps the
job off the host it exited on, for good (the host is kept in the job's
spec, so a controller restart does not forget it, where LSF's mbatchd
does).  LSF's exclusive requeue "does not work for parallel jobs": a job
of several slots is requeued without the exclusion.

MAX_JOB_REQUEUE (its application profile's, else its queue's, else the
cluster's, as LSF 10.1 takes them): once the job was requeued
automatically that many times, its next requeue exit value ends it as
any other exit would (the count is kept in the job's spec).

A job that xce itself ended (bkill, run or memory limit, a lost cwd: the
agent reports a reason) is not requeued: LSF requeues only jobs that
exited by themselves.
"""

import json
import logging

from xce.controller import gangs, jobusage
from xce.model import requeue, states

log = logging.getLogger("xce.controller")

REQUEUED = "Requeued job is waiting for rescheduling"


def values(cfg, spec, queue):
    """The RequeueValues that apply to a job (None: none)."""
    text = (spec or {}).get("requeue_exit")
    if not text:
        q = cfg.queues.get(queue)
        text = getattr(q, "requeue", None) if q is not None else None
    # Both were checked (at submit, in the configuration check).
    return requeue.parse_quietly(text) if text else None


def after_finish(ctl, job, msg):
    """Requeue *job* if the agent's exit report *msg* says so; True when
    the job went back to PEND (the caller then records no FINISH)."""
    if msg.get("reason") or msg.get("stat") not in states.FINISHED:
        return False
    found = values(ctl.cfg, job["spec"], job["queue"])
    code = msg.get("exit_code")
    action = found.action(code) if found else None
    if action is None or _requeues_spent(ctl, job):
        return False
    host = (job["exec_hosts"] or "").split()
    # The run's usage parts are dropped, as at a finish.
    cpu, _ = jobusage.at_finish(ctl, job, msg.get("cpu_time"), None)
    data = {"stat": states.PEND, "by": "", "exit_code": code,
            "cpu_time": cpu, "auto": True,
            "reason": json.dumps([[REQUEUED, None]])}
    if action == "exclude" and host and len(set(host)) == 1 and \
            job["nslots"] <= 1:
        data["exclude_host"] = host[0]
    seq = head_seq(ctl, job)
    if seq is not None:
        data["seq"] = seq
    log.info("job %s: exit value %s is a requeue exit value; requeued%s",
             ctl.label(job), code, f", never again on {host[0]}"
             if "exclude_host" in data else "")
    ctl.emit("REQUEUE", job, **data)
    gangs.sent_back(ctl, job)
    return True


def _requeues_spent(ctl, job):
    """Has the job been requeued automatically as many times as
    MAX_JOB_REQUEUE allows?"""
    spec = job["spec"] or {}
    limit = max_requeue(ctl.cfg, spec, job["queue"])
    return limit is not None and (spec.get("auto_requeues") or 0) >= limit


def max_requeue(cfg, spec, queue):
    """MAX_JOB_REQUEUE of a job: its profile's, its queue's, the
    cluster's (each checked by the configuration check); None: none."""
    app = cfg.apps.get(spec.get("app")) if spec.get("app") else None
    if app is not None and app.max_requeue is not None:
        return app.max_requeue
    q = cfg.queues.get(queue)
    for value in ((q.raw if q is not None else {}).get("MAX_JOB_REQUEUE"),
                  cfg.params.get("MAX_JOB_REQUEUE")):
        if value is not None and str(value).strip().isdigit():
            return int(str(value).strip())
    return None


def head_seq(ctl, job):
    """LSF requeues to the head of the queue (LSB_REQUEUE_TO_BOTTOM=0):
    a place before the queue's first pending job, or None if it is."""
    firsts = [j["seq"] for j in ctl.jobs.values()
              if j is not job and j["queue"] == job["queue"] and
              j["stat"] in states.PENDING and j.get("seq") is not None]
    if firsts and min(firsts) <= job["seq"]:
        return min(firsts) - 1
    return None
