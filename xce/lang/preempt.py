"""lsb.queues PREEMPTION = PREEMPTIVE[...] and/or PREEMPTABLE[...]: its
syntax, and who may preempt whom.

Queue H may preempt queue L when H has a higher priority and either H is
PREEMPTIVE with no list or with L in its list, or L is PREEMPTABLE with no
list or with H in its list.  `name+N` in a list is a preference level:
among victims, queues with a higher level go first.  What a pass does
with this (suspending and resuming jobs) is the scheduler's
(xce.scheduler.preempt).
"""

import re
from dataclasses import dataclass

_PART = re.compile(r"\s*(PREEMPTIVE|PREEMPTABLE)\s*(?:\[([^\[\]]*)\])?",
                   re.IGNORECASE)
_NAME = re.compile(r"([^\s+\[\]]+)(?:\+(\d+))?")


class PreemptError(ValueError):
    """A PREEMPTION value xce cannot read."""


@dataclass(frozen=True)
class Spec:
    """One queue's PREEMPTION: None (not set), or {queue: preference}
    (empty: every lower- or higher-priority queue)."""
    preemptive: dict = None
    preemptable: dict = None

    def names(self):
        return sorted(set(self.preemptive or ()) | set(self.preemptable or ()))


def parse(text):
    """'PREEMPTIVE[short+1 idle] PREEMPTABLE' -> Spec."""
    text = str(text or "")
    parts, pos = {}, 0
    for found in _PART.finditer(text):
        if text[pos:found.start()].strip():
            break
        kind = found.group(1).upper()
        if kind in parts:
            raise PreemptError(f"{text}: {kind} given twice")
        parts[kind] = _names(text, found.group(2) or "")
        pos = found.end()
    if text[pos:].strip() or not parts:
        raise PreemptError(f"{text}: expected PREEMPTIVE[queue ...] and/or "
                           "PREEMPTABLE[queue ...]")
    return Spec(parts.get("PREEMPTIVE"), parts.get("PREEMPTABLE"))


def only_queues(spec, known):
    """*spec* without the queues not in *known*, as PREEMPTION text (a
    part whose whole list is gone goes too: an empty list would mean every
    queue), or None when nothing is left."""
    parts = []
    for kind, names in (("PREEMPTIVE", spec.preemptive),
                        ("PREEMPTABLE", spec.preemptable)):
        if names is None:
            continue
        kept = [n + (f"+{p}" if p else "") for n, p in names.items()
                if n in known]
        if names and not kept:
            continue
        parts.append(f"{kind}[{' '.join(kept)}]" if kept else kind)
    return " ".join(parts) or None


def _names(text, body):
    out = {}
    for word in body.split():
        found = _NAME.fullmatch(word)
        if found is None:
            raise PreemptError(f"{text}: {word}: expected queue or "
                               "queue+level")
        out[found.group(1)] = int(found.group(2) or 0)
    return out


class Policy:
    """Who may preempt whom, from each queue's (priority, Spec or None)."""

    def __init__(self, queues):
        self.victims = {}       # queue -> {lower queue: preference}
        for hi, (hi_prio, hi_spec) in queues.items():
            found = {}
            for lo, (lo_prio, lo_spec) in queues.items():
                if lo_prio < hi_prio:
                    pref = _allowed(hi, hi_spec, lo, lo_spec)
                    if pref is not None:
                        found[lo] = (pref, lo_prio)
            if found:
                self.victims[hi] = found

    def __bool__(self):
        return bool(self.victims)

    def may_preempt(self, hi, lo):
        return lo in self.victims.get(hi, ())

    def preemptable(self):
        """Every queue some other queue may preempt."""
        return {lo for found in self.victims.values() for lo in found}


def _allowed(hi, hi_spec, lo, lo_spec):
    """The preference level when *hi* may preempt *lo*, else None."""
    tive = hi_spec.preemptive if hi_spec is not None else None
    table = lo_spec.preemptable if lo_spec is not None else None
    if tive is not None and (not tive or lo in tive):
        return tive.get(lo, 0)
    if table is not None and (not table or hi in table):
        return 0
    return None
