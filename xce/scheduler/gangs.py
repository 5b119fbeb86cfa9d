"""Gang groups: job groups whose pending members start together or not
at all (xce gang, see xce(1)).

A gang is placed at the turn of its first member in the pass's order:
its ready members (no job-wide reason to wait), `size` at a time, are
placed one after the other on the pass's state, each with its own
requirements, as any job would be.  If one of them cannot be placed,
everything the batch took within the pass is given back (a Journal
records what each placement changes, before it changes it) and every
member pends with the gang's shortfall.  Nothing is held beyond the pass: a gang reserves
no slots, borrows none (backfill) and preempts nothing.

Membership is the exact group (bsub -g), not its subgroups.  Members of
a gang may be in different queues; they are all looked at in the turn of
the first one.
"""

from xce.scheduler import gpus
from xce.scheduler.views import R_GANG_SHORT, R_GANG_WAITING


class Gangs:
    """The gangs of one pass: which pending job belongs to which, and
    which gangs have had their turn."""

    def __init__(self, sizes, order, queue_names):
        self.sizes = sizes          # group path -> size
        self.members = {}           # path -> [PendingJob], in pass order
        self.of = {}                # job key -> path
        self.done = set()           # paths whose turn has come
        for name in queue_names:
            for job in order.jobs(name):
                path = job.job_group
                if path in sizes:
                    self.members.setdefault(path, []).append(job)
                    self.of[job.key] = path


def turn(job, state, out, queues, job_reason, place_one):
    """The turn of *job*'s gang, if it has not come yet in this pass.

    queues: name -> the pass's QueueView of each queue; job_reason(job, q,
    state) and place_one(job, q, state, out) are core's."""
    gangs = state.gangs
    path = gangs.of[job.key]
    if path in gangs.done:
        return
    gangs.done.add(path)
    size = gangs.sizes[path]
    ready, held_up = [], []
    for m in gangs.members[path]:
        why = job_reason(m, queues[m.queue], state)
        if why is None:
            ready.append(m)
        else:
            held_up.append((m, why))
    whole = len(ready) - len(ready) % size
    for start in range(0, whole, size):
        _batch(ready[start:start + size], path, size, state, out, queues,
               place_one)
    rest = ready[whole:]
    waiting = [R_GANG_WAITING.format(path=path, ready=len(rest), size=size),
               None]
    for m in rest:
        out.reasons[m.key] = [waiting]
    for m, why in held_up:
        # Its own reason first: it is what holds the gang up.
        out.reasons[m.key] = why + [waiting] if rest or not whole else why


def _batch(batch, path, size, state, out, queues, place_one):
    """Place *batch* (size members) whole, or none of it."""
    journal = state.journal = Journal(state, out)
    short = {}
    try:
        for m in batch:
            place_one(m, queues[m.queue], state, out)
            if m.key in out.reasons:
                short[m.key] = out.reasons.pop(m.key)
    finally:
        state.journal = None
    if not short:
        if state.rsv is not None:
            for key, slots in out.dispatch[journal.dispatched:]:
                state.rsv.started(_by_key(batch, key), slots, state.hosts)
        return
    journal.undo(state, out)
    head = [R_GANG_SHORT.format(path=path, placed=size - len(short),
                                size=size), None]
    for m in batch:
        out.reasons[m.key] = [head] + short.get(m.key, [])


def _by_key(batch, key):
    return next(m for m in batch if m.key == key)


# What placing a job changes on a host view (core._take, exclusive,
# gpus, rusage_held); the dicts are copied when saved.
_HOST_FIELDS = ("status", "used", "user_used", "resources", "mem_reserved",
                "held", "gpu_short")


class Journal:
    """What a batch's placements changed, as it was before, so undo()
    can give it back: core._take calls note() before it changes anything.
    Only what the batch touched is saved (a gang of four on 1,000 hosts
    saves four hosts); the caches that only shrink within a pass
    (candidate lists, heaps) are mended or dropped."""

    def __init__(self, state, out):
        self.hosts = {}         # name -> saved fields
        self.shared = {}        # id -> (rusage_held.Shared, held, claimed)
        self.queues = {}        # name -> (view, used, user_used, host_used)
        self.arrays = {}        # array jobid -> elements before (or None)
        self.keys = []          # jobs placed
        self.limits = state.limits.copy() if state.limits else None
        self.groups = dict(state.groups) if state.groups else None
        self.failed = dict(state.failed)
        self.full = state.full
        self.static = set(state.static)
        self.changing = state.changing     # see core._Pass.reserving
        self.dispatched = len(out.dispatch)

    def note(self, job, q, names, state):
        """Before core._take places *job* of queue *q* on *names*."""
        self.keys.append(job.key)
        for name in names:
            if name not in self.hosts:
                h = state.hosts[name]
                self.hosts[name] = _save(h)
                for c in h.shared.values():
                    self.shared.setdefault(id(c), (c, c.held,
                                                   dict(c.claimed)))
        if q.name not in self.queues:
            self.queues[q.name] = (q, q.used, dict(q.user_used),
                                   dict(q.host_used))
        if job.array_limit is not None and job.key[0] not in self.arrays:
            self.arrays[job.key[0]] = state.arrays.get(job.key[0])

    def undo(self, state, out):
        for name, saved in self.hosts.items():
            h = state.hosts[name]
            for field, value in saved.items():
                setattr(h, field, value)
        for c, held, claimed in self.shared.values():
            c.held, c.claimed = held, claimed
            for h in c.views:
                h.resources[c.name] = c.total - held
        for q, used, user_used, host_used in self.queues.values():
            q.used, q.user_used, q.host_used = used, user_used, host_used
        for jobid, n in self.arrays.items():
            if n is None:
                state.arrays.pop(jobid, None)
            else:
                state.arrays[jobid] = n
        for key in self.keys:
            state.gpus.pop(key, None)
            state.alts.pop(key, None)
        if state.limits is not None:
            state.limits = self.limits
        if state.groups is not None:
            state.groups = self.groups
        state.failed, state.full = self.failed, self.full
        state.changing = self.changing
        self._mend(state)
        del out.dispatch[self.dispatched:]

    def _mend(self, state):
        """Candidate lists: hosts moved to full go back; lists made during
        the batch (an exclusive member blocked hosts) are dropped."""
        back = set(self.hosts)
        for key in list(state.static):
            cands = state.static[key]
            if key not in self.static:
                del state.static[key]
                continue
            cands.heap = None
            again = [n for n in cands.full if n in back]
            if again:
                cands.full = [n for n in cands.full if n not in back]
                cands.names = sorted(cands.names + again)
        state.gpu_heaps = {}


def _save(h):
    saved = {}
    for field in _HOST_FIELDS:
        value = getattr(h, field)
        saved[field] = dict(value) if isinstance(value, dict) else value
    saved["gpus"] = gpus.copy(h.gpus)
    return saved
