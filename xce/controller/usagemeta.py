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
    """After a pass's jobs *started*: the limit usage counted again with
    them, so blimits (reading the batch these starts commit in) never
    shows a started job uncounted, even when no pass follows."""
    if not started:
        return
    limits = Limits(limitconf.limits(ctl.cfg, ctl.now))
    if not limits:
        return
    per_task = ctl.cfg.param_flag("RESOURCE_RESERVE_PER_TASK")
    keys = set(ctl.passes.started)
    keys.update((job["jobid"], job["idx"]) for job in started)
    for key in keys:
        job = ctl.jobs.get(key)
        if job is None or job["stat"] not in states.RUNNING:
            continue
        dispatch.charge_limits(
            ctl, job, limits, per_task,
            rusage_held.need(dispatch.reserved(ctl, job)),
            dispatch.slots_per_host(job))
    publish_limit_usage(ctl, limits)


def publish_limit_usage(ctl, limits):
    """What running jobs use of each lsb.resources limit, kept in the
    store's meta table for blimits; written only when it changed."""
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
