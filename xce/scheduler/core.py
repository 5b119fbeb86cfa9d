"""The scheduler: a pure function from a snapshot to decisions.

Queues by priority, FCFS within a queue (after the user's -sp priority),
job slots per host (MXJ), queue and per-user slot limits, queue and host
states, resource requirements (select, order, rusage[mem], span), -n
min,max, the %N running limit of job arrays and dependency states worked
out by the caller.  No I/O, no clock, no randomness: same snapshot, same
answer.

This module holds the pass itself (order, job-wide checks, placement,
taking slots); views.py the data it is given and gives back, hostfit.py
the per-host checks, and backfill, preempt, asked, exclusive, rusage_held
and trace the policies that hook into the pass.
"""

from xce.scheduler import (backfill, exclusive, gangs, gpus, hostfile,
                           hostfit, jobtimes, rusage_held, share_order)
from xce.model.jobgroups import chain
from xce.scheduler.asked import R_NOT_ASKED
from xce.scheduler.order import PendingOrder
from xce.scheduler.placement import place
# The views and reason texts are part of this module's interface (callers
# import them from here).
from xce.scheduler.views import (
    DYNAMIC_RESOURCES, Decisions, HostView, PendingJob, QueueView,
    R_NEW, R_QUEUE_INACTIVE, R_QUEUE_LIMIT, R_USER_QUEUE_LIMIT, R_HELD,
    R_QUEUE_PJOB_LIMIT, R_USER_QUEUE_PJOB_LIMIT,
    R_DEPEND, R_DEPEND_NEVER, R_ARRAY_LIMIT, R_JGROUP_LIMIT, R_SPAN,
    R_NO_SPAN, R_QUE_SPAN, R_QUE_NO_SPAN,
    R_HOST_FULL, R_HOST_CLOSED, R_HOST_UNAVAIL, R_HOST_QUEUE, R_HOST_QUEUE_LIMIT,
    R_HOST_PJOB_LIMIT, R_HOST_USER_LIMIT, R_RESREQ, R_QUEUE_RESREQ,
    R_RESERVE_MEM, R_HOST_LIMIT, R_BEGIN_TIME, R_QUEUE_WINDOW,
    R_WINDOW_WILL_CLOSE, R_NO_SHARE_ACCOUNT)

__all__ = ["schedule", "R_NOT_ASKED", "DYNAMIC_RESOURCES", "Decisions",
           "HostView", "PendingJob", "QueueView", "R_NEW",
           "R_QUEUE_INACTIVE", "R_QUEUE_LIMIT", "R_USER_QUEUE_LIMIT",
           "R_QUEUE_PJOB_LIMIT", "R_USER_QUEUE_PJOB_LIMIT",
           "R_HELD", "R_DEPEND", "R_DEPEND_NEVER", "R_ARRAY_LIMIT", "R_SPAN",
           "R_NO_SPAN", "R_QUE_SPAN", "R_QUE_NO_SPAN",
           "R_HOST_FULL", "R_HOST_CLOSED", "R_HOST_UNAVAIL", "R_HOST_QUEUE",
           "R_HOST_QUEUE_LIMIT", "R_HOST_PJOB_LIMIT", "R_HOST_USER_LIMIT",
           "R_RESREQ", "R_QUEUE_RESREQ", "R_RESERVE_MEM", "R_HOST_LIMIT",
           "R_BEGIN_TIME", "R_QUEUE_WINDOW", "R_WINDOW_WILL_CLOSE",
           "R_NO_SHARE_ACCOUNT"]


class _Pass:
    """The mutable state of one scheduling pass (copies of the input)."""

    def __init__(self, hosts, arrays, limits=None, now=None, owned=False):
        self.now = now          # for begin times (bsub -b)
        # owned: the caller built the views for this pass alone, so they
        # are used as they are (a copy of every host at every pass was a
        # large part of a replay's time).
        self.hosts = {h.name: h if owned else _copy_host(h) for h in hosts}
        if not owned:
            rusage_held.clone_shared(self.hosts)
        # Allocation limits (limits.Limits) with the running jobs charged;
        # None when the cluster has none, so the common case pays nothing.
        self.limits = limits.copy() if limits else None
        self.arrays = dict(arrays or {})
        self.failed = {}        # job class -> reasons, for this pass
        self.full = None
        self.static = {}        # (queue, select, local type) -> hosts
        self.job_reasons = {}   # text -> [[text, None]], shared
        self.per_user = any(h.jl_u is not None for h in hosts)
        self.rsv = None         # backfill.Book when a queue reserves
        self.preempt = None     # preempt.Preemption, when configured
        self.alts = {}          # key -> rusage alternative taken, if not 0
        self.groups = None      # job group -> jobs it may still start
        self.gpus = {}          # key -> gpus.record of the started jobs
        self.gpu_heaps = {}     # see gpus.roomiest
        # Resources whose host values change as jobs are placed.
        self.changing = hostfit.changing_names(self.hosts.values())
        self.gangs = None       # gangs.Gangs, when a gang has members
        self.queues = None      # name -> this pass's QueueView
        self.journal = None     # gangs.Journal while a gang is placed

    def candidates(self, q, select, local_type, asked=None, runtime=None):
        """Hosts a job could use whatever their load, and why the others
        cannot.  States, queue membership, a -m list and a select[] over
        static resources do not change within a pass, and a full host
        stays full: the list is worked out once (per distinct -m list too)
        and pruned as hosts fill."""
        dynamic = hostfit.is_dynamic(select, self.changing)
        key = (q.name, id(q.select), None if dynamic else id(select),
               local_type, asked, runtime)
        found = self.static.get(key)
        if found is None:
            names, blocked = [], {}
            for name in sorted(self.hosts):
                why = hostfit.host_blocked(self.hosts[name], q,
                                    None if dynamic else select, local_type,
                                    asked, runtime)
                if why is None:
                    names.append(name)
                else:
                    blocked[name] = why
            found = self.static[key] = hostfit.Candidates(names, blocked,
                                                          dynamic)
        return found

    def reserving(self, names):
        """A job placed in this pass reserves *names*: one no running job
        held before starts changing now, so the host lists kept for
        select[]s that read it are dropped."""
        new = [n for n in names if n not in self.changing]
        if new:
            self.changing = self.changing.union(new)
            self.static.clear()


def schedule(queues, hosts, pending, arrays=None, limits=None, trace=None,
             preempt=None, reserve=None, order=None, reasons=True,
             now=None, groups=None, owned_hosts=False, gang_sizes=None):
    """Place what fits now; give every examined job its pend reasons.

    arrays: {array jobid: elements running now}, for %N limits.
    limits: limits.Limits with the running jobs charged, or None.
    trace: a trace.Tracer naming the few jobs whose decision trace to
    record (xce explain), or None: then a pass does no trace work at all.
    preempt: a preempt.Preemption (PREEMPTION configured), or None.
    reserve: a backfill.Context when some queue has SLOT_RESERVE or
    BACKFILL, else None (and a pass does no reservation work).
    order: an order.PendingOrder of the pending jobs, kept by the caller
    from pass to pass (then `pending` is not read), or None.
    reasons: False to stop as soon as no job can start any more (every
    slot taken, no preemption or reservation at work); the jobs not looked
    at keep the reasons of an earlier pass (Decisions.partial).
    now: the time of the pass, for jobs with a begin time (bsub -b); the
    reservation context's when not given; with neither, such jobs wait.
    groups: {job group: jobs it may still start} for the groups with a
    JOB_LIMIT (xce.model.jobgroups.room), or None.
    owned_hosts: the host views are the caller's to give away (built for
    this pass, not read after it): the pass changes them in place.
    gang_sizes: {job group: size} of the gang groups (gangs.py), or None.
    """
    out = Decisions()
    if now is None and reserve is not None:
        now = reserve.now
    state = _Pass(hosts, arrays, limits, now, owned=owned_hosts)
    state.groups = dict(groups) if groups else None
    state.preempt = preempt
    if reserve is not None:
        state.rsv = backfill.Book(reserve)
    if order is None:
        order = PendingOrder.of(pending)
    stop_early = not reasons and preempt is None and reserve is None
    ranked = sorted(queues, key=lambda q: (-q.priority, q.name))
    # Copied up front: a gang's turn places members of other queues too.
    state.queues = {q.name: _copy_queue(q) for q in ranked}
    if gang_sizes:
        state.gangs = gangs.Gangs(gang_sizes, order, state.queues)
        if not state.gangs.of:
            state.gangs = None
    for rank, q in enumerate(ranked, 1):
        if stop_early and state.full is not None:
            out.partial = True
            break
        q = state.queues[q.name]
        jobs = order.jobs(q.name)
        count = order.count(q.name)
        if preempt is not None:
            preempt.resume(q, state, out)
        if q.fairshare is not None and count:
            # Users take turns by dynamic priority, FCFS within a user.
            jobs = share_order.Order(q.fairshare, q.fair_usage, q.user_used,
                                     jobs, q.fair_slots)
        if trace is None:
            for job in jobs:
                if stop_early and state.full is not None:
                    out.partial = True
                    break
                _one_job(job, q, state, out)
            continue
        for pos, job in enumerate(jobs, 1):
            if stop_early and state.full is not None:
                out.partial = True
                break
            if job.key in trace.keys:
                # Looked at before the job is placed: hosts as it finds them.
                trace.look(job, q, state, out, (rank, len(ranked)),
                           (pos, count))
            _one_job(job, q, state, out)
    if trace is not None:
        trace.finish(out)
    out.rusage_alt = state.alts
    out.gpus = state.gpus
    if state.rsv is not None:
        out.reserved = state.rsv.outcome()
        out.expired = state.rsv.expired
    return out


def _one_job(job, q, state, out):
    if state.gangs is not None and job.key in state.gangs.of:
        gangs.turn(job, state, out, state.queues, _job_reason, _place_one)
        return
    why = _job_reason(job, q, state)
    if why is not None:
        out.reasons[job.key] = why
        return
    _place_one(job, q, state, out)
    if job.layout is not None:
        return      # its hosts are named: nothing to preempt or reserve
    if state.preempt is not None and job.key in out.reasons:
        state.preempt.place(job, q, state, out)
    if state.rsv is not None:
        _reserve_turn(job, q, state, out)


def _place_one(job, q, state, out):
    """Place a job that may start (no job-wide reason), or give it its
    host reasons."""
    if state.full is None and not any(
            h.max_slots > h.used for h in state.hosts.values()):
        # Every slot is taken: the rest wait for slots, and saying
        # so needs no per-job placement work.
        state.full = [[R_HOST_FULL, sorted(state.hosts)]]
    if job.layout is not None:
        hostfile.consider(job, q, state, out, _take)
    elif state.full is not None and q.select is None and (
            job.resreq is None or job.resreq.select is None) and \
            job.asked is None:
        out.reasons[job.key] = state.full
    else:
        _consider(job, q, state, out)


def _reserve_turn(job, q, state, out):
    """After a job's turn: borrow reserved slots (BACKFILL), or reserve
    free ones (SLOT_RESERVE); see backfill.py."""
    book = state.rsv
    if job.key in out.reasons and book.may_backfill(job, q):
        found = book.borrow(job, state.hosts, lambda: _fit(job, q, state))
        if found is not None:
            _take(job, q, state, *found)
            out.dispatch.append((job.key, found[0]))
            del out.reasons[job.key]
    if job.key not in out.reasons:
        book.started(job, out.dispatch[-1][1], state.hosts)
    elif book.may_reserve(job, q, state.full is not None):
        select, cands = _usable(job, q, state)
        free = {} if state.full is not None else hostfit.free_slots(
            job, q, state.hosts, hostfit.mem_alternatives(job)[0], cands, select,
            state.limits, state.now)[0]
        book.reserve(job, state.hosts, free, cands.names)


def _usable(job, q, state):
    """The job's select and every host it could use, full ones too (a
    fresh list: reservation and backfill change hosts' free slots)."""
    select = job.resreq.select if job.resreq is not None else None
    found = state.candidates(q, select, job.local_type, job.asked,
                             job.container)
    every = getattr(found, "every", None)   # names and full: fixed
    if every is None:
        every = found.every = sorted(found.names + found.full)
    return select, hostfit.Candidates(every, found.blocked, found.dynamic)


def _fit(job, q, state):
    """(slots, rusage[mem]) of a placement that fits now, or None."""
    select, cands = _usable(job, q, state)
    hi = _slot_cap(job, q, state.limits)
    for mem in hostfit.mem_alternatives(job):
        free, _, host_max = hostfit.free_slots(job, q, state.hosts, mem, cands,
                                        select, state.limits, state.now)
        result = _place(job, hi, free, host_max, state.hosts, q.host_limit,
                        q.prefer)
        if result.slots is not None:
            return result.slots, mem
    return None


def _copy_host(h):
    return HostView(h.name, h.status, h.max_slots, h.used,
                    dict(h.user_used), h.jl_u, dict(h.resources),
                    h.mem_total, h.mem_reserved, dict(h.held),
                    gpus.copy(h.gpus), load=h.load, busy=h.busy,
                    shared=dict(h.shared), cpu_factor=h.cpu_factor,
                    runtimes=h.runtimes, gpu_claimed=h.gpu_claimed,
                    accepted_at=h.accepted_at)


def _copy_queue(q):
    return QueueView(q.name, q.priority, q.active, q.hosts, q.qjob_limit,
                     q.ujob_limit, q.hjob_limit, q.pjob_limit, q.used,
                     dict(q.user_used), dict(q.host_used), q.select,
                     q.fairshare, q.fair_usage, q.reserve_time, q.backfill,
                     q.host_limit, q.window_closed, q.thresholds,
                     q.window_closes, q.window_factor,
                     q.accept_interval, q.fair_slots, q.prefer)


def _past_run_window(job, q, now):
    """Would the job's run limit, from *now*, take it past the close of
    its queue's run window (on the fastest host)?"""
    if q.window_closes is None or not job.runlimit or now is None:
        return False
    seconds = jobtimes.on_host(job.runlimit, q.window_factor,
                               job.abs_runlimit)
    return now + seconds > q.window_closes


def _job_reason(job, q, state):
    """Job-wide reasons, cheapest first; None if the job may be placed.

    Each text comes as one shared list per pass, so the caller encodes it
    once for all the jobs that wait for the same thing."""
    why = None
    if job.refused is not None:
        why = job.refused
    elif job.held:
        why = R_HELD
    elif job.share_none and q.fairshare is not None:
        why = R_NO_SHARE_ACCOUNT
    elif job.begin_time is not None and jobtimes.waiting(job, state.now):
        why = R_BEGIN_TIME
    elif job.depend is not None:
        why = R_DEPEND_NEVER if job.depend == "never" else R_DEPEND
    elif not q.active:
        why = R_QUEUE_INACTIVE
    elif q.window_closed:
        why = R_QUEUE_WINDOW
    elif _past_run_window(job, q, state.now):
        why = R_WINDOW_WILL_CLOSE
    elif job.array_limit is not None and \
            state.arrays.get(job.key[0], 0) >= job.array_limit:
        why = R_ARRAY_LIMIT
    elif state.groups is not None and job.job_group is not None and \
            any(state.groups.get(g, 1) <= 0 for g in chain(job.job_group)):
        why = R_JGROUP_LIMIT
    elif q.qjob_limit is not None and q.used + job.nslots > q.qjob_limit:
        why = R_QUEUE_LIMIT if q.used >= q.qjob_limit else R_QUEUE_PJOB_LIMIT
    elif (q.ujob_limit is not None and
            q.user_used.get(job.user, 0) + job.nslots > q.ujob_limit):
        why = R_USER_QUEUE_LIMIT if q.user_used.get(job.user, 0) >= \
            q.ujob_limit else R_USER_QUEUE_PJOB_LIMIT
    elif state.limits is not None:
        why = state.limits.job_room(job.user, q.name, job.project,
                                    job.nslots, hostfit.job_mem(job),
                                    job.app, job.limit_groups)[1]
    if why is None:
        return None
    shared = state.job_reasons.get(why)
    if shared is None:
        shared = state.job_reasons[why] = [[why, None]]
    return shared


def _consider(job, q, state, out):
    # Within a pass hosts only fill up, so a job just like one that did not
    # fit will not fit either: reuse its reasons (the whole list).
    cls = (q.name, job.user, job.nslots, job.max_slots, id(job.resreq),
           job.mem_per_task, job.local_type, job.project, job.exclusive,
           job.asked, job.gpu, job.container)
    failed = state.failed.get(cls)
    if failed is not None:
        out.reasons[job.key] = failed
        return
    hi = _slot_cap(job, q, state.limits)
    best = None
    rr = job.resreq
    select = rr.select if rr is not None else None
    cands = state.candidates(q, select, job.local_type, job.asked,
                             job.container)
    if _simple(job, q, state, hi, select):
        if job.gpu is None:
            name, room = cands.roomiest(state.hosts)
        else:
            name, room = gpus.roomiest(state, cands, job.gpu, job.user)
        if room >= hi:      # what _place would choose, without the scan
            _take(job, q, state, [name] * hi, 0)
            out.dispatch.append((job.key, [name] * hi))
            return
    for mem in hostfit.mem_alternatives(job):
        free, blocked, host_max = hostfit.free_slots(job, q, state.hosts, mem,
                                              cands, select, state.limits,
                                              state.now)
        result = _place(job, hi, free, host_max, state.hosts, q.host_limit,
                        q.prefer)
        if result.slots is not None:
            _take(job, q, state, result.slots, mem)
            out.dispatch.append((job.key, result.slots))
            return
        if best is None:
            span = job.resreq.span if job.resreq is not None else None
            best = hostfit.host_reasons(
                cands.all_blocked(blocked, state.hosts, q, job), free,
                result.span_failed, result.host_limited,
                span is not None and span.hosts == 1,
                "span" in rusage_held.from_queue(job))
    state.failed[cls] = best
    out.reasons[job.key] = best


def _simple(job, q, state, hi, select):
    """A job that may take `hi` slots on the roomiest host: no order,
    span, same or memory, no select on changing resources, and free
    slots that do not depend on the user or queue."""
    rr = job.resreq
    if q.hjob_limit is not None or q.pjob_limit is not None or \
            state.per_user or job.jl_p or job.exclusive or \
            q.accept_interval or \
            (job.gpu is not None and job.gpu.per_task) or \
            (job.asked is not None and job.asked.ranked) or \
            q.prefer is not None:
        return False
    if state.limits is not None and \
            state.limits.split(job.user, q.name, job.project, job.app,
                               job.limit_groups)[1]:
        return False        # per-host limits cut the free slots
    return rr is None or (rr.order is None and rr.span is None and
                          rr.same is None and rr.rusage is None and
                          not hostfit.is_dynamic(select, state.changing))


def _place(job, hi, free, host_max, hosts, host_limit=None,
           queue_prefer=None):
    """*queue_prefer*: the queue's HOSTS preference levels, used when
    the job's -m list gives none (as LSF does)."""
    rr = job.resreq
    order = rr.order if rr is not None else None
    span = rr.span if rr is not None else None
    prefer = job.asked if job.asked is not None and job.asked.ranked \
        else queue_prefer
    if order is None and span is None and free and prefer is None:
        # The common case needs no sort: the roomiest host, if it holds
        # the job (ties go to the first name).
        best = max(free, key=free.__getitem__)  # names come sorted
        n = min(hi, sum(free.values()))
        if free[best] >= n >= job.nslots:
            return place(n, n, {best: free[best]}, [best])
    ranked = hostfit.rank(free, order, hosts, prefer)
    if rr is not None and rr.same is not None:
        return _place_same(job, hi, free, ranked, host_max, hosts,
                           host_limit)
    return place(job.nslots, hi, free, ranked, span, host_max, host_limit)


def _place_same(job, hi, free, ranked, host_max, hosts, host_limit=None):
    """same[type:model]: all hosts of the job share those values.  Groups
    are tried in the order of their best host."""
    names = job.resreq.same.names
    groups = {}
    for name in ranked:
        res = hosts[name].resources
        groups.setdefault(tuple(res.get(n) for n in names), []).append(name)
    first = None
    for members in groups.values():
        sub = {n: free[n] for n in members}
        result = place(job.nslots, hi, sub, members, job.resreq.span,
                       host_max, host_limit)
        if result.slots is not None:
            return result
        first = first or result
    return first or place(job.nslots, hi, {}, [], None)


def _slot_cap(job, q, limits=None):
    """-n max, cut by what the queue's slot limits still allow."""
    hi = max(job.max_slots or job.nslots, job.nslots)
    if q.qjob_limit is not None:
        hi = min(hi, q.qjob_limit - q.used)
    if q.ujob_limit is not None:
        hi = min(hi, q.ujob_limit - q.user_used.get(job.user, 0))
    if limits is not None:
        room = limits.job_room(job.user, q.name, job.project, job.nslots,
                               app=job.app, ug=job.limit_groups)[0]
        if room is not None:
            hi = min(hi, room)
    return max(hi, job.nslots)


def _take(job, q, state, slots, mem):
    if mem or rusage_held.others(mem):
        # Alternatives are tried in order: the first with these amounts.
        alt = [(a, rusage_held.others(a)) for a in hostfit.mem_alternatives(job)
               ].index((mem, rusage_held.others(mem)))
        if alt:
            state.alts[job.key] = alt
    per_host = {}
    for name in slots:
        per_host[name] = per_host.get(name, 0) + 1
    if state.journal is not None:
        state.journal.note(job, q, per_host, state)
    for name, n in per_host.items():
        h = state.hosts[name]
        h.accepted_at = state.now   # for JOB_ACCEPT_INTERVAL
        h.used += n
        h.user_used[job.user] = h.user_used.get(job.user, 0) + n
        h.resources["slots"] = h.max_slots - h.used
        q.host_used[name] = q.host_used.get(name, 0) + n
        if rusage_held.others(mem):
            rusage_held.charge(h, rusage_held.others(mem), n,
                               job.mem_per_task)
        if mem:
            h.mem_reserved += mem * n if job.mem_per_task else mem
            if h.mem_total is not None:
                h.resources["mem"] = h.mem_total - h.mem_reserved
    if rusage_held.others(mem):
        state.reserving(rusage_held.others(mem))
        rusage_held.charge_shared([state.hosts[n] for n in per_host],
                                  rusage_held.others(mem), len(slots),
                                  job.mem_per_task, job.user)
    q.used += len(slots)
    q.user_used[job.user] = q.user_used.get(job.user, 0) + len(slots)
    if state.limits is not None:
        state.limits.charge(job.user, q.name, job.project, per_host, {
            n: (rusage_held.times(mem, k) if job.mem_per_task else mem)
            for n, k in per_host.items()} if rusage_held.any_held(mem)
            else None, job.app, job.mem_per_task, job.limit_groups)
    if state.groups is not None and job.job_group is not None:
        for g in chain(job.job_group):
            if g in state.groups:
                state.groups[g] -= 1
    if job.array_limit is not None:
        state.arrays[job.key[0]] = state.arrays.get(job.key[0], 0) + 1
    if job.exclusive:
        exclusive.take_hosts(state.hosts, per_host)
    if job.gpu is not None:
        state.gpus[job.key] = gpus.record(job.gpu, {
            name: gpus.take(state.hosts[name], job.gpu, n, job.user)
            for name, n in per_host.items()})

