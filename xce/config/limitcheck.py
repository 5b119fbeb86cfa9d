"""Validation of the xce.yaml parts the scheduler's limits and fairshare
read: ``limits:`` (lsb.resources Limit sections), ``users:`` MAX_JOBS,
DEFAULT_LIMIT_IGNORE_USER_GROUP, queue FAIRSHARE and PREEMPTION.  Errors
name file, line and key through the loader's checker; nothing here changes
the configuration.  ``user_rows`` gives the ``users:`` rows in force, which
the scheduler's limits, the pending thresholds and busers all read."""

import re

from xce.config import keys
from xce.errors import about, text
from xce.lang import timevalue, units

_COUNTS = ("SLOTS", "JOBS")


IGNORE_GROUPS = "DEFAULT_LIMIT_IGNORE_USER_GROUP"


def default_covers_groups(params):
    """True when the ``default`` row of ``users:`` also limits each user
    group without a row of its own (DEFAULT_LIMIT_IGNORE_USER_GROUP = N,
    the LSF dialects' default); xce's default is Y (users only)."""
    value = (params or {}).get(IGNORE_GROUPS)
    if isinstance(value, bool):
        return not value
    return value is not None and str(value).strip().upper() in ("N", "NO")


def user_rows(users, user_groups, params):
    """The ``users:`` rows in force, by name: the configured ones and, when
    ``default`` covers groups, a copy of the ``default`` row (MAX_JOBS,
    JL/P, MAX_PEND_JOBS, MAX_PEND_SLOTS) for every user group without a row
    of its own, which then limits that group as a whole (the members' jobs
    together), as mbatchd passes the default user's values on to groups."""
    rows = {str(name): row for name, row in (users or {}).items()}
    default = rows.get("default")
    if isinstance(default, dict) and default_covers_groups(params):
        for group in user_groups or ():
            rows.setdefault(str(group), dict(default))
    return rows


def check(cfg, raw, check_):
    params = raw.get("parameters")
    if isinstance(params, dict) and params.get(IGNORE_GROUPS) is not None \
            and not isinstance(params[IGNORE_GROUPS], bool) and \
            str(params[IGNORE_GROUPS]).strip().upper() not in (
                "Y", "YES", "N", "NO"):
        check_.error(params, IGNORE_GROUPS,
                     text("CONFIG_NOT_YES_NO", value=params[IGNORE_GROUPS]))
    _limits(raw.get("limits"), check_)
    _limit_resources(raw.get("limits"), raw.get("resources"), check_)
    _limit_apps(raw.get("limits"), raw.get("applications"), check_)
    _users(raw.get("users"), check_)
    for name, props in (raw.get("queues") or {}).items():
        if props and props.get("FAIRSHARE"):
            _fairshare(props, check_)
    _preemption(raw.get("queues") or {}, check_)
    _group_shares(raw.get("user_groups"), check_)
    if isinstance(params, dict) and params.get("DEFAULT_USER_GROUP") \
            not in (None, "") and str(params["DEFAULT_USER_GROUP"]) not in \
            (raw.get("user_groups") or {}):
        check_.error(params, "DEFAULT_USER_GROUP",
                     text("CONFIG_DEFAULT_UGROUP",
                          group=params["DEFAULT_USER_GROUP"]))


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
        if section.get("SLOTS_PER_PROCESSOR") not in (None, "", "-") and \
                section.get("PER_HOST") in (None, "", "-", []):
            check_.error(section, "SLOTS_PER_PROCESSOR",
                         text("CONFIG_SLOTS_PER_PROCESSOR"))
        for key in ("SWP", "TMP"):
            if timevalue.is_time_based(section.get(key)):
                check_.error(section, key, text("CONFIG_TIME_BASED"))
            else:
                _mem(section, section.get(key), check_, key)


_PAIR = re.compile(r"\[\s*([^,\[\]\s]+)\s*,\s*([^,\[\]\s]+)\s*\]")


def resource_pairs(value):
    """RESOURCE = [name, count] ... of a Limit section -> {name: count}.
    YAML may hand the value over as a list ([lic, 1]) or a list of them.
    ValueError names what cannot be read: a count must be a number of 0
    or more."""
    if value is None or str(value).strip() in ("", "-"):
        return {}
    if isinstance(value, list):
        pairs = value if value and all(isinstance(v, list) for v in value) \
            else [value]
        if any(len(p) != 2 for p in pairs):
            raise ValueError(f"{value}: expected [name, count] ...")
        found = [(str(n).strip(), str(c).strip()) for n, c in pairs]
    else:
        rest = str(value).strip()
        if rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1]       # a Limit table's cell of several
        found = _PAIR.findall(rest)
        if not found or _PAIR.sub("", rest).strip():
            raise ValueError(f"{value}: expected [name, count] ...")
    out = {}
    for name, count in found:
        try:
            amount = float(count)
        except ValueError:
            amount = -1
        if amount < 0 or amount != amount or amount == float("inf"):
            raise ValueError(f"[{name}, {count}]: the count must be a "
                             "number of 0 or more")
        out[name] = int(amount) if amount.is_integer() else amount
    return out


def resource_problem(value, resources):
    """Why RESOURCE = *value* cannot be applied, or None: unreadable, or
    naming no numeric resource of *resources* (the ``resources:`` table,
    lsf.shared's Resource section)."""
    try:
        pairs = resource_pairs(value)
    except ValueError as e:
        return str(e)
    for name in pairs:
        props = (resources or {}).get(name) if isinstance(
            resources, dict) else None
        if not isinstance(props, dict) or \
                str(props.get("TYPE", "")).lower() != "numeric":
            return text("CONFIG_LIMIT_RESOURCE", name=name)
    return None


def _limit_resources(sections, resources, check_):
    for section in sections if isinstance(sections, list) else ():
        if isinstance(section, dict) and "RESOURCE" in section:
            problem = resource_problem(section["RESOURCE"], resources)
            if problem is not None:
                check_.error(section, "RESOURCE", problem)


def _limit_apps(sections, apps, check_):
    """APPS and PER_APP name application profiles that exist (all and
    ~exclusions aside), as LSF requires."""
    known = set(apps) if isinstance(apps, dict) else set()
    for section in sections if isinstance(sections, list) else ():
        for key in ("APPS", "PER_APP"):
            value = section.get(key) if isinstance(section, dict) else None
            words = value if isinstance(value, list) else \
                str(value or "").replace("(", " ").replace(")", " ").split()
            for name in (str(w).lstrip("~") for w in words):
                if name not in known | {"all", "-"}:
                    check_.error(section, key,
                                 text("CONFIG_LIMIT_APP", name=name))


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


def _mem(section, mem, check_, key="MEM"):
    if mem is not None and str(mem).strip() not in ("-", ""):
        limit_text = str(mem).strip()
        try:
            if not limit_text.endswith("%"):
                units.memory_kb(limit_text)
        except ValueError as e:
            check_.error(section, key, str(e).replace("MEMLIMIT", key))


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


def _group_shares(groups, check_):
    """lsb.users USER_SHARES: readable counts above 0, given to members,
    no group dividing its shares down to itself."""
    from xce.model import fairshare
    if not isinstance(groups, dict):
        return
    problems = fairshare.tree_config(groups)[2]
    for name, found in problems.items():
        props = groups.get(name)
        if isinstance(props, dict):
            check_.error(props, "USER_SHARES",
                         text("CONFIG_GROUP_SHARES", group=name,
                              problems="; ".join(found)))


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
