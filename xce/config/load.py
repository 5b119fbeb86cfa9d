"""Load and validate xce.yaml; every error names file, line and key."""

import difflib
import functools
import re
import socket
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from xce.config import (appconf, cwdconf, execconf, fixedkeys, keys,
                        limitcheck, logcheck, ranges)
from xce.config import gpuconf, projectconf, queueaccept, rescheck
from xce.config import controlconf, windowconf
from xce.config.lsf import hostnames
from xce.config import leftout, queuelimits, queuetime
from xce.config.queuelimits import check_host_spec, queue_limits
from xce.config.model import Config, HostConf, QueueConf
from xce.config.values import (estimate, integer, limit, number, positive,
                               requeue_values, slot_reserve, yes_no)
from xce.errors import about, text
from xce.lang import units
from xce.model import userprio

CONFIG_FILE = "xce.yaml"
SECTIONS = ("cluster", "parameters", "hosts", "host_groups", "queues",
            "users", "user_groups", "limits", "applications",
            "projects", "service_classes", "resources",
            "host_types", "host_models", "host_architectures")
CLUSTER_KEYS = ("name", "admins", "spool")
LOAD_INDICES = ("r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp",
                "swp", "mem")
# xce's own host keys, then the LSF columns of lsb.hosts and lsf.cluster.
HOST_KEYS = tuple(sorted(
    {"address", "launch", "type", "model", "server", "resources", "ncpus",
     "maxmem", "maxswp", "port", "user", "key_file", "known_hosts",
     "python", "ssh_timeout", "spool", "gpus", "lim_thresholds"} |
    set(keys.known("host")) | set(keys.known("cluster_host"))))
QUEUE_KEYS = tuple(sorted(set(keys.known("queue")) | set(LOAD_INDICES)))
LAUNCHES = ("local", "ssh", "none", "auto")
# lsb.hosts' "default" row holds values for every host, not a host.
DEFAULT_HOST = "default"


class ConfigError(Exception):
    """Invalid configuration; ``errors`` holds ``file:line: message`` lines."""

    def __init__(self, errors):
        super().__init__("\n".join(errors))
        self.errors = errors


class _Checker:
    def __init__(self, path):
        self.path = path
        self.errors = []
        self._flagged = set()       # (line, key) already reported

    def error(self, node, key, message):
        """Report *key* of *node*; only the first problem of a key is
        reported (a value the type check refused is not out of range
        too), and a problem found without a line covers the key."""
        line = _line_of(node, key)
        if (line, key) in self._flagged or (None, key) in self._flagged:
            return
        self._flagged.add((line, key))
        where = f"{self.path}:{line}" if line else str(self.path)
        self.errors.append(f"{where}: {key}: {message}")

    def unknown_keys(self, node, known, what):
        for key in node:
            if key not in known:
                hint = difflib.get_close_matches(str(key), known, 1)
                self.error(node, key, text("CONFIG_UNKNOWN_KEY", what=what)
                           + (text("CONFIG_DID_YOU_MEAN", hint=hint[0])
                              if hint else ""))


def _line_of(node, key):
    try:
        return node.lc.key(key)[0] + 1
    except (AttributeError, KeyError, TypeError):
        return None


def load(envdir):
    """Read ``envdir/xce.yaml`` into a Config, or raise ConfigError."""
    path = Path(envdir) / CONFIG_FILE
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError([about(path, "CONFIG_UNREADABLE",
                                 reason=e.strerror)])
    try:
        raw = YAML(typ="rt").load(source) or {}
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise ConfigError([about(f"{path}{line}", "CONFIG_NOT_YAML",
                                 problem=getattr(e, "problem", e))])
    check = _Checker(path)
    if not isinstance(raw, dict):
        raise ConfigError([about(path, "CONFIG_NOT_MAPPING")])
    check.unknown_keys(raw, SECTIONS, "section")
    cfg = Config(path=path, raw=raw)
    _cluster(cfg, raw.get("cluster") or {}, check, path.parent)
    cfg.params = {str(k): v for k, v in (raw.get("parameters") or {}).items()}
    _unit_for_limits(cfg, raw, check)
    _mail_params(cfg, raw, check)
    _pack_params(raw, check)
    _fixed_values(raw, check)
    leftout.check(raw, check)
    if isinstance(raw.get("parameters"), dict):
        for key in ("STRICT_UG_CONTROL", "LSB_JOB_CPULIMIT",
                    "ENFORCE_ONE_UG_LIMITS", "ENABLE_USER_RESUME"):
            yes_no(raw["parameters"], key, check)
    _hosts(cfg, raw.get("hosts") or {}, check)
    _groups(cfg, raw, check)
    rescheck.check(cfg, raw, check)
    _host_architectures(raw, check)
    _queues(cfg, raw.get("queues") or {}, check)
    cfg.apps = appconf.read(cfg, raw, check)
    cfg.projects = projectconf.read(cfg, raw, check)
    gpuconf.check(cfg, raw, check)
    check_host_spec(cfg, raw.get("parameters") or {}, check)
    limitcheck.check(cfg, raw, check)
    execconf.check_params(raw.get("parameters"), check)
    cwdconf.check_params(raw.get("parameters"), check)
    _priority_over_time(raw.get("parameters") or {}, check)
    logcheck.check(raw, check)
    ranges.check(raw, check)
    if not cfg.queues:
        check.errors.append(text("CONFIG_NO_QUEUE", path=path))
    for name in cfg.default_queues:
        if name not in cfg.queues:
            check.error(raw.get("parameters") or {}, "DEFAULT_QUEUE",
                        about(name, "BAD_QUEUE"))
    for name in str(cfg.params.get("LSB_DEFAULTQUEUE") or "").split():
        if name not in cfg.queues:
            check.error(raw.get("parameters") or {}, "LSB_DEFAULTQUEUE",
                        about(name, "BAD_QUEUE"))
    if check.errors:
        raise ConfigError(check.errors)
    return cfg


def _host_architectures(raw, check):
    """host_architectures: models of host_models, each with its strings."""
    node = raw.get("host_architectures")
    if node is None:
        return
    if not isinstance(node, dict):
        check.error(raw, "host_architectures",
                    text("CONFIG_HOST_ARCHITECTURES"))
        return
    models = raw.get("host_models") or {}
    for model, strings in node.items():
        if model not in models:
            check.error(node, model, text("CONFIG_ARCH_UNKNOWN_MODEL",
                                          model=model))
        elif not isinstance(strings, (str, list)) or isinstance(
                strings, list) and not all(isinstance(s, str)
                                           for s in strings):
            check.error(node, model, text("CONFIG_HOST_ARCHITECTURES"))


def _cluster(cfg, node, check, base):
    check.unknown_keys(node, CLUSTER_KEYS, "cluster")
    cfg.cluster_name = str(node.get("name", cfg.cluster_name))
    admins = node.get("admins", cfg.admins)
    cfg.admins = [str(a) for a in (admins.split() if isinstance(admins, str)
                                   else admins)]
    cfg.spool = (base / str(node.get("spool", "../spool"))).resolve()


def _hosts(cfg, node, check):
    defaults = node.get(DEFAULT_HOST) or {}
    check.unknown_keys(defaults, HOST_KEYS, "host")
    if not any(name != DEFAULT_HOST for name in node):
        # No hosts named: the cluster is the controller's own host.
        name = socket.gethostname()
        node = dict(node, **{name: {"launch": "local"}})
    for name, props in node.items():
        if name == DEFAULT_HOST:
            continue
        props = props or {}
        check.unknown_keys(props, HOST_KEYS, "host")
        merged = dict(defaults, **props)
        if str(merged.get("server", True)).lower() in ("false", "0", "no"):
            continue        # a client host: it submits, it runs no jobs
        launch = str(merged.get("launch", "local"))
        if launch not in LAUNCHES:
            check.error(props, "launch", text("CONFIG_ONE_OF",
                                               choices=", ".join(LAUNCHES)))
        elif launch == "auto":
            # The controller's own host runs its agent directly, not
            # over SSH to itself (what xce-migrate writes for LSF hosts).
            launch = "local" if _is_this_host(
                str(name), str(merged.get("address", name))) else "ssh"
        cfg.hosts[str(name)] = HostConf(
            name=str(name), address=str(merged.get("address", name)),
            launch=launch, mxj=_slots(merged, props, check),
            jl_u=integer(merged, "JL/U", check),
            ncpus=integer(merged, "ncpus", check),
            maxmem=integer(merged, "maxmem", check),
            type=str(merged.get("type", "")),
            model=str(merged.get("model", "")),
            resources=list(merged.get("resources") or []), raw=dict(merged),
            gpus=_gpus(merged, props, check),
            **_remote(cfg, str(name), launch, merged, check))
        windowconf.read_host(cfg.hosts[str(name)], props, defaults, check)


def _gpus(merged, props, check):
    """A host's declared GPUs (xce.model.gpus), or None: detect them."""
    if merged.get("gpus") is None:
        return None
    try:
        return gpuconf.declared(merged["gpus"])
    except gpuconf.DeviceError as e:
        check.error(props, "gpus", str(e))
        return None


def _is_this_host(*names):
    """Whether one of *names* is this machine's host name (short or
    qualified, in any letter case, as LSF compares host names)."""
    mine = _own_names()
    return any(n.lower() in mine for n in names)


@functools.lru_cache(maxsize=1)
def _own_names():
    # getfqdn may ask the resolver: once per process, not once per host.
    mine = set()
    for own in (socket.gethostname().lower(), socket.getfqdn().lower()):
        mine |= {own, own.split(".")[0]}
    return frozenset(mine)


def _groups(cfg, raw, check):
    for name, members in (raw.get("host_groups") or {}).items():
        cfg.host_groups[str(name)] = _words(members)
    for name, props in (raw.get("user_groups") or {}).items():
        members = props.get("members") if isinstance(props, dict) else props
        cfg.user_groups[str(name)] = _words(members)
    for what, groups in (("host_groups", cfg.host_groups),
                         ("user_groups", cfg.user_groups)):
        cycle = hostnames.find_cycle(groups)
        if cycle:
            check.error(raw, what, cycle)
    if not hostnames.find_cycle(cfg.user_groups):
        _group_admins(cfg, raw, check)


# A GROUP_ADMIN entry's rights, user5[full]: they govern live changes to
# the group (bconf), which xce does not have; job control is the same.
_ADMIN_RIGHTS = re.compile(r"\[[^\]]*\]$")


def _group_admins(cfg, raw, check):
    """GROUP_ADMIN of lsb.users: users and groups (expanded) who may
    control the jobs of every member of the group, nested groups' members
    included (LSF's default, STRICT_UG_CONTROL=N: whatever group the job
    was submitted under).  A group whose members are ``all`` gives its
    administrators no one by membership: LSF allows that only with
    STRICT_UG_CONTROL, where they control the jobs submitted with -G to
    it (cfg.admins_by_group, Config.group_admins_of)."""
    for name, props in (raw.get("user_groups") or {}).items():
        if not isinstance(props, dict) or not props.get("GROUP_ADMIN"):
            continue
        words = [_ADMIN_RIGHTS.sub("", w)
                 for w in _words(props.get("GROUP_ADMIN"))]
        try:
            admins = _named_users(hostnames.expand(words, cfg.user_groups))
            members = _named_users(hostnames.expand([str(name)],
                                                    cfg.user_groups))
        except hostnames.PatternError as e:
            check.error(props, "GROUP_ADMIN", str(e))
            continue
        cfg.admins_by_group[str(name)] = frozenset(admins)
        for member in members:
            cfg.group_admins.setdefault(member, set()).update(admins)


def _named_users(names):
    return [n for n in names if n != "all" and not n.startswith("~")]


def _words(value):
    if value is None:
        return []
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def _queue_hosts(cfg, q, value, node, check):
    """HOSTS: groups, ranges, wildcards, ~exclusions, +N, others; the
    +N preference levels of its hosts go in q.host_levels."""
    members = _words(value)
    if not members or members == ["all"]:
        return None
    marked = hostnames.first_host_marked(members)
    if marked:          # LSF's first execution host candidates
        check.error(node, "HOSTS", text("CONFIG_FIRST_HOST", value=marked))
        return None
    universe = list(cfg.hosts)
    others = [m for m in members
              if hostnames.strip_preference(m) == "others"]
    try:
        named = hostnames.expand([m for m in members if m not in others],
                                 cfg.host_groups, universe)
        levels = hostnames.preference_levels(members, cfg.host_groups,
                                             universe)
    except hostnames.PatternError as e:
        check.error(node, "HOSTS", str(e))
        return None
    if others:
        named += [h for h in universe if h not in named]
    if levels:
        q.host_levels = {h: levels.get(h, levels.get("others", 0))
                         for h in named}
    return named


def _priority_over_time(params, check):
    """JOB_PRIORITY_OVER_TIME: increment/interval (xce.model.userprio)."""
    try:
        userprio.over_time(params.get("JOB_PRIORITY_OVER_TIME"))
    except ValueError as e:
        check.error(params, "JOB_PRIORITY_OVER_TIME",
                    text("CONFIG_PRIORITY_OVER_TIME", value=e.args[0]))


def _queue_users(cfg, q, value, node, check):
    members = _words(value)
    if not members:
        return
    try:
        names = hostnames.expand(members, cfg.user_groups)
    except hostnames.PatternError as e:
        check.error(node, "USERS", str(e))
        return
    q.users_excluded = [n[1:] for n in names if n.startswith("~")]
    names = [n for n in names if not n.startswith("~")]
    q.users = None if "all" in names else names


def _queue_admins(cfg, props, check):
    """ADMINISTRATORS: users and user groups (expanded) who may act on
    any job in the queue."""
    members = _words(props.get("ADMINISTRATORS"))
    try:
        return hostnames.expand(members, cfg.user_groups) if members else []
    except hostnames.PatternError as e:
        check.error(props, "ADMINISTRATORS", str(e))
        return []


def _remote(cfg, name, launch, merged, check):
    """How the controller reaches a host's agent, and where its spool is.

    A local agent shares the cluster spool; a remote one (launch ssh or
    none) gets its own directory, hosts/<name>, so that hosts sharing a
    file system never share an agent's journal or socket."""
    out = {"port": integer(merged, "port", check) or 22,
           "ssh_timeout": number(merged, "ssh_timeout", check) or 5.0}
    for key in ("user", "key_file", "known_hosts", "python"):
        if merged.get(key) is not None:
            out[key] = str(merged[key])
    base = cfg.path.parent
    if merged.get("spool") is not None:
        out["spool"] = (base / Path(str(merged["spool"])).expanduser()
                        ).resolve()
    elif launch == "local":
        out["spool"] = cfg.spool
    else:
        out["spool"] = cfg.spool / "hosts" / name
    for key in ("key_file", "known_hosts"):
        if key in out:
            out[key] = str((base / Path(out[key]).expanduser()).resolve())
    return out


def _queues(cfg, node, check):
    for name, props in node.items():
        props = props or {}
        check.unknown_keys(props, QUEUE_KEYS, "queue")
        unit = cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB")
        q = QueueConf(name=str(name), raw=dict(props))
        timed = queuetime.read_queue(q, props, check)
        if "PRIORITY" not in timed:
            q.priority = integer(props, "PRIORITY", check) or 1
        q.description = " ".join(str(props.get("DESCRIPTION", "")).split())
        _queue_users(cfg, q, props.get("USERS"), props, check)
        q.admins = _queue_admins(cfg, props, check)
        q.hosts = _queue_hosts(cfg, q, props.get("HOSTS"), props, check)
        for key in ("UJOB_LIMIT", "QJOB_LIMIT", "HJOB_LIMIT"):
            if key not in timed:
                setattr(q, key.lower(), integer(props, key, check))
        if "PJOB_LIMIT" not in timed:
            q.pjob_limit = number(props, "PJOB_LIMIT", check)
        q.host_limit = positive(props, "HOSTLIMIT_PER_JOB", check)
        q.exclusive = str(props.get("EXCLUSIVE", "N")).upper() in ("Y", "YES")
        if props.get("PREEMPTION"):
            q.preemption = " ".join(str(props["PREEMPTION"]).split())
        q.slot_reserve = slot_reserve(props, check)
        q.requeue = requeue_values(props, check)
        q.backfill = yes_no(props, "BACKFILL", check)
        q.runlimit, q.runlimit_hosts = queuelimits.run_limit(cfg, props,
                                                            check)
        q.estimated_runtime = estimate(props, check)
        q.tasks = appconf.task_limit(props, check)
        q.job_sizes, q.container = appconf.sizes_and_container(props, check)
        q.ignore_deadline = yes_no(props, "IGNORE_DEADLINE", check)
        q.memlimit = limit(props, "MEMLIMIT",
                            lambda v: units.memory_kb(v, unit), check)
        execconf.read_queue(q, props, check)
        queueaccept.read_queue(q, props, check)
        q.nice = integer(props, "NICE", check) or 0    # range: config.ranges
        q.rlimits = queue_limits(cfg, props, unit, check)
        windowconf.read_queue(q, props, check)
        controlconf.read_queue(q, props, unit, check)
        cfg.queues[q.name] = q


def _fixed_values(raw, check):
    """A key whose one value is xce's behaviour (fixedkeys.FIXED) refuses the
    others, with the reason."""
    params = raw.get("parameters") or {}
    owners = [(params, ("params", "lsf.conf"))] + [
        (node, ("queue",)) for node in (raw.get("queues") or {}).values()
        if isinstance(node, dict)]
    for node, scopes in owners if isinstance(params, dict) else ():
        for key, value in node.items():
            for scope in scopes:
                why = fixedkeys.fixed_problem(scope, str(key), value)
                if why is not None:
                    check.error(node, key, why)


def _pack_params(raw, check):
    """bsub -pack goes on past a failing line: LSB_PACK_SKIP_ERROR=Y is
    what xce does, N (stop at the first failure) is refused."""
    node = raw.get("parameters") or {}
    value = node.get("LSB_PACK_SKIP_ERROR") if isinstance(node, dict) \
        else None
    if value is not None and value is not True and \
            str(value).strip().upper() not in ("Y", "YES"):
        check.error(node, "LSB_PACK_SKIP_ERROR",
                    text("CONFIG_PACK_SKIP_ERROR"))


def _mail_params(cfg, raw, check):
    """LSB_MAILPROG and LSB_MAILSERVER must be usable (xce.model.mailconf)."""
    from xce.model import mailconf
    node = raw.get("parameters") or {}
    for key, read, msg in (("LSB_MAILPROG", mailconf.program,
                            "CONFIG_MAILPROG"),
                           ("LSB_MAILSERVER", mailconf.server,
                            "CONFIG_MAILSERVER")):
        if cfg.params.get(key) not in (None, ""):
            try:
                read(cfg.params[key])
            except mailconf.BadMailSetting:
                check.error(node, key, text(msg, value=cfg.params[key]))


def _slots(merged, props, check):
    """MXJ: a number, or "!" (one slot per CPU, as in lsb.hosts)."""
    if str(merged.get("MXJ", "")).strip() == "!":
        return None
    return integer(merged, "MXJ", check if "MXJ" in props else _Quiet())


class _Quiet:
    def error(self, *args):
        pass


def _unit_for_limits(cfg, raw, check):
    """LSF_UNIT_FOR_LIMITS: one of LSF's units (KB when unset)."""
    value = cfg.params.get("LSF_UNIT_FOR_LIMITS")
    if value is not None:
        try:
            units.normal_unit(value)
        except ValueError as e:
            check.error(raw["parameters"], "LSF_UNIT_FOR_LIMITS", str(e))
