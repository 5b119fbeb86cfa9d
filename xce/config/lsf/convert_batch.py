"""lsb.params, lsb.queues, lsb.users, lsb.resources, lsb.applications and
lsb.modules -> xce.yaml ``parameters``, ``queues``, ``users``,
``user_groups``, ``limits`` and ``applications``.
"""

import re

from xce.config import keys, limitcheck, queuetime, ranges
from xce.config.lsf import cells, hostnames
from xce.errors import text
from xce.lang import (jobcontrols, loadthresh, preempt, rlimits, timevalue,
                      timewindow, units)
from xce.model import cleanperiod, fairshare

# Old spelling seen in OpenLava's own stock lsb.resources (reference §14.13).
_LIMIT_ALIASES = {"PER_PROJECTS": "PER_PROJECT"}
_TIME_LIMITS = ("RUNLIMIT", "CPULIMIT")
# LSF's time-based value: [value time_window] (lsb.resources, lsb.queues).
_TIME_BASED = re.compile(r"\[\s*\S+\s+[0-9:]+\s*-\s*[0-9:]+\s*\]")
# Queue job control keys and their checks (a command action, CHKPNT, a
# bad signal name or expression is left out and reported).
_CONTROL_KEYS = {"JOB_CONTROLS": jobcontrols.parse_controls,
                 "TERMINATE_WHEN": jobcontrols.parse_terminate_when,
                 "STOP_COND": jobcontrols.parse_condition,
                 "RESUME_COND": jobcontrols.parse_condition}
_SIZE_LIMITS = ("MEMLIMIT", "SWAPLIMIT", "STACKLIMIT", "DATALIMIT",
                "FILELIMIT", "CORELIMIT")


def convert_params(mig, lsb_params):
    sections = lsb_params.all("parameters") if lsb_params else []
    if len(sections) > 1:
        mig.warn(sections[1].origin, "second Parameters section; its keys "
                 "override the first")
    for section in sections:
        for name, item in section.items.items():
            carry_checked(mig, "params", ("parameters",), name, item.value,
                          item.origin, "parameters")
    _done_period(mig)
    _dialect_defaults(mig)


def _done_period(mig):
    """LSF ignores (with a warning) a CLEAN_PERIOD_DONE that is not less
    than CLEAN_PERIOD, so DONE jobs keep CLEAN_PERIOD: it is left out,
    which runs the same (xce's loader would refuse it)."""
    path = ("parameters", "CLEAN_PERIOD_DONE")
    pair = cleanperiod.problem(mig.tree.get("parameters") or {})
    if pair is None or path not in mig.origins:
        return
    why = text("CONFIG_CLEAN_PERIOD_DONE", done=pair[0], clean=pair[1])
    mig.retract(path, why)


# lsb.params keys whose default in the LSF dialects (OpenLava, volclava)
# differs from xce's: written out when the files leave them unset, so the
# site keeps the behaviour it ran with.  name -> (value, what it does).
_DIALECT_DEFAULTS = {
    "DEFAULT_LIMIT_IGNORE_USER_GROUP": (
        "N", "LSF's default, written out as lsb.params does not set it "
        "(xce's own is Y): lsb.users' default row also limits each user "
        "group without a row of its own, as a whole"),
}


def _dialect_defaults(mig):
    params = mig.tree.get("parameters") or {}
    for name, (value, why) in _DIALECT_DEFAULTS.items():
        if name in params or any(str(k).upper() == name for k in params):
            continue
        mig.set(("parameters", name), value, None, keys.ENFORCED)
        mig.note(keys.ENFORCED, None, f"parameters {name} = {value}", why)


def convert_queues(mig, lsb_queues):
    for section in lsb_queues.all("queue") if lsb_queues else []:
        name_item = section.items.get("QUEUE_NAME")
        if name_item is None:
            mig.warn(section.origin, "Queue section without QUEUE_NAME; "
                     "queue not carried")
            mig.drop(section.origin, "queue without QUEUE_NAME",
                     "QUEUE_NAME is required")
            continue
        name = name_item.value.split()[0]
        if name in mig.tree.get("queues", {}):
            mig.warn(name_item.origin, f"queue {name} defined again; the "
                     "last definition wins")
            del mig.tree["queues"][name]
        mig.node("queues", name)
        mig.set(("queues", name), mig.tree["queues"][name], section.origin)
        for key, item in section.items.items():
            if key.lower() in loadthresh.INDICES:
                key = key.lower()       # load indices are lower case
            value = _without_first_hosts(mig, name, item) \
                if key == "HOSTS" else item.value
            if key != "QUEUE_NAME":
                carry_checked(mig, "queue", ("queues", name), key,
                              value, item.origin, f"queue {name}")


def _without_first_hosts(mig, name, item):
    """HOSTS without LSF's first execution host marks (``hostA!``), which
    xce.yaml refuses, each reported: the queue keeps its hosts and their
    preference levels, xce chooses no first host."""
    words = str(item.value).split()
    marked = hostnames.first_host_marked(words)
    if marked is None:
        return item.value
    mig.warn(item.origin, f"queue {name} HOSTS: "
             f"{text('CONFIG_FIRST_HOST', value=marked)}; carried without it")
    return " ".join(hostnames.without_first_host(w) for w in words)


def convert_users(mig, lsb_users):
    """users (User rows) and user_groups (UserGroup rows)."""
    for section in lsb_users.all("user") if lsb_users else []:
        for row in section.rows:
            name = row.get("USER_NAME")
            if not name:
                mig.warn(row.origin, "user row without USER_NAME; ignored")
                continue
            mig.node("users", name)
            for column, value in row.cells.items():
                if column != "USER_NAME" and value is not None:
                    carry_checked(mig, "user", ("users", name), column,
                                  value, row.origin, f"user {name}")
    for section in lsb_users.all("usergroup") if lsb_users else []:
        for row in section.rows:
            _user_group(mig, row)
    _check_user_groups(mig)


def _user_group(mig, row):
    name = row.get("GROUP_NAME")
    if not name:
        mig.warn(row.origin, "user group row without GROUP_NAME; ignored")
        return
    path = ("user_groups", name)
    mig.node(*path)
    for column, value in row.cells.items():
        if column == "GROUP_NAME" or value is None:
            continue
        target = "members" if column == "GROUP_MEMBER" else column
        key = keys.lookup("user_group", column)
        if not key.carried:
            mig.drop(row.origin, f"user group {name} {column} = {value}",
                     key.why)
            continue
        value_out = (cells.split_list(value) if key.shape == "list"
                     else " ".join(value.split()))
        mig.set(path + (target,), value_out, row.origin, key.status)
        mig.note(key.status, row.origin,
                 f"user group {name} {column} = {value}", path=path + (target,))
    if "!" in mig.tree["user_groups"][name].get("members", []):
        mig.warn(row.origin, f"user group {name}: members come from an "
                 "external egroup program, which xce does not run")


def _check_user_groups(mig):
    """Expand user groups: report their users, warn about cycles and
    USER_SHARES that would not be put in force."""
    groups = {name: group.get("members", [])
              for name, group in mig.tree.get("user_groups", {}).items()}
    problems = fairshare.tree_config(mig.tree.get("user_groups"))[2]
    for name, found in problems.items():
        origin = mig.origins.get(("user_groups", name, "USER_SHARES"))
        if origin is None:
            continue
        mig.warn(origin, f"user group {name} USER_SHARES: "
                 + "; ".join(found))
        mig.retract(("user_groups", name, "USER_SHARES"),
                    "not put in force (see the warning): the group's "
                    "members go FCFS")
    for name, members in groups.items():
        origin = mig.origins[("user_groups", name, "members")] \
            if ("user_groups", name, "members") in mig.origins else None
        try:
            expanded = hostnames.expand(members, groups, None, (name,))
        except hostnames.PatternError as exc:
            if origin is not None:
                mig.warn(origin, f"user group {name}: {exc}")
            continue
        if expanded != members and origin is not None:
            mig.note(keys.lookup("user_group", "GROUP_MEMBER").status,
                     origin, f"user group {name} expands to "
                     f"{' '.join(expanded) or 'nobody'}")
    default = ("parameters", "DEFAULT_USER_GROUP")
    group = mig.tree.get("parameters", {}).get("DEFAULT_USER_GROUP")
    if group not in (None, "") and str(group) not in groups and \
            default in mig.origins:
        mig.warn(mig.origins[default], text("CONFIG_DEFAULT_UGROUP",
                                            group=group))
        mig.retract(default, "not a user group of lsb.users: jobs without "
                    "-G are associated with no group")
    elif group not in (None, "") and default in mig.origins and \
            "all" not in groups[str(group)]:
        mig.warn(mig.origins[default], text("CONFIG_DEFAULT_UGROUP_ALL",
                                            group=group))


def convert_limits(mig, lsb_resources):
    """Each Limit (KEY = VALUE section or table row) is one list entry."""
    for section in lsb_resources.all("limit") if lsb_resources else []:
        if section.items:
            _limit(mig, section.items.items(), section.origin,
                   lambda item: (item.value, item.origin))
        for row in section.rows:
            _limit(mig, row.cells.items(), row.origin,
                   lambda value, at=row.origin: (value, at))
    for kind in ("resourcereservation", "reservationusage", "hostexport",
                 "sharedresourceexport", "guaranteedresourcepool"):
        for section in lsb_resources.all(kind) if lsb_resources else []:
            mig.drop(section.origin, f"section {section.name}",
                     "advance reservation, resource export and guarantee "
                     "pools have no xce equivalent")


def _consumer_left_out(mig, pairs, unpack):
    """Why a limit is left out whole, or None: it names a consumer xce does
    not track (the key table says why), or application profiles that are
    not carried.  Without that consumer it would limit other jobs."""
    apps = set(mig.tree.get("applications") or ()) | {"all", "-"}
    for name, raw in pairs:
        key = keys.lookup("limit", name.upper())
        words = str(unpack(raw)[0]).replace("(", " ").replace(")", " ")
        if key.status == keys.NOT_CARRIED and key.shape == "list" and \
                words.strip() not in ("", "-"):
            return f"{key.name}: {key.why}"
        if key.name in ("APPS", "PER_APP"):
            for word in words.split():
                if word.lstrip("~") not in apps:
                    return (f"{key.name}: " + text(
                        "CONFIG_LIMIT_APP", name=word.lstrip("~")) +
                        "; the limit is left out whole, as without it "
                        "it would limit other jobs")
    return None


def _limit(mig, pairs, origin, unpack):
    pairs = [(name, raw) for name, raw in pairs if raw is not None]
    whole = _consumer_left_out(mig, pairs, unpack)
    if whole is not None:
        named = [unpack(raw)[0] for name, raw in pairs
                 if name.upper() == "NAME"]
        label = f"limit {named[0]}" if named else "limit"
        for name, raw in pairs:
            value, where = unpack(raw)
            mig.drop(where, f"{label} {name} = {value}", whole)
        return
    limits = mig.node("limits", default=list)
    limits.append({})
    index = len(limits) - 1
    mig.set(("limits", index), limits[index], origin)
    label = f"limit #{index + 1}"
    for name, raw in pairs:
        if raw is None:
            continue
        value, where = unpack(raw)
        if name.upper() in _LIMIT_ALIASES:
            mig.warn(where, f"{name} read as "
                     f"{_LIMIT_ALIASES[name.upper()]} (OpenLava's parser "
                     f"does not know {name})")
            name = _LIMIT_ALIASES[name.upper()]
        if name.upper() == "NAME":
            label = f"limit {value}"
        problem = limitcheck.resource_problem(
            value, mig.tree.get("resources")) \
            if name.upper() == "RESOURCE" else None
        if problem is not None:
            mig.drop(where, f"{label} {name} = {value}", problem)
            continue
        carry_checked(mig, "limit", ("limits", index), name.upper(), value,
                      where, label)
    if len(limits[index]) == (1 if "NAME" in limits[index] else 0):
        mig.warn(origin, f"{label} sets no consumer or resource")


def convert_applications(mig, lsb_applications):
    sections = (lsb_applications.all("application")
                if lsb_applications else [])
    for section in sections:
        name_item = section.items.get("NAME")
        if name_item is None:
            mig.warn(section.origin, "Application section without NAME; "
                     "not carried")
            continue
        name = name_item.value.split()[0]
        mig.node("applications", name)
        mig.set(("applications", name), mig.tree["applications"][name],
                section.origin)
        for key, item in section.items.items():
            if key != "NAME":
                carry_checked(mig, "application", ("applications", name),
                              key, item.value, item.origin,
                              f"application {name}")


# Scheduler plug-ins whose policy xce's built-in scheduler has (FCFS,
# fairshare, limits, parallel placement, slot reservation, preemption):
# lsb.modules only loads them in LSF.  The others bring features xce lacks.
_BUILT_IN_PLUGINS = {"schmod_default", "schmod_fcfs", "schmod_fairshare",
                     "schmod_limit", "schmod_parallel", "schmod_reserve",
                     "schmod_preemption"}
_MISSING_PLUGINS = {"schmod_mc": "MultiCluster", "schmod_advrsv":
                    "advance reservation", "schmod_demand":
                    "resource connector (cloud hosts)", "schmod_affinity":
                    "CPU and memory affinity", "schmod_aps":
                    "absolute priority scheduling", "schmod_cpuset":
                    "cpusets"}


def convert_modules(mig, lsb_modules):
    for section in lsb_modules.all("pluginmodule") if lsb_modules else []:
        for row in section.rows:
            plugin = row.get("SCH_PLUGIN")
            if plugin and plugin in _BUILT_IN_PLUGINS:
                mig.note(keys.NOT_NEEDED, row.origin,
                         f"scheduler plug-in {plugin}",
                         "xce's scheduler has this policy built in; "
                         "nothing to load")
            elif plugin:
                feature = _MISSING_PLUGINS.get(plugin)
                mig.drop(row.origin, f"scheduler plug-in {plugin}",
                         f"xce's scheduler has no {feature}" if feature
                         else "an LSF plug-in with no xce equivalent")


def carry_checked(mig, scope, path, name, value, origin, label):
    """Carry a key unless its value is one xce could not read; such a value
    is reported (once) as not carried so that the written xce.yaml still
    loads."""
    problem = value_problem(scope, name, value)
    if problem is None:
        return mig.carry(scope, path, name, value, origin, label)
    mig.drop(origin, f"{label} {name} = {value}", problem)
    return None


def value_problem(scope, name, value):
    """Why *value* of key *name* is unreadable or out of its range
    (config/ranges.py, the table xce.yaml's loader uses), or None."""
    if _TIME_BASED.search(str(value)):
        if not (scope == "limit" and name in ("SLOTS", "JOBS", "MEM") or
                scope == "queue" and name in queuetime.KEYS):
            return text("CONFIG_TIME_BASED")
        try:
            timevalue.parse(value)
        except ValueError as exc:
            return str(exc)
        return ranges.problem(scope, name, value)
    try:
        if scope == "queue" and name in rlimits.BY_NAME:
            rlimits.queue_value(rlimits.BY_NAME[name], value)
        elif name in _TIME_LIMITS:
            for word in units.limit_pair(value):
                units.limit_minutes(word)
        elif name in _SIZE_LIMITS:
            for word in units.limit_pair(value):
                units.size_bytes(word)
        elif name == "PREEMPTION":
            preempt.parse(value)
        elif name in ("DISPATCH_WINDOW", "RUN_WINDOW") and \
                scope in ("queue", "host"):
            timewindow.parse(value)
        elif name in loadthresh.INDICES and scope in ("queue", "host"):
            loadthresh.parse(value)
        elif scope == "queue" and name in _CONTROL_KEYS:
            _CONTROL_KEYS[name](value)
        elif ranges.problem(scope, name, value) is not None:
            raise ValueError(ranges.problem(scope, name, value))
    except rlimits.LimitError as exc:
        return text(exc.key, name=exc.name)
    except ValueError as exc:
        # The messages start with the value, which the report shows already.
        return str(exc).split(": ", 1)[-1]
    return None
