"""rusage[] reservation of resources other than memory: swp, tmp and the
site's numeric host resources (a host's ``resources: [licA=4]``).

A host offers ``maxswp`` of swp, ``maxtmp`` of tmp and the configured
value of a site resource; what running jobs reserve there is kept in
HostView.held and taken off, and select[] sees what is left under the
resource's own name (LSF shows reserved amounts as used).  As for
mem, a job reserves its amount once per host, or per slot with
RESOURCE_RESERVE_PER_TASK=Y.  A host that does not offer a resource at
all cannot take the job.

A shared resource (lsf.cluster ResourceMap ``40@[all]``, ``2@[hA hB]``:
licence tokens) is one Shared counter that the views of all its hosts
hold (HostView.shared); a job reserves its amount there once, whichever
and however many of those hosts it runs on, and every host of the
instance sees what is left.

Pure.  core keeps each || alternative's memory as a float (its placement
code reads that number); the other amounts ride on it as a Need.
"""

from xce.lang.resreq.common import LOAD_INDICES, MEMORY_RESOURCES

# Where a host's capacity of a built-in resource comes from.
_CAPACITY = {"swp": "maxswp", "tmp": "maxtmp"}
# Not a quantity held on a host: slots are counted by core itself.
_NOT_HELD = frozenset({"mem", "slots"})

# LSF words the reason for a built-in index (mem, swp, tmp, r15s, ...) as
# "Job requirements ...", for a site resource as "Job's requirements ...".
R_RESERVE_BUILTIN = "Job requirements for reserving resource ({}) not " \
    "satisfied"
R_RESERVE = "Job's requirements for reserving resource ({}) not satisfied"
# An amount the queue's RES_REQ adds (PEND_HOST_QUE_RUSAGE), any resource.
R_QUEUE_RESERVE = "Queue requirements for reserving resource ({}) not " \
    "satisfied"
_BUILTIN = frozenset(LOAD_INDICES) | MEMORY_RESOURCES


def reserve_reason(name, queue=frozenset()):
    """The pending reason of a host short of resource *name*; *queue*:
    the resources whose amounts come from the queue's RES_REQ."""
    if name in queue:
        return R_QUEUE_RESERVE.format(name)
    return (R_RESERVE_BUILTIN if name in _BUILTIN else R_RESERVE).format(
        name)


def from_queue(job):
    """What of *job*'s requirement its queue's RES_REQ gave (resreq
    ResReq.from_queue)."""
    rr = job.resreq
    return rr.from_queue if rr is not None else frozenset()


class Need(float):
    """One rusage[] alternative: its mem as the float value, every other
    amount in `others` ({resource: amount})."""

    def __new__(cls, mem, others=None):
        self = super().__new__(cls, mem)
        self.others = others or {}
        return self


def need(amounts):
    """{resource: amount} of an alternative -> Need."""
    return Need(amounts.get("mem", 0),
                {k: v for k, v in amounts.items() if k not in _NOT_HELD})


def others(mem):
    """The non-memory amounts riding on *mem* (empty for a plain number)."""
    return getattr(mem, "others", None) or {}


def times(mem, n):
    """*mem* and the amounts riding on it, *n* times over (a job's
    per-task reservation on a host of n slots)."""
    return Need(float(mem) * n, {k: v * n for k, v in others(mem).items()})


def any_held(mem):
    """Whether *mem* reserves memory or anything else."""
    return bool(mem) or bool(others(mem))


class Shared:
    """One instance of a shared resource: its total, what running and
    just placed jobs hold of it, the host views that see it, and what
    standalone claims (xce claim add --counter) keep of it for a user:
    claimed is {user: amount not yet taken by that user's jobs}."""

    __slots__ = ("name", "total", "held", "views", "location", "claimed")

    def __init__(self, name, total, location=""):
        self.name, self.total, self.held = name, total, 0.0
        self.views, self.location = [], location
        self.claimed = {}

    def attach(self, h):
        """Let host view *h* see this instance."""
        h.shared[self.name] = self
        h.resources[self.name] = self.total - self.held
        self.views.append(h)

    def take(self, amount, user=None):
        """A job of *user* holds *amount*: from its user's claim first."""
        self.held += amount
        left = self.claimed.get(user)
        if left:
            self.claimed[user] = max(0.0, left - amount)
        for h in self.views:
            h.resources[self.name] = self.total - self.held

    def kept_from(self, user):
        """What claims keep for users other than *user*."""
        return sum(v for u, v in self.claimed.items() if u != user)


def clone_shared(hosts):
    """Give copied host views (*hosts*: name -> view) copies of their
    shared counters, so a pass on copies leaves the originals alone."""
    copies = {}
    for h in hosts.values():
        for name, counter in list(h.shared.items()):
            twin = copies.get(id(counter))
            if twin is None:
                twin = copies[id(counter)] = Shared(name, counter.total,
                                                    counter.location)
                twin.held = counter.held
                twin.claimed = dict(counter.claimed)
            h.shared[name] = twin
            twin.views.append(h)


def capacity(h, name):
    """What host *h* offers of *name* in all, or None."""
    if name in h.shared:
        return h.shared[name].total
    if name in h.held:
        return h.held[name][0]
    value = h.resources.get(_CAPACITY.get(name, name))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def held(h, name):
    if name in h.shared:
        return h.shared[name].held
    found = h.held.get(name)
    return found[1] if found else 0.0


def left(h, name, user=None):
    """What a job of *user* may still reserve of *name* on *h*, or None
    when the host does not offer it."""
    total = capacity(h, name)
    if total is None:
        return None
    found = total - held(h, name)
    if name in h.shared:
        found -= h.shared[name].kept_from(user)
    return found


def room(h, amounts, n, per_task, user=None, queue=frozenset()):
    """Slots (at most *n*) whose reservations fit on *h* for a job of
    *user*, and None; or 0 and the reason the host cannot take the job
    (*queue*: see reserve_reason).  What claims keep of a shared
    resource for other users is not free."""
    for name, amount in sorted(amounts.items()):
        free = left(h, name, user)
        if free is not None and per_task and amount > 0:
            n = min(n, int(free // amount))
        if free is None or free < amount or n <= 0:
            return 0, reserve_reason(name, queue)
    return n, None


def charge(h, amounts, slots, per_task):
    """Hold *amounts* on *h* for a job with *slots* slots there.  The
    host's total is kept beside what is held (HostView.held: name ->
    (total, held)), since select[] then sees only what is left."""
    for name, amount in amounts.items():
        if name in h.shared:
            continue        # once per job: charge_shared
        total = capacity(h, name)
        if total is None:
            continue        # nothing to hold it against (an old snapshot)
        now = held(h, name) + (amount * slots if per_task else amount)
        h.held[name] = (total, now)
        h.resources[name] = total - now


def charge_shared(views, amounts, slots, per_task, user=None):
    """Hold *amounts* of the shared resources once for a job of *user*
    running on the host *views* with *slots* slots in all (times the
    slots with RESOURCE_RESERVE_PER_TASK=Y): each distinct instance once."""
    seen = set()
    for h in views:
        for name, amount in amounts.items():
            counter = h.shared.get(name)
            if counter is None or id(counter) in seen:
                continue
            seen.add(id(counter))
            counter.take(amount * slots if per_task else amount, user)
