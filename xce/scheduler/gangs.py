"""Gang groups: job groups whose pending members start together or not
at all (xce-gang(1)).

A gang is placed at the turn of its first member in the pass's order:
its ready members (no job-wide reason to wait), `size` at a time, are
placed one after the other on the pass's state, each with its own
requirements, as any job would be.  If one of them cannot be placed,
everything the batch took within the pass is given back (the state is
restored from a checkpoint taken before it) and every member pends with
the gang's shortfall.  Nothing is held beyond the pass: a gang reserves
no slots, borrows none (backfill) and preempts nothing.

Membership is the exact group (bsub -g), not its subgroups.  Members of
a gang may be in different queues; they are all looked at in the turn of
the first one.
"""

from xce.scheduler import rusage_held
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
    saved = _Checkpoint(state, queues, out)
    short = {}
    for m in batch:
        place_one(m, queues[m.queue], state, out)
        if m.key in out.reasons:
            short[m.key] = out.reasons.pop(m.key)
    if not short:
        if state.rsv is not None:
            for key, slots in out.dispatch[saved.dispatched:]:
                state.rsv.started(_by_key(batch, key), slots, state.hosts)
        return
    saved.restore(state, queues, out)
    head = [R_GANG_SHORT.format(path=path, placed=size - len(short),
                                size=size), None]
    for m in batch:
        out.reasons[m.key] = [head] + short.get(m.key, [])


def _by_key(batch, key):
    return next(m for m in batch if m.key == key)


class _Checkpoint:
    """What placing jobs changes in a pass, as it was; restore() puts it
    back.  Hosts are copied whole (a gang may land anywhere); the caches
    that only shrink within a pass (candidate lists, heaps) are dropped
    and rebuilt on demand."""

    def __init__(self, state, queues, out):
        from xce.scheduler.core import _copy_host   # core imports this
        self.hosts = {n: _copy_host(h) for n, h in state.hosts.items()}
        rusage_held.clone_shared(self.hosts)
        self.queues = {n: (q.used, dict(q.user_used), dict(q.host_used))
                       for n, q in queues.items()}
        self.limits = state.limits.copy() if state.limits else None
        self.groups = dict(state.groups) if state.groups else state.groups
        self.arrays = dict(state.arrays)
        self.gpus = dict(state.gpus)
        self.alts = dict(state.alts)
        self.failed = dict(state.failed)
        self.full = state.full
        self.dispatched = len(out.dispatch)

    def restore(self, state, queues, out):
        state.hosts = self.hosts
        for name, (used, user_used, host_used) in self.queues.items():
            q = queues[name]
            q.used, q.user_used, q.host_used = used, user_used, host_used
        state.limits, state.groups = self.limits, self.groups
        state.arrays, state.gpus, state.alts = \
            self.arrays, self.gpus, self.alts
        state.failed, state.full = self.failed, self.full
        state.static, state.gpu_heaps = {}, {}
        del out.dispatch[self.dispatched:]
