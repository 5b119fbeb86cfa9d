"""The first-cut scheduler: a pure function from a snapshot to decisions.

Queues by priority, FCFS within a queue (after the user's -sp priority),
job slots per host (MXJ), queue and per-user slot limits, queue and host
states.  No I/O, no clock, no randomness: same snapshot, same answer.
"""

from dataclasses import dataclass, field

# Pend reasons (LSF's texts).  Host-level ones are shown with host counts.
R_NEW = "New job is waiting for scheduling"
R_QUEUE_INACTIVE = "The queue is inactivated by the administrator"
R_QUEUE_LIMIT = "The queue has reached its job slot limit"
R_USER_QUEUE_LIMIT = "User has reached the per-user job slot limit of the queue"
R_HELD = "The job was suspended by the user while pending"
R_HOST_FULL = "Not enough job slot(s)"
R_HOST_CLOSED = "Closed by LSF administrator"
R_HOST_UNAVAIL = "Unable to reach slave batch server"
R_HOST_QUEUE = "Not usable to the queue"
R_HOST_QUEUE_LIMIT = "Queue's per-host job slot limit reached"
R_HOST_USER_LIMIT = "Host's per-user job slot limit reached"


@dataclass
class HostView:
    name: str
    status: str                 # ok, closed_Adm, unavail, unreach
    max_slots: int
    used: int = 0
    user_used: dict = field(default_factory=dict)   # user -> slots
    jl_u: int = None


@dataclass
class QueueView:
    name: str
    priority: int
    active: bool = True
    hosts: list = None          # None: all hosts
    qjob_limit: int = None
    ujob_limit: int = None
    hjob_limit: int = None
    used: int = 0
    user_used: dict = field(default_factory=dict)
    host_used: dict = field(default_factory=dict)   # host -> slots


@dataclass
class PendingJob:
    key: tuple                  # (jobid, idx)
    queue: str
    user: str
    nslots: int
    seq: int
    user_priority: int = 0
    held: bool = False


@dataclass
class Decisions:
    dispatch: list = field(default_factory=list)    # (key, [host per slot])
    reasons: dict = field(default_factory=dict)     # key -> [[text, hosts]]


def schedule(queues, hosts, pending):
    """Place what fits now; give every examined job its pend reasons."""
    out = Decisions()
    hosts = {h.name: _copy_host(h) for h in hosts}
    by_queue = {}
    for job in pending:
        by_queue.setdefault(job.queue, []).append(job)
    full = None
    for q in sorted(queues, key=lambda q: (-q.priority, q.name)):
        jobs = sorted(by_queue.get(q.name, ()),
                      key=lambda j: (-j.user_priority, j.seq, j.key))
        for job in jobs:
            if full is None and not any(h.max_slots > h.used
                                        for h in hosts.values()):
                # Every slot is taken: the rest wait for slots, and saying
                # so needs no per-job placement work.
                full = [[R_HOST_FULL, sorted(hosts)]]
            if full is not None:
                out.reasons[job.key] = full
            else:
                _consider(job, q, hosts, out)
    return out


def _copy_host(h):
    return HostView(h.name, h.status, h.max_slots, h.used,
                    dict(h.user_used), h.jl_u)


def _consider(job, q, hosts, out):
    if job.held:
        out.reasons[job.key] = [[R_HELD, None]]
        return
    if not q.active:
        out.reasons[job.key] = [[R_QUEUE_INACTIVE, None]]
        return
    if q.qjob_limit is not None and q.used + job.nslots > q.qjob_limit:
        out.reasons[job.key] = [[R_QUEUE_LIMIT, None]]
        return
    if (q.ujob_limit is not None and
            q.user_used.get(job.user, 0) + job.nslots > q.ujob_limit):
        out.reasons[job.key] = [[R_USER_QUEUE_LIMIT, None]]
        return
    free, blocked = _free_slots(job, q, hosts)
    placement = _place(job.nslots, free)
    if placement is None:
        out.reasons[job.key] = _host_reasons(blocked, free, hosts)
        return
    for name in placement:
        h = hosts[name]
        h.used += 1
        h.user_used[job.user] = h.user_used.get(job.user, 0) + 1
        q.host_used[name] = q.host_used.get(name, 0) + 1
    q.used += job.nslots
    q.user_used[job.user] = q.user_used.get(job.user, 0) + job.nslots
    out.dispatch.append((job.key, placement))


def _free_slots(job, q, hosts):
    """host -> usable free slots, and host -> why a host is not usable."""
    free, blocked = {}, {}
    for name in sorted(hosts):
        h = hosts[name]
        if q.hosts is not None and name not in q.hosts:
            blocked[name] = R_HOST_QUEUE
        elif h.status in ("unavail", "unreach"):
            blocked[name] = R_HOST_UNAVAIL
        elif h.status == "closed_Adm":
            blocked[name] = R_HOST_CLOSED
        else:
            n = h.max_slots - h.used
            if q.hjob_limit is not None:
                n = min(n, q.hjob_limit - q.host_used.get(name, 0))
                if n <= 0:
                    blocked[name] = R_HOST_QUEUE_LIMIT
            if h.jl_u is not None:
                n = min(n, h.jl_u - h.user_used.get(job.user, 0))
                if n <= 0 and name not in blocked:
                    blocked[name] = R_HOST_USER_LIMIT
            if n > 0:
                free[name] = n
            elif name not in blocked:
                blocked[name] = R_HOST_FULL
    return free, blocked


def _place(nslots, free):
    """One host if one fits the job, else spread; None if it cannot fit now."""
    if sum(free.values()) < nslots:
        return None
    best = max(free, key=lambda n: (free[n], [-ord(c) for c in n]))
    if free[best] >= nslots:
        return [best] * nslots
    placement = []
    for name in sorted(free, key=lambda n: (-free[n], n)):
        take = min(free[name], nslots - len(placement))
        placement += [name] * take
        if len(placement) == nslots:
            break
    return placement


def _host_reasons(blocked, free, hosts):
    """Group unusable hosts by reason; hosts with some room count as full."""
    groups = {}
    for name, why in blocked.items():
        groups.setdefault(why, []).append(name)
    for name in free:       # usable but not enough in total
        groups.setdefault(R_HOST_FULL, []).append(name)
    return [[why, sorted(names)] for why, names in sorted(groups.items())]
