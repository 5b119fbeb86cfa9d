"""One scheduling pass over the controller's state: the only place that
runs the pure scheduler for real, shared by the live controller
(Controller._schedule), xce explain and the simulator (xce.sim).

A pass is: the snapshot (dispatch.snapshot: pending views, the
unsatisfiable-request and dependency caches, running jobs charged to
hosts, queues, allocation limits and fairshare use), the preemption view,
the reservation context, scheduler.schedule, then the reservations kept
for the next pass.  settle() turns the decisions into the events that
change the jobs (preemption's suspend/resume, START); noted() is the pass
bookkeeping every applied event needs.  Whoever drives the pass -- the
daemon with its agents and store, the simulator with its virtual clock --
gives it an object with the controller's attributes (jobs, hosts, cfg,
queue_state, passes, reservations, preempted, index, links, store, now,
view_epoch, dirty, emit, send_signal, is_admin), so no decision can be
made one way live and another way in a replay.
"""

from xce.controller import (accept, claims, dispatch, gangs, jobgroups,
                            limitconf, preemption, reserve, rusagewake,
                            sharehist, usagemeta, windows)
from xce.model import fairshare, states
from xce.scheduler import core as scheduler
from xce.scheduler.trace import Tracer


def run(ctl, reasons=True):
    """Run a pass at ctl.now; the Decisions, or None when no job waits.

    reasons: False lets the scheduler stop once no job can start (the
    controller refreshes every pend reason at most every second)."""
    queues, hosts, pending, arrays, limits = dispatch.snapshot(ctl)
    usagemeta.publish_limit_usage(ctl, limits)
    usagemeta.publish_shared_usage(ctl, hosts)
    pre = preemption.view(ctl)
    if not pending and not preemption.waiting(pre):
        reserve.record(ctl, None)
        ctl.passes.rusage_next = None       # no job waits for what frees
        return None
    decisions = _schedule(ctl, (queues, hosts, pending, arrays, limits),
                          pre, reasons)
    reserve.record(ctl, decisions)
    return decisions


def trace(ctl, keys):
    """The pass the controller would run now, with the decision traces
    of the jobs *keys* (xce explain); nothing is recorded or changed."""
    snap = dispatch.snapshot(ctl)
    return _schedule(ctl, snap, preemption.view(ctl), True, Tracer(keys))


def _schedule(ctl, snap, pre, reasons, tracer=None):
    # The snapshot's host views are built afresh for each pass and not
    # read after it: the scheduler may use them without a copy.
    queues, hosts, pending, arrays, limits = snap
    return scheduler.schedule(queues, hosts, pending, arrays, limits,
                              trace=tracer, preempt=pre,
                              reserve=reserve.context(ctl, queues),
                              order=ctl.passes.order, reasons=reasons,
                              now=ctl.now, groups=jobgroups.room(ctl),
                              owned_hosts=True,
                              gang_sizes=gangs.sizes(ctl))


def settle(ctl, decisions):
    """Apply a pass's decisions to the jobs: preempted jobs suspended
    and resumed (ctl.send_signal carries the signal), placed jobs
    STARTed.  Returns the started jobs, in dispatch order; what starting
    them means (an agent's start message, a virtual end) is the caller's."""
    preemption.carry_out(ctl, decisions)
    started = []
    for key, placement in decisions.dispatch:
        job = ctl.jobs[key]
        alt = decisions.rusage_alt.get(key)
        gpus = decisions.gpus.get(key)
        share = getattr((job.get("_pending") or (None,) * 3)[2],
                        "share_group", None)
        path = _share_path(ctl, job, share)
        ctl.emit("START", job, hosts=placement, attempt=job["attempt"] + 1,
                 **({"rusage_alt": alt} if alt else {}),
                 **({"gpus": gpus} if gpus else {}),
                 **({"share_group": share} if share else {}),
                 **({"share_path": path} if path else {}))
        if job["spec"].get("exclusive") or job["spec"].get("nnodes"):
            ctl.passes.excl_hosts.update(placement)     # closed_Excl now
        started.append(job)
    accept.started(ctl, [name for _, placement in decisions.dispatch
                         for name in placement])
    usagemeta.publish_started_usage(ctl, started)    # blimits counts them
    accept.after_pass(ctl)      # when a host held back takes jobs again
    rusagewake.after_pass(ctl)  # when a reservation next shrinks
    return started


def _share_path(ctl, job, share):
    """The account path from the top of a fairshare queue's share tree a
    job starting with *share* (its share_group) is charged to, kept with
    the job for lsb.acct (chargedSAAP); None outside fairshare."""
    q = ctl.cfg.queues.get(job["queue"])
    policy = limitconf.policy(ctl.cfg, q) if q is not None else None
    if policy is None:
        return None
    return fairshare.charged_path(policy, job["user"], {
        "user_group": job["spec"].get("user_group"), "share_group": share})


def noted(ctl, job):
    """After an event is applied to *job*: the dependency index, the
    pending views the next pass rebuilds, the unfinished jobs, its claim,
    and whether a pass is due (slots freed, or a job to place)."""
    ctl.index.note(job)
    key = (job["jobid"], job["idx"])
    ctl.passes.views.pop(key, None)
    ctl.passes.changed.add(key)     # for dispatch.snapshot
    if job["stat"] in states.FINISHED:
        # Its fairshare use outlives it, decaying (sharehist).
        sharehist.noted(ctl, job, ctl.jobs.pop(key, None) is not None)
    else:
        ctl.jobs[key] = job
    windows.noted(ctl, job)     # the started jobs of each host
    claims.noted(ctl, job)      # made at the start, released at the end
    if job["stat"] in states.FINISHED or job["stat"] == states.PEND:
        ctl.dirty = True
    if job["stat"] == states.EXIT:
        gangs.member_ended(ctl, job)    # the gang's failure policy


def max_slots(hc, facts):
    """A host's job slots: MXJ, else its CPUs (configured or reported)."""
    return hc.mxj or hc.ncpus or facts.get("ncpus") or 1
