"""GPU devices in a scheduling pass: which of a host's devices a job may
take now, how many slots that leaves it, and taking them.

Each HostView with GPUs has `gpus`, a list of Device (one per device,
with what the running jobs already hold of it).  A job's requirement is
a xce.lang.gpureq.GpuReq: num devices per host (or per task with
/task), of a model (gmodel), with gmem free on each, either exclusive
(mode=exclusive_process or j_exclusive=yes: the device serves that job
alone) or shared (several shared jobs on one device, each holding its
gmem).  Pure, like the rest of the scheduler: the caller charges the
running jobs' devices (charge) before the pass, and the pass records
which devices each started job got (take), so the controller can keep
the assignment with the job.

A device a standalone claim holds for a user (xce claim add) has that
user in `claim` (reserve): only that user's jobs may take it, and they
take it before unclaimed ones.  A host with such a device has
`gpu_claimed` set; its per-requirement caches are kept per user there
(the same requirement fits one user and not another).
"""

import functools
import heapq

from xce.lang.gpureq import exclusive
from xce.model.gpus import OK, matches_model

R_GPU_NONE = "Host has no GPUs that match the job's GPU requirement"
R_GPU_FEW = ("Not enough free GPUs on the host: the job needs {need}, "
             "{free} free")


class Device:
    __slots__ = ("id", "model", "mem", "state", "excl", "njobs", "mrsv",
                 "claim")

    def __init__(self, dev):
        self.id = dev["id"]
        self.model = dev["model"]
        self.mem = float(dev["mem"])
        self.state = dev.get("state", OK)
        self.excl = False       # held by a job-exclusive job
        self.njobs = 0          # jobs using it (exclusive or shared)
        self.mrsv = 0.0         # gmem the jobs on it hold, MB
        self.claim = None       # the user a standalone claim holds it for

    def copy(self):
        d = Device.__new__(Device)
        for name in Device.__slots__:
            setattr(d, name, getattr(self, name))
        return d

    def usable(self, req, user=None):
        if self.state != OK or self.excl:
            return False
        if self.claim is not None and self.claim != user:
            return False        # held for another user (reserve)
        if self.njobs and (req.j_exclusive or
                           req.mode == "exclusive_process"):
            return False        # gpureq.exclusive, inline: a hot path
        if req.gmem and self.mem - self.mrsv < req.gmem:
            return False
        return req.gmodel is None or \
            _model_ok(self.model, self.mem, req.gmodel, req.gmodel_mem)


@functools.lru_cache(maxsize=1024)
def _model_ok(model, mem, gmodel, gmodel_mem):
    return matches_model({"model": model, "mem": mem}, gmodel, gmodel_mem)


def views(devices):
    """Device views of a host's devices (xce.model.gpus dicts), or None."""
    return [Device(d) for d in devices] if devices else None


def copy(devices):
    return [d.copy() for d in devices] if devices else devices


def reserve(h, ids, user):
    """A standalone claim holds devices *ids* of host view *h* for
    *user*'s jobs alone."""
    for d in h.gpus or ():
        if d.id in ids:
            d.claim = user
            h.gpu_claimed = True


def charge(devices, ids, excl, gmem):
    """A running job holds devices *ids* of a host."""
    by_id = {d.id: d for d in devices or ()}
    for ident in ids:
        d = by_id.get(ident)
        if d is not None:
            d.njobs += 1
            d.excl = d.excl or bool(excl)
            d.mrsv += gmem or 0.0


def room(h, req, n, user=None):
    """(slots *user*'s job may take on host *h*, at most n; why not or
    None)."""
    devices = h.gpus
    if not devices:
        return 0, R_GPU_NONE
    short = h.gpu_short
    key = (req, user) if h.gpu_claimed else req
    if short is not None and key in short:
        return 0, short[key]
    n, why = _room(devices, req, n, user)
    if why is not None:
        # Within a pass devices are only taken: the host stays short of
        # them for this requirement (a pass over many waiting jobs of a
        # few kinds asks again and again).
        if short is None:
            short = h.gpu_short = {}
        short[key] = why
    return n, why


def _room(devices, req, n, user):
    if not req.per_task:
        # The common case: enough devices, found without a full count.
        k = 0
        for d in devices:
            if d.usable(req, user):
                k += 1
                if k == req.num:
                    return n, None
    free = [d for d in devices if d.usable(req, user)]
    if req.per_task:
        n = min(n, len(free) // req.num)
        if n > 0:
            return n, None
    elif len(free) >= req.num:
        return n, None
    if not any(d.state == OK and (req.gmodel is None or _model_ok(
            d.model, d.mem, req.gmodel, req.gmodel_mem))
            and (not req.gmem or d.mem >= req.gmem) for d in devices):
        return 0, R_GPU_NONE
    return 0, R_GPU_FEW.format(need=req.num, free=len(free))


def roomiest(state, cands, req, user=None):
    """The candidate host with the most free slots that has devices for
    *req* now (first name on a tie), as the general path would choose it
    for a job that fits on one host, without scanning every host: a heap
    per candidate list and requirement, whose entries are fixed as they
    surface.  Within a pass slots and devices are only taken, so a host
    that lost its room or its devices for *req* is dropped for good; one
    with claimed devices only when it has no slot left (another user
    may still fit there): it is set aside while this job looks on."""
    hosts = state.hosts
    key = (id(cands), req)
    heap = state.gpu_heaps.get(key)
    if heap is None or heap[0] is not cands:
        heap = (cands, [(hosts[n].used - hosts[n].max_slots, n)
                        for n in cands.names])
        heapq.heapify(heap[1])
        state.gpu_heaps[key] = heap
    heap = heap[1]
    aside = []
    found = None, 0
    while heap:
        key, name = heap[0]
        h = hosts[name]
        room_now = h.max_slots - h.used
        if room_now <= 0:
            heapq.heappop(heap)
        elif room(h, req, room_now, user)[1] is not None:
            entry = heapq.heappop(heap)
            if h.gpu_claimed:
                aside.append(entry)
        elif -key != room_now:
            heapq.heapreplace(heap, (-room_now, name))
        else:
            found = name, room_now
            break
    for entry in aside:
        heapq.heappush(heap, entry)
    return found


def take(h, req, slots, user=None):
    """Give *user*'s job devices on host *h* for its *slots* there: the
    ids, the ones claimed for the user first, then least used first
    (then by id), marked as held."""
    need = req.num * slots if req.per_task else req.num
    free = sorted((d for d in h.gpus or () if d.usable(req, user)),
                  key=lambda d: (d.claim is None, d.njobs, d.id))[:need]
    excl = exclusive(req)
    for d in free:
        d.njobs += 1
        d.excl = d.excl or excl
        d.mrsv += req.gmem or 0.0
    return sorted(d.id for d in free)


def record(req, per_host):
    """What a started job holds, as the controller keeps it with the job
    (spec gpu_alloc) and charges it back at each pass (charge)."""
    return {"hosts": per_host, "excl": exclusive(req),
            "gmem": req.gmem or 0.0, "num": req.num, "mode": req.mode}


def never(req, host_devices):
    """Why no host could ever hold the job (at submit): "none", "few"
    or None, and the most matching devices one host has; host_devices
    is {host: [device dicts]} of the hosts it may use."""
    best = 0
    for devices in host_devices.values():
        fit = [d for d in devices if d.get("state", OK) == OK and
               matches_model(d, req.gmodel, req.gmodel_mem) and
               (not req.gmem or d["mem"] >= req.gmem)]
        best = max(best, len(fit))
    if best == 0:
        return "none", 0
    return ("few" if best < req.num else None), best
