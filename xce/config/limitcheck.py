"""Validation of the xce.yaml parts the scheduler's limits and fairshare
read: ``limits:`` (lsb.resources Limit sections), ``users:`` MAX_JOBS,
queue FAIRSHARE and PREEMPTION.  Errors name file, line and key through
the loader's checker; nothing here changes the configuration."""

from xce.config import keys
from xce.errors import about, text
from xce.lang import timevalue, units

_COUNTS = ("SLOTS", "JOBS")


def check(cfg, raw, check_):
    _limits(raw.get("limits"), check_)
    _users(raw.get("users"), check_)
    for name, props in (raw.get("queues") or {}).items():
        if props and props.get("FAIRSHARE"):
            _fairshare(props, check_)
    _preemption(raw.get("queues") or {}, check_)


def _limits(sections, check_):
    if sections is None:
        return
    if not isinstance(sections, list):
        check_.errors.append(text("CONFIG_LIMITS_NOT_LIST", path=check_.path))
        return
    known = keys.known("limit")
    for section in sections:
        if not isinstance(section, dict):
            continue
        check_.unknown_keys(section, known, "limit")
        for key in _COUNTS + ("MEM",):
            for value in _values(section, key, check_):
                if key == "MEM":
                    _mem(section, value, check_)
                else:
                    _whole(section, key, check_, value)


def _values(section, key, check_):
    """The values of *key*: one, or each of a time-based value's
    ([value time_window] ..., whose windows must read)."""
    value = section.get(key)
    if not timevalue.is_time_based(value):
        return [value]
    try:
        return [v for v, _ in timevalue.parse(value)]
    except ValueError as e:
        check_.error(section, key, text("CONFIG_TIME_WINDOW", problem=e))
        return []


def _mem(section, mem, check_):
    if mem is not None and str(mem).strip() not in ("-", ""):
        limit_text = str(mem).strip()
        try:
            if not limit_text.endswith("%"):
                units.memory_kb(limit_text)
        except ValueError as e:
            check_.error(section, "MEM", str(e).replace("MEMLIMIT", "MEM"))


def _users(rows, check_):
    for name, row in (rows or {}).items():
        if isinstance(row, dict):
            _whole(row, "MAX_JOBS", check_)


def _whole(node, key, check_, value=None):
    value = node.get(key) if value is None else value
    if value is None or str(value).strip() in ("-", ""):
        return
    try:
        if int(str(value).strip()) < 0:
            raise ValueError
    except ValueError:
        check_.error(node, key, text("CONFIG_NOT_WHOLE", value=value))


def _fairshare(props, check_):
    from xce.model import fairshare
    try:
        fairshare.parse(props["FAIRSHARE"])
    except fairshare.FairshareError as e:
        check_.error(props, "FAIRSHARE", str(e))


def _preemption(queues, check_):
    """PREEMPTIVE[...] and PREEMPTABLE[...] readable, naming queues."""
    from xce.lang import preempt
    for props in queues.values():
        if not props or not props.get("PREEMPTION"):
            continue
        try:
            spec = preempt.parse(props["PREEMPTION"])
        except preempt.PreemptError as e:
            check_.error(props, "PREEMPTION", str(e))
            continue
        for name in spec.names():
            if name not in queues:
                check_.error(props, "PREEMPTION", about(name, "BAD_QUEUE"))
