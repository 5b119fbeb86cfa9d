"""Time-based values of lsb.queues keys (``PRIORITY = [60 8:00-18:00]
[20 ()]``, the form lsb.resources limits have, xce.lang.timevalue).

Only keys read at each scheduling decision switch by time: PRIORITY and
the queue's job-slot limits.  The value in force at a time is the first
whose windows are open then; outside all of them the key is as if not
set (PRIORITY 1, no limit).  The controller and the simulator call
``apply`` with their clock at every window edge (xce.controller.windows).
"""

import re

from xce.errors import text
from xce.lang import timevalue

_WHOLE = re.compile(r"[+-]?\d+")


def _int(word):
    if not _WHOLE.fullmatch(word):
        raise ValueError(text("CONFIG_NOT_WHOLE", value=word))
    return int(word)


def _number(word):
    try:
        return float(word)
    except ValueError:
        raise ValueError(text("CONFIG_NOT_NUMBER", value=word)) from None


# key -> (QueueConf attribute, the value when no window is open, reader)
KEYS = {"PRIORITY": ("priority", 1, _int),
        "QJOB_LIMIT": ("qjob_limit", None, _int),
        "UJOB_LIMIT": ("ujob_limit", None, _int),
        "HJOB_LIMIT": ("hjob_limit", None, _int),
        "PJOB_LIMIT": ("pjob_limit", None, _number)}


def read_queue(q, props, check):
    """Keep each time-based value of KEYS as [(value, windows)] in
    q.timed; return the keys read (load.py leaves them alone)."""
    done = set()
    for key, (attr, _, read) in KEYS.items():
        value = props.get(key)
        if not timevalue.is_time_based(value):
            continue
        done.add(key)
        try:
            pairs = [(read(v), w) for v, w in timevalue.parse(value)]
        except ValueError as e:
            check.error(props, key, str(e))
            continue
        q.timed[attr] = pairs
    return done


def apply(cfg, now):
    """Set every queue's time-based keys to the value in force at *now*;
    the names of the queues whose values changed."""
    changed = []
    for name, q in cfg.queues.items():
        before = [getattr(q, attr) for attr in q.timed]
        for attr, pairs in q.timed.items():
            value = timevalue.value_at(pairs, now)
            setattr(q, attr, _unset(attr) if value is None else value)
        if before != [getattr(q, attr) for attr in q.timed]:
            changed.append(name)
    return changed


def _unset(attr):
    for name, unset, _ in KEYS.values():
        if name == attr:
            return unset
    raise KeyError(attr)


def windows(cfg):
    """The windows of the queues' time-based values."""
    for q in cfg.queues.values():
        for pairs in q.timed.values():
            yield from timevalue.windows_of(pairs)
