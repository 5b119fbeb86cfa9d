"""Which hosts can take a job now and how many of its slots: the per-host
checks of a scheduling pass (queue membership, host state, select[], slot
limits, memory and other rusage reservations), the candidate list a pass
keeps per kind of job, and how unusable hosts are grouped into reasons.
Pure, like the rest of the scheduler; core.py, trace.py and preempt.py use
the same checks so their verdicts agree."""

import heapq
import math

from xce.lang import loadthresh
from xce.model import states
from xce.scheduler import exclusive, gpus, rusage_held
from xce.scheduler.views import (
    DYNAMIC_RESOURCES, R_HOST_CLOSED, R_HOST_FULL, R_HOST_LIMIT,
    R_HOST_PJOB_LIMIT, R_HOST_WINDOW,
    R_HOST_QUEUE, R_HOST_QUEUE_LIMIT, R_HOST_UNAVAIL, R_HOST_USER_LIMIT,
    R_CONTAINER, R_HOST_ACCEPT, R_HOST_LOAD, R_QUEUE_RESREQ,
    R_NO_SPAN, R_QUE_NO_SPAN, R_QUE_SPAN, R_RESREQ, R_SPAN,
    R_UGROUP_CPU_LIMIT, R_USER_CPU_LIMIT)


class Candidates:
    def __init__(self, names, blocked, dynamic=False):
        self.names = names          # may have room, in name order
        self.blocked = blocked      # name -> reason, for good this pass
        # The select[] reads what reservations change within the pass:
        # free_slots checks it host by host, job by job.
        self.dynamic = dynamic
        self.full = []              # found full since
        self.waiting = []           # given a job within JOB_ACCEPT_INTERVAL
        self.heap = None            # (-free slots, name), see _roomiest

    def roomiest(self, hosts):
        """The host with the most free slots (first name on a tie), kept
        in a heap whose stale entries are fixed as they surface: free
        slots only go down within a pass, so a fresh top is the maximum."""
        heap = self.heap
        if heap is None:
            heap = self.heap = [(hosts[n].used - hosts[n].max_slots, n)
                                for n in self.names]
            heapq.heapify(heap)
        while heap:
            key, name = heap[0]
            h = hosts[name]
            room = h.max_slots - h.used
            if -key == room:
                return name, room
            if room > 0:
                heapq.heapreplace(heap, (-room, name))
            else:
                heapq.heappop(heap)
        return None, 0

    def prune(self, hosts, waits=None):
        """Drop the hosts found full, and those *waits* (a host's name ->
        whether it waits out JOB_ACCEPT_INTERVAL), for the rest of the
        pass: neither gets room back within it."""
        still = [n for n in self.names
                 if hosts[n].used < hosts[n].max_slots and
                 (waits is None or not waits(n))]
        if len(still) != len(self.names):
            gone = set(self.names).difference(still)
            full = sorted(n for n in gone
                          if hosts[n].used >= hosts[n].max_slots)
            self.full += full
            self.waiting += sorted(gone.difference(full))
            self.names = still

    def all_blocked(self, blocked, hosts=None, q=None, job=None):
        """Every unusable host with its reason.  Given the pass's *hosts*,
        queue and job, a host that fails select[] but has no slot left
        for the job gives its slot reason: LSF drops a host on its slot
        limits before it looks at the resource requirement."""
        out = dict(self.blocked)
        if hosts is not None:
            out.update(_full_first(out, hosts, q, job))
        out.update((n, R_HOST_FULL) for n in self.full)
        out.update((n, R_HOST_ACCEPT) for n in self.waiting)
        out.update(blocked)
        return out


def _full_first(blocked, hosts, q, job):
    """{host: slot reason} for the hosts blocked on select[] that are
    out of slots for *job* (host, queue per-host or user limits)."""
    out = {}
    for name, why in blocked.items():
        if why in (R_RESREQ, R_QUEUE_RESREQ):
            h = hosts[name]
            if room(h, q, job.user, job.jl_p) <= 0:
                out[name] = full_reason(h, q, job.user, job.jl_p)
    return out


# id(select) -> (select, the names it was asked about, the answer)
_DYNAMIC = {}


def is_dynamic(select, changing=DYNAMIC_RESOURCES):
    """Whether *select* reads a resource whose host values change within
    a pass (*changing*: what jobs placed in the pass reserve, see
    changing_names), so no host list may be kept for it."""
    if select is None:
        return False
    found = _DYNAMIC.get(id(select))
    if found is None or found[0] is not select or found[1] is not changing:
        if len(_DYNAMIC) > 10000:
            _DYNAMIC.clear()
        found = _DYNAMIC[id(select)] = (
            select, changing, not select.names.isdisjoint(changing))
    return found[2]


def changing_names(hosts):
    """The resources whose values a pass changes as it places jobs: mem,
    swp, tmp and slots, and every resource a running job holds of a
    host or shares (licence tokens, an elim's numeric resource under
    rusage[]).  A select[] that reads one is checked against the hosts'
    values at each job, never from a list kept for the pass."""
    names = set(DYNAMIC_RESOURCES)
    for h in hosts:
        if h.held:
            names.update(h.held)
        if h.shared:
            names.update(h.shared)
    return frozenset(names)


def job_mem(job):
    """The rusage[mem] the whole job reserves (first alternative), as
    allocation limits count it."""
    mem = mem_alternatives(job)[0]
    return rusage_held.times(mem, job.nslots) if job.mem_per_task else mem


def mem_alternatives(job):
    """rusage[mem] amounts to try in order (|| alternatives); 0: none."""
    rusage = job.resreq.rusage if job.resreq is not None else None
    if rusage is None:
        return (0,)
    return tuple(rusage_held.need(alt.amounts())
                 for alt in rusage.alternatives)


def free_slots(job, q, hosts, mem, cands, select, limits=None, now=None):
    """Over the candidate hosts: host -> usable free slots, host -> why a
    host is not usable, and host -> its slot count (for ptile='!').
    *now*: the time of the pass, for the queue's JOB_ACCEPT_INTERVAL."""
    free, blocked, host_max = {}, {}, {}
    dynamic = cands.dynamic
    if limits is not None and \
            not limits.split(job.user, q.name, job.project, job.app,
                             job.limit_groups)[1]:
        limits = None       # no per-host limit applies to this job
    waits = accept_wait(q, hosts, now)
    full = 0
    for name in cands.names:
        h = hosts[name]
        excl = exclusive.host_reason(h, job)
        if excl is not None:
            blocked[name] = excl
            continue
        if h.used >= h.max_slots:
            blocked[name] = R_HOST_FULL
            full += 1
            continue
        if waits is not None and waits(name):
            blocked[name] = R_HOST_ACCEPT
            full += 1
            continue
        why = None
        if dynamic and not select.matches(h.resources, job.local_type):
            why = R_RESREQ
        if why is None:
            n = room(h, q, job.user, job.jl_p)
            if n <= 0:
                why = full_reason(h, q, job.user, job.jl_p)
            elif limits is not None:
                n, why = limit_room(n, job, q, h, mem, limits)
            if why is None and mem and not mem_fits(h, mem):
                why = rusage_held.reserve_reason(
                    "mem", rusage_held.from_queue(job))
            if why is None and rusage_held.others(mem):
                n, why = rusage_held.room(h, rusage_held.others(mem), n,
                                          job.mem_per_task, job.user,
                                          rusage_held.from_queue(job))
            if why is None and job.gpu is not None:
                n, why = gpus.room(h, job.gpu, n, job.user)
            if why is None:
                if mem and job.mem_per_task and h.mem_total is not None:
                    n = min(n, int((h.mem_total - h.mem_reserved) // mem))
                free[name] = n
                host_max[name] = h.max_slots
                continue
        blocked[name] = why
    if full > 8 and full * 4 > len(cands.names):
        cands.prune(hosts, waits)
    return free, blocked, host_max


def accept_wait(q, hosts, now):
    """JOB_ACCEPT_INTERVAL of queue *q*: a function telling whether a
    host (by name) was given a job too recently to take one of q's, or
    None when the queue has no interval (the common case pays nothing).
    A job placed within the pass counts: the host takes one per pass."""
    wait = q.accept_interval
    if not wait or now is None:
        return None

    def waits(name):
        at = hosts[name].accepted_at
        return at is not None and now < at + wait
    return waits


def limit_room(n, job, q, h, mem, limits):
    """Free slots on a host cut by the per-host allocation limits."""
    room, why = limits.host_room(job.user, q.name, job.project, h.name, mem,
                                 job.app, h.resources.get("ncpus"),
                                 job.limit_groups)
    if why is None and room is not None:
        n = min(n, room)
    return n, why


def host_blocked(h, q, select, local_type, asked=None, runtime=None):
    """Why this host can take none of the job whatever its load; or None.
    *runtime*: the container runtime the job needs, if any."""
    if asked is not None and not asked.allows(h.name):
        return asked.why_not(h.name)
    if runtime is not None and runtime not in h.runtimes:
        return R_CONTAINER.format(runtime=runtime)
    if q.hosts is not None and h.name not in q.hosts:
        return R_HOST_QUEUE
    if h.status in states.HOST_DOWN:
        return R_HOST_UNAVAIL
    if h.status == states.HOST_CLOSED_ADM:
        return R_HOST_CLOSED
    if h.status == exclusive.STATUS:
        return exclusive.R_RUNNING
    if h.status == states.HOST_CLOSED_WIND:
        return R_HOST_WINDOW
    if h.status == states.HOST_CLOSED_BUSY:
        return loadthresh.PEND_REASONS.get(h.busy, R_HOST_LOAD)
    if q.thresholds is not None:
        # The queue's own loadSched: the host stays ok, not for its jobs.
        index = loadthresh.beyond(q.thresholds, h.load)
        if index is not None:
            return loadthresh.PEND_REASONS[index]
    if q.select is not None and not q.select.matches(h.resources, local_type):
        return R_QUEUE_RESREQ
    if select is not None and not select.matches(h.resources, local_type):
        return R_RESREQ
    return None


def room(h, q, user, jl_p=None):
    n = h.max_slots - h.used
    if q.hjob_limit is not None:
        n = min(n, q.hjob_limit - q.host_used.get(h.name, 0))
    if q.pjob_limit is not None:
        n = min(n, pjob_slots(h, q) - q.host_used.get(h.name, 0))
    if h.jl_u is not None:
        n = min(n, h.jl_u - h.user_used.get(user, 0))
    for per_cpu, members in jl_p or ():
        n = min(n, per_cpu_slots(h, per_cpu) -
                jlp_used(h, user, members))
    return n


def pjob_slots(h, q):
    """PJOB_LIMIT: the queue's slots on a host."""
    return per_cpu_slots(h, q.pjob_limit)


def per_cpu_slots(h, per_cpu):
    """A per-CPU limit (PJOB_LIMIT, lsb.users JL/P) as slots on a host,
    rounded up as LSF does (a host that reports no CPUs counts as one)."""
    return math.ceil(per_cpu * (h.resources.get("ncpus") or 1))


def jlp_used(h, user, members):
    """The slots a JL/P counts on a host: the user's own (members None),
    or those of all the members of its user group."""
    if members is None:
        return h.user_used.get(user, 0)
    return sum(h.user_used.get(m, 0) for m in members)


def full_reason(h, q, user, jl_p=None):
    if h.max_slots - h.used <= 0:
        return R_HOST_FULL
    if q.hjob_limit is not None and \
            q.hjob_limit - q.host_used.get(h.name, 0) <= 0:
        return R_HOST_QUEUE_LIMIT
    if q.pjob_limit is not None and \
            pjob_slots(h, q) - q.host_used.get(h.name, 0) <= 0:
        return R_HOST_PJOB_LIMIT
    if h.jl_u is not None and h.jl_u - h.user_used.get(user, 0) <= 0:
        return R_HOST_USER_LIMIT
    for per_cpu, members in jl_p or ():
        if per_cpu_slots(h, per_cpu) - jlp_used(h, user, members) <= 0:
            return R_USER_CPU_LIMIT if members is None \
                else R_UGROUP_CPU_LIMIT
    return R_HOST_USER_LIMIT


def mem_fits(h, mem):
    if h.mem_total is None:
        return False        # nothing known to reserve against
    return h.mem_total - h.mem_reserved >= mem


def rank(free, order, hosts, prefer=None):
    """Candidates best first: by order[] if given, else most free slots
    first (so a job that fits on one host goes there), then by name; a
    -m list with preference levels puts higher levels first (the sort is
    stable: within a level, that order)."""
    if prefer is not None:
        return sorted(rank(free, order, hosts),
                      key=lambda n: -prefer.level(n))
    if order is None:
        return sorted(free, key=lambda n: (-free[n], n))
    return sorted(free, key=lambda n: (order.sort_key(hosts[n].resources),
                                       -free[n], n))


def host_reasons(blocked, free, span_failed, host_limited=False,
                 one_host=False, queue_span=False):
    """Group unusable hosts by reason; hosts with some room count as full
    unless the job failed on its span[] shape or the queue's host limit
    (then that job-wide reason comes first); with span[hosts=1]
    (*one_host*) each of them lacks the processors instead.  With
    *queue_span* the span[] is the queue's, and so is the wording."""
    groups = {}
    for name, why in blocked.items():
        groups.setdefault(why, []).append(name)
    out = [] if span_failed and one_host else \
        [[R_QUE_SPAN if queue_span else R_SPAN, None]] if span_failed else \
        [[R_HOST_LIMIT, None]] if host_limited else []
    if not out:
        room = (R_QUE_NO_SPAN if queue_span else R_NO_SPAN) \
            if span_failed else R_HOST_FULL
        for name in free:       # usable but not enough in total
            groups.setdefault(room, []).append(name)
    return out + [[why, sorted(names)] for why, names in sorted(groups.items())]
