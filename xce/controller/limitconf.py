"""From xce.yaml to the scheduler's allocation limits and fairshare
policies: lsb.resources Limit sections (``limits:``), lsb.users MAX_JOBS
(``users:``) and queue FAIRSHARE, with groups expanded.

Built once per configuration (a reconfig brings a new Config object) and
kept on it; what running jobs use is charged per snapshot by dispatch.
"""

import logging

from xce.lang import units
from xce.config.lsf import hostnames
from xce.model import fairshare
from xce.scheduler.limits import (R_UGROUP_LIMIT, R_USER_LIMIT, Consumer,
                                  Limit)

log = logging.getLogger("xce.controller")

# Limit section key -> (Limit attribute, PER_ form or not).
_CONSUMERS = {"USERS": ("users", False), "PER_USER": ("users", True),
              "QUEUES": ("queues", False), "PER_QUEUE": ("queues", True),
              "PROJECTS": ("projects", False),
              "PER_PROJECT": ("projects", True),
              "HOSTS": ("hosts", False), "PER_HOST": ("hosts", True)}

# Consumers xce does not track: a limit naming one is left out whole.
_UNSUPPORTED = ("APPS", "PER_APP", "LIC_PROJECTS")


def limits(cfg):
    """The cluster's limits (scheduler Limit objects), cached on cfg."""
    found = getattr(cfg, "_xce_limits", None)
    if found is None:
        found = _limit_sections(cfg) + _user_limits(cfg) + \
            _project_quotas(cfg)
        cfg._xce_limits = found
    return found


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
    return Consumer(members, excluded, per, tree=kind == "projects")


def _limit_sections(cfg):
    out = []
    for index, section in enumerate(cfg.raw.get("limits") or ()):
        try:
            out.append(_limit(cfg, index, section or {}))
        except (ValueError, TypeError) as e:
            # load() validates; a section it let through but we cannot
            # read is left out rather than stopping the scheduler.
            log.warning("limit #%d not applied: %s", index + 1, e)
    return out


def _limit(cfg, index, section):
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
    lim.slots = _amount(section.get("SLOTS"), int)
    lim.jobs = _amount(section.get("JOBS"), int)
    lim.mem = _amount(section.get("MEM"), lambda v: _mem(cfg, v))
    return lim


def _amount(value, convert):
    if value is None or str(value).strip() in ("", "-"):
        return None
    return convert(str(value).strip())


def _mem(cfg, value):
    """MEM in LSF_UNIT_FOR_LIMITS, as rusage[mem] is counted."""
    unit = str(cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB"))
    if value.endswith("%"):
        raise ValueError(f"MEM = {value}: percentages are not supported")
    kb = units.memory_kb(value, unit)
    per_unit = units.memory_kb("1", unit)
    return kb / per_unit


def _user_limits(cfg):
    """lsb.users MAX_JOBS: slots (running and suspended) of a user, of a
    group as a whole, of each member of `group@`, or of each other user
    (`default`)."""
    users = cfg.raw.get("users") or {}
    named = frozenset(str(n) for n in users if str(n) != "default")
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
        found = fairshare.Policy(pairs, groups, weights)
    q._xce_fairshare = (cfg, found)
    return found
