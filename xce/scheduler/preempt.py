"""Queue-based preemption: lsb.queues PREEMPTION = PREEMPTIVE[...] and/or
PREEMPTABLE[...].

A pending job of a preemptive queue that finds no free slots may take the
slots of running jobs of queues it may preempt: those jobs are suspended
(SSUSP) and resumed when their hosts are no longer over-committed.

Who may preempt whom is LSF's rule, in xce.lang.preempt with the syntax.
Among victims, queues with a higher preference level go first, then
lower-priority queues, then the most recently started job.

Slots (xce's simple form of LSF's default): a suspended job still counts
on its hosts, so a host running a preemptive job over a suspended one is
over-committed.  Jobs of a queue that may preempt the suspended job's queue
see its slots as free; nobody else does.  A preempted job is resumed, in
its queue's turn of a pass, when none of its hosts is over-committed, so
lower-priority pending jobs never take the slots it waits for.  Memory
reserved by rusage[] and per-user counts stay with the suspended job.

Pure: the caller builds a Preemption from the running jobs each pass and
hands it to core.schedule, which calls `resume` before each queue and
`place` for each job it could not place.
"""

from dataclasses import dataclass, field

from xce.lang.preempt import Policy
from xce.scheduler import core, hostfit


@dataclass
class RunningJob:
    key: tuple
    queue: str
    hosts: dict                 # host -> slots
    start: float = 0.0
    preempted: bool = False     # SSUSP by preemption (else running)


@dataclass
class Preemption:
    """One pass's preemption input: the policy and the running or
    preempted jobs of preemptable queues.  Changed as the pass decides."""
    policy: Policy
    running: list = field(default_factory=list)
    failed: set = field(default_factory=set)

    def resume(self, q, state, out):
        """Resume the preempted jobs of queue *q* whose hosts are not
        over-committed (their own slots are already counted)."""
        for job in self._preempted_of(q.name):
            if job.preempted and all(
                    _over(state.hosts.get(h)) <= 0 for h in job.hosts):
                job.preempted = False
                out.resume.append(job.key)

    def _preempted_of(self, queue):
        by_queue = getattr(self, "_by_queue", None)
        if by_queue is None:
            by_queue = self._by_queue = {}
            for r in sorted(self.running, key=lambda j: (j.start, j.key)):
                if r.preempted:
                    by_queue.setdefault(r.queue, []).append(r)
        return by_queue.get(queue, ())

    def place(self, job, q, state, out):
        """Try *job* again with the slots of the jobs its queue may
        preempt counted free; on success suspend just enough of them."""
        cls = (q.name, job.user, job.nslots, job.max_slots, id(job.resreq),
               job.gpu, job.container)
        mine = self._mine(q.name)
        if mine is None or cls in self.failed:
            return
        release, by_host = mine
        if sum(max(0, h.max_slots - h.used + release.get(name, 0))
               for name, h in state.hosts.items()) < job.nslots:
            slots = None        # not enough even with every victim
        else:
            slots, mem = _try(job, q, state, release)
        if slots is None:
            self.failed.add(cls)
            return
        want = {}
        for name in slots:
            want[name] = want.get(name, 0) + 1
        for name in sorted(want):
            for victim in _victims(by_host[name], name, want[name],
                                   state.hosts[name]):
                victim.preempted = True
                out.preempt.append((victim.key, job.key))
        core._take(job, q, state, slots, mem)
        out.reasons.pop(job.key, None)
        out.dispatch.append((job.key, slots))

    def _mine(self, queue):
        """For a preemptive queue, worked out once a pass: the slots on
        each host of the jobs it may preempt (suspended ones included:
        suspending moves slots, it frees none), and each host's such jobs
        in the order they are preempted.  None for other queues."""
        cache = self.__dict__.setdefault("_mine_cache", {})
        if queue not in cache:
            prefs = self.policy.victims.get(queue)
            found = None
            if prefs:
                mine = sorted((r for r in self.running if r.queue in prefs),
                              key=lambda r: (-prefs[r.queue][0],
                                             prefs[r.queue][1], -r.start,
                                             r.key))
                by_host = {}
                for r in mine:
                    for name in r.hosts:
                        by_host.setdefault(name, []).append(r)
                found = (_slots_by_host(mine), by_host)
            cache[queue] = found
        return cache[queue]


def _victims(jobs, name, want, h):
    """Running jobs of *jobs* (on host *name*, in preemption order) to
    suspend so that *want* slots fit: what is missing after the free slots
    and those of jobs already suspended."""
    missing = want - (h.max_slots - h.used) - sum(
        r.hosts[name] for r in jobs if r.preempted)
    chosen = []
    for r in jobs:
        if missing <= 0:
            break
        if not r.preempted:
            chosen.append(r)
            missing -= r.hosts[name]
    return chosen


def _over(h):
    return 0 if h is None else h.used - h.max_slots


def _slots_by_host(jobs):
    out = {}
    for r in jobs:
        for name, n in r.hosts.items():
            out[name] = out.get(name, 0) + n
    return out


def _try(job, q, state, release):
    """Place *job* as if *release* slots were free on their hosts: the
    same placement as core's, over every host (core prunes full ones)."""
    hosts = state.hosts
    changed = [n for n in release if n in hosts and release[n]]
    if not changed:
        return None, 0
    for name in changed:
        _shift(hosts[name], -release[name])
    try:
        rr = job.resreq
        select = rr.select if rr is not None else None
        dynamic = hostfit.is_dynamic(select, state.changing)
        names = [n for n in sorted(hosts) if hostfit.host_blocked(
            hosts[n], q, None if dynamic else select,
            job.local_type, job.asked) is None]
        # Suspend no more than the job needs: -n min,max gets min slots.
        hi = job.nslots
        for mem in hostfit.mem_alternatives(job):
            cands = hostfit.Candidates(list(names), {}, dynamic)
            free, _, host_max = hostfit.free_slots(job, q, hosts, mem, cands,
                                                 select, state.limits,
                                                 state.now)
            result = core._place(job, hi, free, host_max, hosts,
                                 q.host_limit, q.prefer)
            if result.slots is not None:
                return result.slots, mem
        return None, 0
    finally:
        for name in changed:
            _shift(hosts[name], release[name])


def _shift(h, n):
    h.used += n
    h.resources["slots"] = h.max_slots - h.used
