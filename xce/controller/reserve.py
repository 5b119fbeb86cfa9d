"""Slot reservation across scheduling passes (queue SLOT_RESERVE, BACKFILL).

The pure scheduler (xce.scheduler.backfill) makes reservations afresh at
every pass; the controller keeps what lasts between passes -- when each
job's reservation began -- gives it the running jobs' predicted ends, and
schedules again when a reservation's time runs out.

xce has no fixed scheduling cycle (it schedules when something changed),
so MAX_RESERVE_TIME[n] is read as LSF defines it in time: n times
MBD_SLEEP_TIME seconds (parameters, LSF's default 10).  What a pass
reserved is published in the store's meta table (``reservations``) for
bhosts (RSV) and bjobs -l.
"""

import json
from dataclasses import dataclass, field

from xce.config.model import MBD_SLEEP_TIME
from xce.model import states
from xce.scheduler.backfill import Context
from xce.controller import rlimits
from xce.scheduler.jobtimes import expected, on_host

META_KEY = "reservations"


@dataclass
class State:
    """What lasts between passes (``ctl.reservations``)."""
    since: dict = field(default_factory=dict)  # job key -> reserving since
    deadline: float = None      # the first reservation to run out
    published: str = None       # what bhosts and bjobs were last given


def window(cfg, q):
    """Seconds a reservation of queue config *q* lasts; None: none."""
    if q.slot_reserve is None:
        return None
    return q.slot_reserve * cfg.param_int("MBD_SLEEP_TIME", MBD_SLEEP_TIME)


def estimate_spec(ctl, job):
    """The job's spec with its estimate: bsub -We or the profile's
    RUNTIME (with its /host), else the queue's ESTIMATED_RUNTIME."""
    spec = job["spec"]
    if spec.get("estimate"):
        return spec
    q = ctl.cfg.queues.get(job["queue"])
    minutes = q.estimated_runtime if q is not None else None
    return {**spec, "estimate": minutes, "estimate_host": None} \
        if minutes else spec


def normal_times(ctl, job):
    """(run limit, estimate, absolute) of a job in normalised seconds, as
    the scheduler's PendingJob carries them (rlimits.normal_seconds)."""
    q = ctl.cfg.queues.get(job["queue"])
    run, absolute = rlimits.normal_seconds(ctl.cfg, q, job["spec"])
    estimate, _ = rlimits.normal_seconds(ctl.cfg, q, estimate_spec(ctl, job),
                                         "estimate")
    return run, estimate, absolute


def context(ctl, queues):
    """The scheduler's backfill.Context, or None when no queue reserves
    or backfills (then a pass pays nothing for this feature)."""
    if not any(q.reserve_time is not None or q.backfill for q in queues):
        return None
    ends = {}
    # The jobs that have started (dispatch.snapshot keeps the set), not
    # every job: a pass costs what runs, not what waits.
    for key in ctl.passes.started:
        job = ctl.jobs.get(key)
        if job is None or job["stat"] not in states.RUNNING:
            continue
        hosts = (job["exec_hosts"] or "").split()
        run, estimate, absolute = normal_times(ctl, job)
        # Its end by its first host's CPU factor (the agent's run limit).
        factor = rlimits.cpu_factor(ctl.cfg, hosts[0]) if hosts else None
        limit = expected(on_host(run, factor, absolute),
                         on_host(estimate, factor, absolute))
        start = job.get("start_time")
        end = start + limit if limit and start is not None else None
        per_host = {}
        for name in hosts:
            per_host[name] = per_host.get(name, 0) + 1
        for name, n in per_host.items():
            ends.setdefault(name, []).append((end, n))
    since = {key: t for key, t in ctl.reservations.since.items()
             if key in ctl.jobs}
    return Context(ctl.now, since, ends)


def due(ctl):
    """Must a pass run for the reservations: has one's time run out, or
    has a reserving job left PEND (bstop, bkill) and so its slots?"""
    deadline = ctl.reservations.deadline
    if deadline is not None and ctl.now >= deadline:
        return True
    return any(ctl.jobs.get(key, _GONE)["stat"] != states.PEND
               for key in ctl.reservations.since)


_GONE = {"stat": None}


def record(ctl, decisions):
    """Keep when reservations began, set the next expiry, publish."""
    held = decisions.reserved if decisions is not None else {}
    st = ctl.reservations
    st.since = {key: v[0] for key, v in held.items()}
    deadlines = []
    for key, since in st.since.items():
        q = ctl.cfg.queues.get(ctl.jobs[key]["queue"])
        seconds = window(ctl.cfg, q) if q is not None else None
        if seconds is not None:
            deadlines.append(since + seconds)
    st.deadline = min(deadlines) if deadlines else None
    if decisions is not None and decisions.expired:
        ctl.dirty = True        # the jobs reserve again at the next pass
    _publish(ctl, held)


def _publish(ctl, held):
    rows = [{"job": key[0], "idx": key[1], "queue": ctl.jobs[key]["queue"],
             "since": since, "hosts": hosts, "start": start}
            for key, (since, hosts, start) in sorted(held.items())]
    text = json.dumps(rows)
    # Written when it changed (and once at start, over a stale value).
    if ctl.reservations.published != text:
        ctl.reservations.published = text
        ctl.store.set_meta(META_KEY, text)
