"""Preemption in the controller: what the scheduler needs to decide it (the
policy from the queues' PREEMPTION and the running jobs of preemptable
queues), and carrying its decisions out like bstop/bresume do: an SSUSP
or RUN status event, then SIGSTOP or SIGCONT through the job's agent."""

import logging
import signal

from xce.controller.apply import PREEMPTED
from xce.model import states
from xce.model.jobid import show
from xce.scheduler import preempt

log = logging.getLogger("xce.controller")


def policy(cfg):
    """The configuration's preempt.Policy, or None when no queue may
    preempt another (kept on the configuration object)."""
    cached = getattr(cfg, "_xce_preempt", None)
    if cached is not None:
        return cached or None
    queues = {}
    for name, q in cfg.queues.items():
        spec, text = None, q.raw.get("PREEMPTION")
        if text:
            try:
                spec = preempt.parse(text)
            except preempt.PreemptError as e:   # the loader reports it
                log.warning("queue %s: PREEMPTION not applied: %s", name, e)
        queues[name] = (q.priority, spec)
    found = cfg._xce_preempt = preempt.Policy(queues)
    return found or None


def view(ctl):
    """This pass's preempt.Preemption, or None without a policy.  Only
    running (RUN) jobs and those it suspended itself are its to touch."""
    pol = policy(ctl.cfg)
    if pol is None:
        return None
    targets = pol.preemptable()
    running = []
    for job in ctl.jobs.values():
        if job["queue"] not in targets:
            continue
        held = preempted(job)
        if job["stat"] != states.RUN and not (
                held and job["stat"] == states.SSUSP):
            continue
        hosts = {}
        for name in (job["exec_hosts"] or "").split():
            hosts[name] = hosts.get(name, 0) + 1
        running.append(preempt.RunningJob(
            (job["jobid"], job["idx"]), job["queue"], hosts,
            job["start_time"] or 0.0, held))
    return preempt.Preemption(pol, running)


def waiting(pre):
    """Does a preempted job wait to be resumed (a pass is worth it even
    with nothing pending)?"""
    return pre is not None and any(r.preempted for r in pre.running)


def preempted(job):
    return bool((job.get("spec") or {}).get("preempted"))


def carry_out(ctl, decisions):
    """Suspend the jobs the scheduler preempted and resume those it let
    go; the signals reach the agents after the commit."""
    for key, by in decisions.preempt:
        job = ctl.jobs[key]
        ctl.emit("STATUS", job, stat=states.SSUSP, reason=PREEMPTED,
                 by=show(*by))
        ctl.send_signal(job, signal.SIGSTOP, None)
    for key in decisions.resume:
        job = ctl.jobs[key]
        ctl.emit("STATUS", job, stat=states.RUN, reason=PREEMPTED)
        ctl.send_signal(job, signal.SIGCONT, None)
