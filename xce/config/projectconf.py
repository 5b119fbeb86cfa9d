"""The ``projects:`` section of xce.yaml and DEFAULT_PROJECT, read and
checked at load into an xce.model.projects.Projects.

    projects:
      /physics:            {MEMBERS: physgrp, SLOTS: 64}
      /physics/cms:        {MEMBERS: alice cmsgrp, DEFAULT_FOR: cmsgrp,
                            JOBS: 100, MEM: 512G}

Every error names file, line and key; a configuration with one is
refused whole (the controller does not start, badmin reconfig keeps the
running configuration)."""

from xce.errors import about, text
from xce.lang import units
from xce.model import projects as pj


def read(cfg, raw, check):
    """The cluster's Projects; an empty table when none are defined."""
    out = pj.Projects(cluster_default=_cluster_default(cfg, raw, check))
    node = raw.get("projects")
    if node is None:
        return out
    if not isinstance(node, dict):
        check.errors.append(text("CONFIG_PROJECTS_NOT_MAP", path=check.path))
        return out
    defaults = {}           # user or group -> project naming it
    for name, props in node.items():
        name = str(name)
        if not pj.valid_name(name):
            check.error(node, name, text("CONFIG_PROJECT_NAME"))
            continue
        props = props if isinstance(props, dict) else {}
        check.unknown_keys(props, pj.KEYS, "project")
        project = pj.Project(name)
        members = _words(props.get("MEMBERS"))
        if members:
            project.members = frozenset(members)
        project.default_for = tuple(_words(props.get("DEFAULT_FOR")))
        project.managers = _users(cfg, _words(props.get("MANAGERS")))
        _check_defaults(cfg, project, props, defaults, check)
        for key in pj.QUOTA_KEYS:
            _quota(cfg, project, props, key, check)
        out.table[name] = project
    return out


def _cluster_default(cfg, raw, check):
    """LSB_DEFAULTPROJECT (lsf.conf, carried into parameters), else
    DEFAULT_PROJECT (lsb.params), else ``default``."""
    found = pj.CLUSTER_DEFAULT
    for key in ("DEFAULT_PROJECT", "LSB_DEFAULTPROJECT"):
        value = str(cfg.params.get(key) or "").strip()
        if not value:
            continue
        if not pj.valid_name(value):
            check.error(raw.get("parameters") or {}, key,
                        about(value, "CONFIG_PROJECT_NAME"))
        found = value
    return found


def _words(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return str(value).split()


def _check_defaults(cfg, project, props, defaults, check):
    """A DEFAULT_FOR entry must be able to submit there, and send its
    jobs to one project only."""
    for who in project.default_for:
        if who in defaults:
            check.error(props, "DEFAULT_FOR", text(
                "CONFIG_PROJECT_DEFAULT_TWICE", who=who,
                other=defaults[who]))
            continue
        defaults[who] = project.name
        if project.members is None or "all" in project.members or \
                who in project.members:
            continue
        if not _within(cfg, who, project.members):
            check.error(props, "DEFAULT_FOR", text(
                "CONFIG_PROJECT_DEFAULT_MEMBER", who=who))


def _users(cfg, words):
    """Users and user groups as the set of users they name."""
    from xce.config.lsf import hostnames
    return frozenset(n for n in hostnames.expand(words, cfg.user_groups)
                     if not n.startswith("~")) if words else frozenset()


def _within(cfg, who, members):
    """A group all of whose users are members, or a user in a member
    group."""
    from xce.config.lsf import hostnames
    groups = [m for m in members if m in cfg.user_groups]
    allowed = set(hostnames.expand(groups, cfg.user_groups)) if groups \
        else set()
    if who in cfg.user_groups:
        mine = set(hostnames.expand([who], cfg.user_groups))
        return bool(mine) and mine <= allowed | set(members)
    return who in allowed


def _quota(cfg, project, props, key, check):
    value = props.get(key)
    if value is None or str(value).strip() in ("", "-"):
        return
    value = str(value).strip()
    memory = key == "MEM"
    try:
        if memory:
            unit = str(cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB"))
            units.memory_kb(value, unit)
        elif int(value) < 0:
            raise ValueError
    except ValueError:
        why = "CONFIG_NOT_NUMBER" if memory else "CONFIG_NOT_WHOLE"
        check.error(props, key, text(why, value=value))
        return
    project.quota[key] = value
