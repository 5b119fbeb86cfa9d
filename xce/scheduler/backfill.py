"""Slot reservation and backfill: lsb.queues SLOT_RESERVE and BACKFILL.

A parallel job (-n min above 1) of a queue with
``SLOT_RESERVE = MAX_RESERVE_TIME[n]`` that cannot start holds the free
slots of the hosts it could use, up to its -n min, so that later jobs do
not take them one by one and starve it.  Reservations are made again at
every pass, in the job's turn, so they grow as slots free up (the job
comes before the later jobs in its queue's order).  A reservation lasts
``n x MBD_SLEEP_TIME`` seconds from the first slot held (the caller turns
n into seconds); then the job skips one pass, so other jobs get a chance
at the slots, and may start reserving again.

A job of a ``BACKFILL = Y`` queue with a run limit may use reserved slots
when it ends (now + run limit) no later than the reserving job's
predicted start: the time the running jobs on its hosts (start time +
run limit) will have freed enough slots.  A job's run-time estimate
(bsub -We, queue ESTIMATED_RUNTIME) stands for its run limit here, and
wins when it is shorter (jobtimes.expected).  A job with neither never
backfills, and nothing backfills a reservation that waits for a running
job without either.  Both are normalised times (jobtimes.duration): a job
ends sooner on a faster host, so it may backfill a fast host's reserved
slots and not a slow one's.  A placed job ends by its first host's time,
as its agent enforces the run limit by that host's CPU factor.

Pure: the Book lives for one pass; what it needs from outside (now, when
each reservation began, when running jobs end) comes in a Context.
"""

from dataclasses import dataclass, field

from xce.scheduler.jobtimes import duration

NEVER = float("inf")


@dataclass
class Context:
    """The inputs of reservation and backfill for one pass."""
    now: float
    since: dict = field(default_factory=dict)   # key -> reservation start
    # host -> [(end time or None for no run limit, slots)] of running jobs
    ends: dict = field(default_factory=dict)


@dataclass
class Held:
    """One job's reservation in this pass."""
    since: float
    hosts: dict = field(default_factory=dict)   # host -> slots held
    start: float = NEVER                        # predicted start


class Book:
    """Reservations of one pass, in the order the jobs made them."""

    def __init__(self, ctx):
        self.now = ctx.now
        self.since = ctx.since
        self.ends = dict(ctx.ends)
        self.held = {}          # key -> Held
        self.on_host = {}       # host -> [Held holding slots there]
        self.expired = []       # keys whose reservation ran out this pass
        # (job class, slots lent) that did not fit: hosts only fill up
        # within a pass, so a job just like it will not fit either.
        self.no_fit = set()
        self._lent = {}         # job's times -> lendable(); reset on change

    # -- jobs that start -------------------------------------------------
    def started(self, job, slots, hosts):
        """A job placed in this pass frees its slots at its run limit."""
        end = self._end(job, slots, hosts)
        for name, n in _count(slots).items():
            self.ends[name] = self.ends.get(name, []) + [(end, n)]

    # -- reserving -------------------------------------------------------
    def may_reserve(self, job, q, full=False):
        """A parallel job of a SLOT_RESERVE queue whose time is not up
        (and, when no slot is free anywhere, whose reservation has begun:
        another would hold nothing)."""
        if q.reserve_time is None or job.nslots < 2:
            return False
        since = self.since.get(job.key)
        if since is None:
            return not full
        if self.now - since >= q.reserve_time:
            self.expired.append(job.key)
            return False
        return True

    def reserve(self, job, hosts, free, usable):
        """Hold up to -n min of the free slots (host -> slots the job may
        take, roomiest first); `usable`: every host the job could run on,
        for its predicted start.  A reservation that has begun stands even
        while it holds nothing."""
        need, have, taken = job.nslots, 0, {}
        for name in sorted(free, key=lambda n: (-free[n], n)):
            n = min(free[name], need - have)
            if n <= 0:
                break
            taken[name] = n
            have += n
        since = self.since.get(job.key)
        if since is None and not taken:
            return None
        self._lent.clear()
        held = self.held[job.key] = Held(
            self.now if since is None else since, taken)
        for name, n in taken.items():
            h = hosts[name]
            h.used += n
            h.resources["slots"] = h.max_slots - h.used
            self.on_host.setdefault(name, []).append(held)
        held.start = self._predict(need, have, usable)
        return held

    def _predict(self, need, have, usable):
        """When the running jobs on the usable hosts will have freed
        enough slots, by their start time + run limit; NEVER if that
        waits for a job without a run limit (or for more slots than
        there are)."""
        if have >= need:
            return self.now     # enough slots, in a shape that does not fit
        ends = sorted((NEVER if end is None else max(end, self.now), n)
                      for name in usable for end, n in self.ends.get(name, ()))
        for end, n in ends:
            have += n
            if have >= need:
                return end
        return NEVER

    # -- backfilling -----------------------------------------------------
    def may_backfill(self, job, q):
        return bool(q.backfill and duration(job, 1.0) and self.on_host)

    def borrow(self, job, hosts, fit):
        """Try the job with the slots it may borrow put back on their
        hosts; `fit()` places it (slots, mem) or says None.  On success
        the borrowed slots leave their reservations; free slots never
        grow within a pass, whatever happens."""
        lent = self.lendable(job, hosts)
        if not lent:
            return None
        cls = (job.queue, job.user, job.nslots, job.max_slots,
               id(job.resreq), job.mem_per_task, job.local_type, job.project,
               job.container, tuple(sorted(lent.items())))
        if cls in self.no_fit:
            return None
        _shift(hosts, lent, -1)
        try:
            found = fit()
        finally:
            _shift(hosts, lent, 1)
        if found is None:
            self.no_fit.add(cls)
        else:
            self.consume(job, found[0], hosts)
        return found

    def lendable(self, job, hosts):
        """host -> reserved slots this job may use: those of reservations
        that start no sooner than the job would end on that host (its
        normalised time over the host's CPU factor).  A reservation whose
        start is unknown (it waits for a job without a run limit, which
        may end at any time) lends nothing."""
        times = (job.runlimit, job.estimate, job.abs_runlimit)
        found = self._lent.get(times)
        if found is None:
            found = {}
            for name, held in self.on_host.items():
                end = self.now + duration(job, hosts[name].cpu_factor)
                n = sum(r.hosts.get(name, 0) for r in held if _lends(r, end))
                if n > 0:
                    found[name] = n
            self._lent[times] = found
        return found

    def consume(self, job, slots, hosts):
        """A backfill job took `slots`: what it took beyond a host's free
        slots comes out of the reservations it was lent."""
        end = self._end(job, slots, hosts)
        self._lent.clear()
        for name, n in _count(slots).items():
            h = hosts[name]
            borrowed = n - (h.max_slots - h.used)
            for held in self.on_host.get(name, ()):
                if borrowed <= 0:
                    break
                if end is None or not _lends(held, end):
                    continue
                k = min(borrowed, held.hosts.get(name, 0))
                held.hosts[name] -= k
                h.used -= k
                borrowed -= k
            h.resources["slots"] = h.max_slots - h.used

    def _end(self, job, slots, hosts):
        """When a job placed on `slots` ends (None: never known): by its
        first host's CPU factor, which its run limit is enforced by."""
        seconds = duration(job, hosts[slots[0]].cpu_factor) if slots \
            else None
        return self.now + seconds if seconds else None

    # -- the outcome -----------------------------------------------------
    def outcome(self):
        """key -> (since, {host: slots held}, predicted start or None)."""
        return {key: (held.since,
                      {n: k for n, k in held.hosts.items() if k > 0},
                      None if held.start == NEVER else held.start)
                for key, held in self.held.items()}


def _lends(held, end):
    return end <= held.start < NEVER


def _shift(hosts, slots, sign):
    for name, n in slots.items():
        h = hosts[name]
        h.used += sign * n
        h.resources["slots"] = h.max_slots - h.used


def _count(slots):
    per_host = {}
    for name in slots:
        per_host[name] = per_host.get(name, 0) + 1
    return per_host
