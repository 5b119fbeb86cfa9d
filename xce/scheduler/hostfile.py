"""bsub -hostfile: the job names the host of each of its slots.

The file's lines give the layout in order (a host may come back); the
job starts when every named host can take the slots it is given there,
and then on exactly that layout, so LSB_HOSTS and LSB_DJOB_HOSTFILE keep
the file's order.  Hosts the job cannot use are reported with their
reasons, as for any job.
"""

from xce.scheduler import hostfit
from xce.scheduler.views import R_HOST_FULL


def consider(job, q, state, out, take):
    """Place JOB on its layout, or give its pend reasons.  *take* is the
    pass's own slot-taking function (core._take)."""
    rr = job.resreq
    select = rr.select if rr is not None else None
    cands = state.candidates(q, select, job.local_type, job.asked,
                             job.container)
    mem = hostfit.mem_alternatives(job)[0]
    free, blocked, _ = hostfit.free_slots(job, q, state.hosts, mem, cands,
                                          select, state.limits, state.now)
    need = counts(job.layout)
    short = {name: blocked.get(name) or cands.blocked.get(name) or
             R_HOST_FULL for name, n in need.items()
             if free.get(name, 0) < n}
    if not short:
        slots = list(job.layout)
        take(job, q, state, slots, mem)
        out.dispatch.append((job.key, slots))
        return
    groups = {}
    for name, why in short.items():
        groups.setdefault(why, []).append(name)
    out.reasons[job.key] = [[why, sorted(names)]
                            for why, names in sorted(groups.items())]


def counts(layout):
    """host -> slots the layout puts there."""
    per_host = {}
    for name in layout:
        per_host[name] = per_host.get(name, 0) + 1
    return per_host
