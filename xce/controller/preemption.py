"""Preemption in the controller: what the scheduler needs to decide it (the
policy from the queues' PREEMPTION and the running jobs of preemptable
queues), and carrying its decisions out like bstop/bresume do: an SSUSP
or RUN status event, then SIGSTOP or SIGCONT through the job's agent."""

import logging
from dataclasses import dataclass

from xce.controller import jobactions
from xce.controller.apply import PREEMPTED
from xce.lang import preempt
from xce.model import states
from xce.model.jobid import show
from xce.scheduler.preempt import Preemption, RunningJob

log = logging.getLogger("xce.controller")


@dataclass
class State:
    """The jobs preemption suspended (``ctl.preempted``): their keys, or
    None until the first look (see _held)."""
    held: set = None


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
    """This pass's preempt.Preemption, or None when no queue may preempt
    and no preempted job waits.  Only running (RUN) jobs of preemptable
    queues and the jobs it suspended itself are its to touch; a suspended
    job is resumed whatever its queue has become (bswitch, reconfig)."""
    pol = policy(ctl.cfg)
    held = _held(ctl)
    if pol is None and not held:
        return None
    running = []
    if pol is not None:
        targets = pol.preemptable()
        running = [_running(job) for job in ctl.jobs.values()
                   if job["stat"] == states.RUN and job["queue"] in targets]
    for key in sorted(held):
        job = ctl.jobs.get(key)
        if job is None or job["stat"] != states.SSUSP or not preempted(job):
            held.discard(key)       # resumed, stopped, ended: not ours
        else:
            running.append(_running(job, True))
    return Preemption(pol or preempt.Policy({}), running)


def _held(ctl):
    """Keys of the jobs preemption suspended: found once (after a
    restart, from their spec), then kept as it suspends them, so that a
    pass without a policy costs nothing when there are none."""
    st = ctl.preempted
    if st.held is None:
        st.held = {key for key, job in ctl.jobs.items() if preempted(job)}
    keys = st.held
    return keys


def _running(job, held=False):
    hosts = {}
    for name in (job["exec_hosts"] or "").split():
        hosts[name] = hosts.get(name, 0) + 1
    return RunningJob((job["jobid"], job["idx"]), job["queue"], hosts,
                              job["start_time"] or 0.0, held)


def waiting(pre):
    """Does a preempted job wait to be resumed (a pass is worth it even
    with nothing pending)?"""
    return pre is not None and any(r.preempted for r in pre.running)


def preempted(job):
    return bool((job.get("spec") or {}).get("preempted"))


def carry_out(ctl, decisions):
    """Suspend the jobs the scheduler preempted and resume those it let
    go, with their queues' JOB_CONTROLS (TERMINATE_WHEN = PREEMPT ends
    them instead); the signals reach the agents after the commit."""
    for key, by in decisions.preempt:
        job = ctl.jobs[key]
        if jobactions.suspend(ctl, job, "PREEMPT", PREEMPTED, by=show(*by)):
            _held(ctl).add(key)
    for key in decisions.resume:
        job = ctl.jobs[key]
        _held(ctl).discard(key)
        jobactions.resume(ctl, job, reason=PREEMPTED)
