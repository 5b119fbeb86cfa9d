"""Shaping one job's slots over candidate hosts: -n min,max and span[].

Pure.  `free` maps each candidate host to the slots the job may take there
(already cut by job slot limits and memory reservations); `ranked` lists
the candidates best first.  The functions return the host of every slot
(one entry per slot) or None when the job cannot start now.

`host_limit` (the queue's HOSTLIMIT_PER_JOB) caps how many hosts one job
may take.  Under a limit the best hosts may not be the ones that hold the
job, so a shape that fails on them is tried again on the roomiest hosts
(most free slots first); only then does the job wait.
"""

from collections import namedtuple

# slots: [host per slot] or None; span_failed: there were enough slots in
# total, but not in the shape span[] asks for; host_limited: the job would
# fit now but for the queue's host limit.
Placement = namedtuple("Placement", "slots span_failed host_limited",
                       defaults=(False,))


def place(lo, hi, free, ranked, span=None, host_max=None, host_limit=None):
    """The most slots (at most hi, at least lo) that fit now, or None."""
    total = sum(free.values())
    if total < lo:
        return Placement(None, False)
    if host_limit is None or host_limit >= len(free):
        if span is None or span.hosts == -1:     # the common case
            return _fill(min(hi, total), free, ranked)
        return _shape(lo, hi, free, ranked, span, host_max, None)
    if span is not None and span.hosts == 1:
        return _one_host(lo, hi, free, ranked)
    result = _shape(lo, hi, free, ranked, span, host_max, host_limit)
    if result.slots is None:
        roomiest = sorted(free, key=lambda n: (-free[n], n))
        if roomiest != ranked:
            result = _shape(lo, hi, free, roomiest, span, host_max,
                            host_limit)
    if result.slots is None and \
            _shape(lo, hi, free, ranked, span, host_max, None).slots:
        return Placement(None, False, True)
    return result


def _shape(lo, hi, free, ranked, span, host_max, limit):
    if span is None or span.hosts == -1:
        use = ranked if limit is None else ranked[:limit]
        n = min(hi, sum(free[name] for name in use))
        return _fill(n, free, use) if n >= lo else Placement(None, False)
    if span.hosts == 1:
        return _one_host(lo, hi, free, ranked)
    if span.ptile is not None:
        return _ptile(lo, hi, free, ranked, span.ptile, host_max or {},
                      limit)
    return _block(lo, hi, free, ranked, span.block, limit)


def _fill(n, free, ranked):
    """Fill the best hosts first: one host when the best holds the job.
    (Under a host limit `ranked` holds only the hosts the job may use.)"""
    slots = []
    for name in ranked:
        take = min(free[name], n - len(slots))
        slots += [name] * take
        if len(slots) == n:
            break
    return Placement(slots, False)


def _one_host(lo, hi, free, ranked):
    for name in ranked:
        if free[name] >= lo:
            return Placement([name] * min(hi, free[name]), False)
    return Placement(None, True)


def _ptile(lo, hi, free, ranked, ptile, host_max, limit=None):
    """`ptile` slots on each host; only the last host may hold fewer.

    ptile '!' means each host's own slot count.
    """
    slots, used = [], set()
    limit = limit or len(ranked)
    for name in ranked:
        per = host_max.get(name, free[name]) if ptile == "!" else ptile
        if free[name] >= per and len(slots) + per <= hi:
            slots += [name] * per
            used.add(name)
            if len(used) == limit:
                break
    left = hi - len(slots)
    if left > 0 and len(used) < limit:
        for name in ranked:
            if name not in used and free[name] > 0:
                per = host_max.get(name, free[name]) if ptile == "!" \
                    else ptile
                slots += [name] * min(free[name], left, per)
                break
    if len(slots) < lo:
        return Placement(None, True)
    return Placement(slots, False)


def _block(lo, hi, free, ranked, block, limit=None):
    """Blocks of `block` slots, each block on one host, as many on a host as
    fit (each host looked at once).  A multiple of `block` when one lies in
    [lo, hi]; else (bsub -n 3 with block=2) the full blocks and one final
    partial block of the remaining slots, also on one host."""
    want = hi - hi % block          # the slots in full blocks
    partial = hi % block if want < lo else 0
    slots, hosts = [], 0
    for name in ranked:
        room = min(free[name], want - len(slots))
        room -= room % block
        if partial and len(slots) + room == want and \
                free[name] - room >= partial:
            room, partial = room + partial, 0
        if room:
            slots += [name] * room
            hosts += 1
        if (len(slots) >= want and not partial) or hosts == limit:
            break
    if len(slots) < lo or not slots:
        return Placement(None, True)
    return Placement(slots, False)
