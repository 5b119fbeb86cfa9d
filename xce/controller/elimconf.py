"""Resources that hosts report through their elims: what the agents are
told (LSF_SERVERDIR and the resource definitions), and what the
controller keeps of their reports.

The definitions are read here from the configuration's ``resources``
(lsf.shared's Resource section) in the smallest way: TYPE, INTERVAL and
INCREASING.  When the cluster's one resource-definition model exists,
``definitions`` is the single place to switch to it.
"""

import socket

ELIM_PROTOCOL = 8       # the first agent that runs elims
MAX_VALUES = 1024       # resources kept per host report
MAX_STRING = 256
TYPES = {"numeric": "Numeric", "boolean": "Boolean", "string": "String"}


def definitions(cfg):
    """{name: {"type", "interval", "dynamic", "increasing"}} of the
    configured resources of a known TYPE; cached on the configuration."""
    cached = getattr(cfg, "_elim_definitions", None)
    if cached is not None:
        return cached
    out = {}
    for name, props in (cfg.raw.get("resources") or {}).items():
        props = props if isinstance(props, dict) else {}
        kind = TYPES.get(str(props.get("TYPE", "Boolean")).lower())
        if kind is None:
            continue
        interval = _seconds(props.get("INTERVAL"))
        out[str(name)] = {
            "type": kind, "interval": interval,
            "dynamic": interval is not None,
            "increasing": str(props.get("INCREASING", "")).upper() in (
                "Y", "YES", "TRUE")}
    cfg._elim_definitions = out
    return out


def more_is_better(cfg):
    """Numeric resources whose larger values make a host more attractive
    (INCREASING=N): order[] sorts them descending, as LSF does."""
    return frozenset(name for name, d in definitions(cfg).items()
                     if d["type"] == "Numeric" and not d["increasing"])


def message(cfg, host):
    serverdir = cfg.params.get("LSF_SERVERDIR")
    serverdir = str(serverdir) if serverdir and \
        str(serverdir).startswith("/") else None
    return {"op": "elim", "serverdir": serverdir,
            "resources": definitions(cfg),
            # LSF_MASTER=Y on the host the controller runs on.
            "master": host == socket.gethostname()}


def send(ctl, host):
    """Tell HOST's agent what its elims need (after its hello, and at a
    reconfig); agents older than the elim protocol are not told."""
    link = ctl.links.get(host)
    if link is None or ctl.hosts[host].get("protocol", 1) < ELIM_PROTOCOL:
        return
    link.queue(message(ctl.cfg, host))


def values(cfg, ext):
    """The reported values the controller keeps: defined names only,
    each of its definition's type (the agent checked already; a value
    that does not fit is dropped, not guessed)."""
    defs = definitions(cfg)
    out = {}
    if not isinstance(ext, dict):
        return out
    for name, value in ext.items():
        d = defs.get(name)
        if d is None or len(out) >= MAX_VALUES:
            continue
        kind = d["type"]
        if kind == "Numeric" and isinstance(value, (int, float)) and \
                not isinstance(value, bool):
            out[name] = float(value)
        elif kind == "Boolean" and isinstance(value, bool):
            out[name] = value
        elif kind == "String" and isinstance(value, str):
            out[name] = value[:MAX_STRING]
    return out


def _seconds(value):
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None         # "()" or absent: a static resource
    return seconds if seconds > 0 else None
