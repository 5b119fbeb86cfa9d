"""A job's decision trace for one scheduling pass (xce explain).

core.schedule calls Tracer.look for the jobs named here only, at the
moment the pass reaches them (after the jobs ahead took their slots), and
Tracer.finish once the pass is over.  The verdict on each host comes from
the scheduler's own functions on the pass's own state, so the trace says
what the pass did; this module adds only what the host had and what the
job wanted.  It reads the pass's state and never changes it.
"""

from xce.model import states
from xce.scheduler import (core, exclusive, hostfit, jobtimes, rusage_held,
                           views)
from xce.lang.resreq.common import format_number
from xce.scheduler.trace_select import unmet


class Tracer:
    def __init__(self, keys):
        self.keys = frozenset(keys)     # (jobid, idx) of the jobs to trace
        self.traces = {}

    def look(self, job, q, state, out, queue_rank, position):
        """queue_rank: (n, of); position: (n, of) among the queue's jobs."""
        trace = {
            "job": list(job.key), "user": job.user, "queue": q.name,
            "queue_priority": q.priority, "queue_rank": list(queue_rank),
            "position": list(position),
            "placed_before": len(out.dispatch), "wants": _wants(job, q),
            "job_reason": None, "hosts": []}
        why = core._job_reason(job, q, state)
        if why is not None:
            text = why[0][0]
            trace["job_reason"] = {"reason": text,
                                   "details": _job_details(text, job, q,
                                                           state)}
        else:
            trace["hosts"] = _hosts(job, q, state)
        self.traces[job.key] = trace

    def finish(self, out):
        placed = {key: hosts for key, hosts in out.dispatch
                  if key in self.keys}
        for key, trace in self.traces.items():
            if key in placed:
                trace["decision"] = {"action": "dispatch",
                                     "hosts": list(placed[key])}
            else:
                trace["decision"] = {
                    "action": "pend",
                    "reasons": [[text, list(hosts) if hosts else None]
                                for text, hosts in out.reasons.get(key, ())]}
        out.traces.update(self.traces)


def _wants(job, q):
    rr = job.resreq
    mem = hostfit.mem_alternatives(job)[0]
    return {"slots": [job.nslots, max(job.max_slots or job.nslots,
                                      job.nslots)],
            "resreq": str(rr) if rr is not None else "",
            "queue_select": str(q.select) if q.select is not None else "",
            "mem_reserve": mem or None, "project": job.project}


def _job_details(text, job, q, state):
    """What a job-wide reason compared (empty when the text says all)."""
    if text in (core.R_DEPEND, core.R_DEPEND_NEVER):
        return [_d("dependency", job.depend, "satisfied")]
    if text == core.R_QUEUE_INACTIVE:
        return [_d("queue state", "inactive", "active")]
    if text == core.R_QUEUE_WINDOW:
        return [_d("queue windows", "closed", "open")]
    if text == core.R_WINDOW_WILL_CLOSE:
        return [_d("run limit (seconds, fastest host)",
                   round(jobtimes.on_host(job.runlimit, q.window_factor,
                                          job.abs_runlimit)),
                   f"within {round(q.window_closes - state.now)} before "
                   "the run window closes")]
    if text == core.R_ARRAY_LIMIT:
        return [_d("running elements", state.arrays.get(job.key[0], 0),
                   f"fewer than {job.array_limit}")]
    if text in (core.R_QUEUE_LIMIT, core.R_QUEUE_PJOB_LIMIT):
        return [_d("queue slots used", q.used,
                   f"{job.nslots} more within {q.qjob_limit}")]
    if text in (core.R_USER_QUEUE_LIMIT, core.R_USER_QUEUE_PJOB_LIMIT):
        return [_d("user's slots in the queue", q.user_used.get(job.user, 0),
                   f"{job.nslots} more within {q.ujob_limit}")]
    return []


def _hosts(job, q, state):
    """Every host with the scheduler's verdict on it for this job."""
    rr = job.resreq
    select = rr.select if rr is not None else None
    dynamic = hostfit.is_dynamic(select, state.changing)
    static = None if dynamic else select
    names, blocked = [], {}
    for name in sorted(state.hosts):
        why = hostfit.host_blocked(state.hosts[name], q, static, job.local_type,
                                 job.asked)
        if why is None:
            names.append(name)
        else:
            blocked[name] = why
    # A fresh candidate list: the pass's cached ones stay untouched.
    cands = hostfit.Candidates(names, blocked, dynamic)
    mem = hostfit.mem_alternatives(job)[0]
    free, more, _ = hostfit.free_slots(job, q, state.hosts, mem, cands, select,
                                     state.limits, state.now)
    verdicts = cands.all_blocked(more, state.hosts, q, job)
    rows = []
    for name in sorted(state.hosts):
        h = state.hosts[name]
        if name in free:
            rows.append({"host": name, "usable": True, "reason": None,
                         "details": [_d("free slots", free[name],
                                        job.nslots)]})
            continue
        why = verdicts[name]
        rows.append({"host": name, "usable": False, "reason": why,
                     "details": _host_details(why, h, q, job, select, mem)})
    return rows


def _host_details(why, h, q, job, select, mem):
    """What the host had against what the job (or its queue) wanted."""
    if why == core.R_HOST_QUEUE:
        return [_d("host", h.name, "one of " + " ".join(q.hosts or ()))]
    if why == core.R_NOT_ASKED:
        return [_d("host", h.name,
                   "one of -m " + " ".join(sorted(job.asked.levels)))]
    if why in (core.R_HOST_UNAVAIL, core.R_HOST_CLOSED, exclusive.R_RUNNING):
        return [_d("status", h.status, states.HOST_OK)]
    if why == core.R_QUEUE_RESREQ:
        return unmet(q.select.expr, h.resources, job.local_type)
    if why == core.R_RESREQ:
        return unmet(select.expr, h.resources, job.local_type)
    if why == core.R_HOST_FULL:
        return [_d("free slots", max(h.max_slots - h.used, 0),
                   f"{job.nslots} (of {h.max_slots} on the host)")]
    if why == core.R_HOST_QUEUE_LIMIT:
        return [_d("queue's slots on the host", q.host_used.get(h.name, 0),
                   f"fewer than HJOB_LIMIT {q.hjob_limit}")]
    if why == core.R_HOST_PJOB_LIMIT:
        return [_d("queue's slots on the host", q.host_used.get(h.name, 0),
                   f"fewer than {hostfit.pjob_slots(h, q)} (PJOB_LIMIT "
                   f"{q.pjob_limit} x ncpus)")]
    if why == core.R_HOST_USER_LIMIT:
        return [_d("user's slots on the host", h.user_used.get(job.user, 0),
                   f"fewer than JL/U {h.jl_u}")]
    if why in (views.R_USER_CPU_LIMIT, views.R_UGROUP_CPU_LIMIT):
        return [_jlp(h, job, members) for per_cpu, members in job.jl_p
                if hostfit.per_cpu_slots(h, per_cpu) <=
                hostfit.jlp_used(h, job.user, members)][:1]
    if why in (core.R_RESERVE_MEM,
               rusage_held.reserve_reason("mem", ("mem",))):
        left = None if h.mem_total is None else h.mem_total - h.mem_reserved
        return [_d("mem free to reserve", left,
                   f"rusage[mem={format_number(mem)}]")]
    return [_held(h, name, amount, job.user)
            for name, amount in sorted(rusage_held.others(mem).items())
            if why == rusage_held.reserve_reason(
                name, rusage_held.from_queue(job))]


def _jlp(h, job, members):
    """A JL/P of lsb.users that the user (or its group) is at on a host."""
    per_cpu = next(p for p, m in job.jl_p if m is members)
    whose = "user's" if members is None else "user group's"
    return _d(f"{whose} slots on the host",
              hostfit.jlp_used(h, job.user, members),
              f"fewer than {hostfit.per_cpu_slots(h, per_cpu)} (JL/P "
              f"{format_number(per_cpu)} x ncpus)")


def _held(h, name, amount, user):
    """swp, tmp or a site resource: what is left to reserve on the host
    for the job's user (claims keep some for others)."""
    return _d(f"{name} free to reserve", rusage_held.left(h, name, user),
              f"rusage[{name}={format_number(amount)}]")


def _d(what, had, wanted):
    return {"what": what, "had": had, "wanted": wanted}
