"""Shaping one job's slots over candidate hosts: -n min,max and span[].

Pure.  `free` maps each candidate host to the slots the job may take there
(already cut by job slot limits and memory reservations); `ranked` lists
the candidates best first.  The functions return the host of every slot
(one entry per slot) or None when the job cannot start now.
"""

from collections import namedtuple

# slots: [host per slot] or None; span_failed: there were enough slots in
# total, but not in the shape span[] asks for.
Placement = namedtuple("Placement", "slots span_failed")


def place(lo, hi, free, ranked, span=None, host_max=None):
    """The most slots (at most hi, at least lo) that fit now, or None."""
    total = sum(free.values())
    if total < lo:
        return Placement(None, False)
    if span is None or span.hosts == -1:
        return _fill(min(hi, total), free, ranked)
    if span.hosts == 1:
        return _one_host(lo, hi, free, ranked)
    if span.ptile is not None:
        return _ptile(lo, hi, free, ranked, span.ptile, host_max or {})
    return _block(lo, hi, free, ranked, span.block)


def _fill(n, free, ranked):
    """Fill the best hosts first: one host when the best holds the job."""
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


def _ptile(lo, hi, free, ranked, ptile, host_max):
    """`ptile` slots on each host; only the last host may hold fewer.

    ptile '!' means each host's own slot count.
    """
    slots, used = [], set()
    for name in ranked:
        per = host_max.get(name, free[name]) if ptile == "!" else ptile
        if free[name] >= per and len(slots) + per <= hi:
            slots += [name] * per
            used.add(name)
    left = hi - len(slots)
    if left > 0:
        for name in ranked:
            if name not in used and free[name] > 0:
                per = host_max.get(name, free[name]) if ptile == "!" \
                    else ptile
                slots += [name] * min(free[name], left, per)
                break
    if len(slots) < lo:
        return Placement(None, True)
    return Placement(slots, False)


def _block(lo, hi, free, ranked, block):
    """Blocks of `block` slots, each block on one host; a multiple of it."""
    want = hi - hi % block
    slots = []
    for name in ranked:
        room = min(free[name], want - len(slots))
        slots += [name] * (room - room % block)
        if len(slots) == want:
            break
    if len(slots) < lo or not slots:
        return Placement(None, True)
    return Placement(slots, False)
