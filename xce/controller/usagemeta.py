"""What running jobs use, kept in the store's meta table for the
commands that show it: of each lsb.resources limit (blimits) and of the
shared and host site resources (bhosts -s, -l, lsload -s).  Each is
written when a pass's snapshot counted it and again after the pass's
starts, and only when it changed."""

import json

from xce.controller import dispatch, limitconf
from xce.model import states
from xce.scheduler import rusage_held
from xce.scheduler.limits import Limits


def publish_started_usage(ctl, started):
    """After a pass's jobs *started*: the limit usage with them counted,
    so blimits (reading the batch these starts commit in) never shows a
    started job uncounted, even when no pass follows.  The started jobs
    are charged onto a copy of what the pass's snapshot counted; only
    when a job the snapshot saw changed during the pass (suspended by
    preemption, ended) is every running job counted again."""
    base, ctl.passes.limit_base = ctl.passes.limit_base, None
    if not started:
        return
    limits = None
    if base is not None and base[1] is ctl.cfg and base[2] == ctl.now:
        if base[0] is None:
            return      # no limits at this time of this configuration
        limits = _with_started(ctl, base[0], started)
    if limits is None:
        limits = _recounted(ctl, started)
    if limits:
        _publish(ctl, limits)


def _with_started(ctl, counted_usage, started):
    """The snapshot's count (*counted_usage*) with the running jobs of
    *started* charged, or None when that count no longer holds: a job it
    counted (or one it did not that runs now) had an event since."""
    counted = ctl.passes.started
    keys = {(job["jobid"], job["idx"]) for job in started}
    if not keys.isdisjoint(counted):
        return None
    for key in ctl.passes.changed:
        if key in keys:
            continue
        job = ctl.jobs.get(key)
        if key in counted or (job is not None and
                              job["stat"] in states.RUNNING):
            return None
    limits = counted_usage.copy()
    _charge(ctl, limits, keys)
    return limits


def _recounted(ctl, started):
    """Every running job's use, counted from scratch."""
    limits = Limits(limitconf.limits(ctl.cfg, ctl.now))
    if limits:
        keys = set(ctl.passes.started)
        keys.update((job["jobid"], job["idx"]) for job in started)
        _charge(ctl, limits, keys)
    return limits


def _charge(ctl, limits, keys):
    """Charge onto *limits* the jobs of *keys* that are running."""
    per_task = ctl.cfg.param_flag("RESOURCE_RESERVE_PER_TASK")
    for key in keys:
        job = ctl.jobs.get(key)
        if job is None or job["stat"] not in states.RUNNING:
            continue
        dispatch.charge_limits(
            ctl, job, limits, per_task,
            rusage_held.need(dispatch.reserved(ctl, job)),
            dispatch.slots_per_host(job))


def publish_limit_usage(ctl, limits):
    """What running jobs use of each lsb.resources limit as a pass's
    snapshot counted it (*limits*, or None), kept in the store's meta
    table for blimits; the pass's starts are charged onto it after."""
    ctl.passes.limit_base = (limits, ctl.cfg, ctl.now)
    _publish(ctl, limits)


def _publish(ctl, limits):
    """The rows of *limits*' usage, written only when they changed."""
    rows = []
    for counter, (slots, jobs, mem, swp, tmp, resources) in sorted(
            (limits.used if limits else {}).items()):
        lim = limits.limits[counter[0]]
        if lim.slot_reason:
            continue        # lsb.users MAX_JOBS: busers shows those
        rows.append({"name": lim.name, "users": counter[1],
                     "queues": counter[2], "projects": counter[3],
                     "hosts": counter[4], "apps": counter[5],
                     "slots": slots, "jobs": jobs,
                     "mem": mem, "swp": swp, "tmp": tmp,
                     "resources": resources})
    text = json.dumps(rows)
    if ctl.passes.limit_usage != text:
        ctl.passes.limit_usage = text
        ctl.store.set_meta("limit_usage", text)


def publish_shared_usage(ctl, hosts):
    """The shared resources' totals and what running jobs hold of them
    (the snapshot's counters), and what they hold of each host's own
    site resources, kept in the store's meta table for bhosts -s, -l and
    lsload -s; written only when it changed."""
    rows, seen = [], set()
    for h in hosts:
        for name, counter in sorted(h.shared.items()):
            if id(counter) in seen:
                continue
            seen.add(id(counter))
            rows.append({"name": name, "total": counter.total,
                         "held": round(counter.held, 3),
                         "hosts": [v.name for v in counter.views]})
    # What jobs hold of each host's own site resources (bhosts -l).
    held = {h.name: {n: round(v[1], 3) for n, v in sorted(h.held.items())
                     if n not in ("swp", "tmp")}
            for h in hosts if h.held}
    text = json.dumps({"shared": sorted(rows, key=lambda r: (r["name"],
                                                             r["hosts"])),
                       "hosts": held})
    if getattr(ctl.passes, "shared_usage", None) != text:
        ctl.passes.shared_usage = text
        ctl.store.set_meta("shared_usage", text)
