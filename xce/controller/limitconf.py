"""From xce.yaml to the scheduler's allocation limits and fairshare
policies: lsb.resources Limit sections (``limits:``), lsb.users MAX_JOBS
and JL/P (``users:``) and queue FAIRSHARE, with groups expanded.

Built once per configuration (a reconfig brings a new Config object) and
kept on it; what running jobs use is charged per snapshot by dispatch.
"""

import logging

from xce.lang import timevalue, units
from xce.config import limitcheck
from xce.config.lsf import hostnames
from xce.model import fairshare
from xce.scheduler import ugchoice
from xce.scheduler.limits import (R_UGROUP_LIMIT, R_USER_LIMIT, Consumer,
                                  Limit)

log = logging.getLogger("xce.controller")

# Limit section key -> (Limit attribute, PER_ form or not).
_CONSUMERS = {"USERS": ("users", False), "PER_USER": ("users", True),
              "QUEUES": ("queues", False), "PER_QUEUE": ("queues", True),
              "PROJECTS": ("projects", False),
              "PER_PROJECT": ("projects", True),
              "HOSTS": ("hosts", False), "PER_HOST": ("hosts", True),
              "APPS": ("apps", False), "PER_APP": ("apps", True)}

# Consumers xce does not track: a limit naming one is left out whole.
_UNSUPPORTED = ("LIC_PROJECTS",)


def limits(cfg, now=None):
    """The cluster's limits (scheduler Limit objects) at time *now*,
    cached on cfg while the time-based values in force stay the same
    (without a time, time-based amounts are not applied)."""
    phase = tuple(_phase(cfg, now))
    found = getattr(cfg, "_xce_limits", None)
    if found is None or found[0] != phase:
        found = cfg._xce_limits = (phase, _limit_sections(cfg, now) +
                                   _user_limits(cfg) + _project_quotas(cfg))
    return found[1]


_AMOUNTS = ("SLOTS", "JOBS", "MEM")


def _time_based(cfg):
    """(section, key, [(value, windows)]) of every time-based amount."""
    for section in cfg.raw.get("limits") or ():
        for key in _AMOUNTS:
            value = (section or {}).get(key)
            if timevalue.is_time_based(value):
                try:
                    yield section, key, timevalue.parse(value)
                except ValueError:
                    continue        # load() reports it


def _phase(cfg, now):
    for _, _, pairs in _time_based(cfg):
        yield None if now is None else timevalue.value_at(pairs, now)


def time_windows(cfg):
    """The windows of the time-based limit values (the controller wakes
    up when one opens or closes)."""
    for _, _, pairs in _time_based(cfg):
        yield from timevalue.windows_of(pairs)


def _at(value, now):
    """A limit amount at *now* (timevalue.in_force)."""
    return timevalue.in_force(value, now)


def _words(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return str(value).replace("(", " ").replace(")", " ").split()


def _consumer(cfg, kind, words, per):
    """A Consumer from a member list with all, groups and ~exclusions."""
    if kind == "hosts":
        names = hostnames.expand(words, cfg.host_groups, list(cfg.hosts))
        return Consumer(frozenset(names), per=per)
    groups = cfg.user_groups if kind == "users" else {}
    names = hostnames.expand(words, groups) if groups else list(words)
    excluded = frozenset(n[1:] for n in names if n.startswith("~"))
    names = [n for n in names if not n.startswith("~")]
    members = None if "all" in names else frozenset(names)
    named, direct = (), frozenset()
    if groups and members is not None:
        # For ENFORCE_ONE_UG_LIMITS: the groups this limit is placed on.
        named = tuple((w, frozenset(hostnames.expand([w], groups)))
                      for w in words if w in groups)
        direct = frozenset(w for w in words
                           if w not in groups and not w.startswith("~"))
    return Consumer(members, excluded, per, tree=kind == "projects",
                    groups=named, direct=direct)


def _limit_sections(cfg, now):
    out = []
    for index, section in enumerate(cfg.raw.get("limits") or ()):
        try:
            out.append(_limit(cfg, index, section or {}, now))
        except (ValueError, TypeError) as e:
            # load() validates; a section it let through but we cannot
            # read is left out rather than stopping the scheduler.
            log.warning("limit #%d not applied: %s", index + 1, e)
    return out


def _limit(cfg, index, section, now):
    for key in _UNSUPPORTED:
        if _words(section.get(key)) not in ([], ["-"]):
            # Applying it without that consumer would limit more jobs
            # than the site meant.
            raise ValueError(f"{key} consumers are not supported")
    lim = Limit(name=str(section.get("NAME") or f"limit{index + 1}"))
    for key, (kind, per) in _CONSUMERS.items():
        words = _words(section.get(key))
        if words and words != ["-"]:
            setattr(lim, kind, _consumer(cfg, kind, words, per))
    lim.slots = _amount(_at(section.get("SLOTS"), now), int)
    lim.jobs = _amount(_at(section.get("JOBS"), now), int)
    lim.mem = _amount(_at(section.get("MEM"), now), lambda v: _mem(cfg, v))
    # Like MEM, as rusage[swp] and rusage[tmp] are counted; not time-based.
    lim.swp = _amount(section.get("SWP"), lambda v: _mem(cfg, v, "SWP"))
    lim.tmp = _amount(section.get("TMP"), lambda v: _mem(cfg, v, "TMP"))
    # RESOURCE: rusage[] of site resources (load() checked the names);
    # one with a LOCATION (ResourceMap) is reserved once per job.
    lim.resources = limitcheck.resource_pairs(
        section.get("RESOURCE")) or None
    table = cfg.raw.get("resources") or {}
    lim.shared = frozenset(
        n for n in lim.resources or () if isinstance(table.get(n), dict)
        and table[n].get("LOCATION") not in (None, ""))
    # Slots per CPU of each host of a PER_HOST limit (load() requires it).
    lim.slots_per_cpu = _amount(section.get("SLOTS_PER_PROCESSOR"), float)
    return lim


def _amount(value, convert):
    if value is None or str(value).strip() in ("", "-"):
        return None
    return convert(str(value).strip())


def _mem(cfg, value, key="MEM"):
    """MEM in LSF_UNIT_FOR_LIMITS, as rusage[mem] is counted."""
    unit = str(cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB"))
    if value.endswith("%"):
        raise ValueError(f"{key} = {value}: percentages are not supported")
    kb = units.memory_kb(value, unit)
    per_unit = units.memory_kb("1", unit)
    return kb / per_unit


def user_rows(cfg):
    """The lsb.users rows in force (limitcheck.user_rows), cached on cfg:
    with DEFAULT_LIMIT_IGNORE_USER_GROUP = N each user group without a row
    of its own has the `default` row's values."""
    found = getattr(cfg, "_xce_user_rows", None)
    if found is None:
        found = cfg._xce_user_rows = limitcheck.user_rows(
            cfg.raw.get("users"), cfg.user_groups, cfg.params)
    return found


def named_users(cfg):
    """The names lsb.users' `default` row is not for (lsb.users(5): it is
    each user's that no row names): those with a row of their own, and
    each member of a group with a `group@` row.  Cached on cfg."""
    found = getattr(cfg, "_xce_named_users", None)
    if found is None:
        users = user_rows(cfg)
        names = {str(n) for n in users if str(n) != "default"}
        for name in list(names):
            if name.endswith("@") and name[:-1] in cfg.user_groups:
                names.update(hostnames.expand([name[:-1]], cfg.user_groups))
        found = cfg._xce_named_users = frozenset(names)
    return found


def _user_limits(cfg):
    """lsb.users MAX_JOBS: slots (running and suspended) of a user, of a
    group as a whole, of each member of `group@`, or of each user no row
    names (`default`)."""
    users = user_rows(cfg)
    named = named_users(cfg)
    out = []
    for name, row in users.items():
        name = str(name)
        try:
            slots = _amount((row or {}).get("MAX_JOBS"), int)
        except (ValueError, AttributeError):
            continue        # load() reports it
        if slots is None:
            continue
        lim = Limit(name=f"MAX_JOBS {name}", slots=slots,
                    slot_reason=R_USER_LIMIT)
        if name == "default":
            lim.users = Consumer(None, named, per=True)
        elif name.endswith("@") and name[:-1] in cfg.user_groups:
            lim.users = _consumer(cfg, "users", [name[:-1]], True)
        elif name in cfg.user_groups:
            lim.users = _consumer(cfg, "users", [name], False)
            lim.slot_reason = R_UGROUP_LIMIT
        else:
            lim.users = Consumer(frozenset([name]))
        out.append(lim)
    return out


def jl_p(cfg, user, ug=None):
    """The lsb.users JL/P that apply to *user* (PendingJob.jl_p): its own
    row, each `group@` row of a group it is in and, when no row names it
    (named_users), `default` count its own slots; a group's row counts
    the slots of all the group's members together.  With a GroupChoice *ug*
    (limit_groups), the rows of groups it leaves out do not apply.  None
    when none applies.  Cached on cfg per user and choice (one tuple that
    such jobs share)."""
    cache = getattr(cfg, "_xce_jl_p", None)
    if cache is None:
        cache = cfg._xce_jl_p = {}
    if (user, ug) not in cache:
        cache[user, ug] = _jl_p(cfg, user, ug)
    return cache[user, ug]


def _jl_p(cfg, user, ug):
    users = user_rows(cfg)
    found = []
    for name, row in users.items():
        name = str(name)
        try:
            per_cpu = _amount((row or {}).get("JL/P"), float)
        except (ValueError, AttributeError):
            continue        # load() reports it
        if per_cpu is None:
            continue
        group = name[:-1] if name.endswith("@") else name
        if group in cfg.user_groups:
            members = frozenset(hostnames.expand([group], cfg.user_groups))
            if user in members and (ug is None or ug.allows(group)):
                found.append((per_cpu, None if group != name else members))
        elif name == user or (name == "default"
                              and user not in named_users(cfg)):
            found.append((per_cpu, None))
    return tuple(found) or None


def limit_groups(cfg, spec):
    """The ugchoice.GroupChoice of a job with submission *spec* under
    lsb.params ENFORCE_ONE_UG_LIMITS, or None (every group's limits)."""
    if not cfg.param_flag("ENFORCE_ONE_UG_LIMITS"):
        return None
    group = spec.get("user_group")
    return ugchoice.choice(True, group,
                           spec.get("user_group_exclude") or (),
                           _holders(cfg).get(group, ()))


def _holders(cfg):
    """group -> the groups holding it as a subgroup, at any depth
    (cached on cfg)."""
    found = getattr(cfg, "_xce_ug_holders", None)
    if found is None:
        found = {}
        for outer in cfg.user_groups:
            for inner in _subgroups(cfg.user_groups, outer, (outer,)):
                found.setdefault(inner, set()).add(outer)
        cfg._xce_ug_holders = found
    return found


def _subgroups(groups, name, seen):
    for member in groups.get(name) or ():
        member = str(member)
        if member in groups and member not in seen:
            yield member
            yield from _subgroups(groups, member, seen + (member,))


def _project_quotas(cfg):
    """The SLOTS, JOBS and MEM of the ``projects:`` tree: one limit per
    project, named after it, counting its whole subtree."""
    out = []
    for name, project in cfg.projects.table.items():
        quota = project.quota
        if not quota:
            continue
        lim = Limit(name=name, projects=Consumer(frozenset([name]),
                                                 tree=True))
        lim.slots = _amount(quota.get("SLOTS"), int)
        lim.jobs = _amount(quota.get("JOBS"), int)
        lim.mem = _amount(quota.get("MEM"), lambda v: _mem(cfg, v))
        out.append(lim)
    return out


def policy(cfg, q):
    """The fairshare.Policy of a queue, or None (cached on the queue)."""
    text = q.raw.get("FAIRSHARE")
    if not text:
        return None
    cached = getattr(q, "_xce_fairshare", None)
    if cached is not None and cached[0] is cfg:
        return cached[1]
    try:
        pairs = fairshare.parse(text)
    except fairshare.FairshareError as e:
        log.warning("queue %s: FAIRSHARE not applied: %s", q.name, e)
        pairs = None
    found = None
    if pairs:
        groups = {g: [m for m in hostnames.expand([g], cfg.user_groups)
                      if not m.startswith("~")] for g in cfg.user_groups}
        weights = fairshare.factors_from(cfg.params, q.raw)
        shares, members, _ = fairshare.tree_config(
            cfg.raw.get("user_groups"))
        found = fairshare.Policy(
            pairs, groups, weights, shares, members,
            str(cfg.params.get("DEFAULT_USER_GROUP") or "") or None)
    q._xce_fairshare = (cfg, found)
    return found
