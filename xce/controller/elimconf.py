"""Resources that hosts report through their elims: what the agents are
told (LSF_SERVERDIR and the site's resource definitions), and what the
controller keeps of their reports.  The definitions come from the one
resource model (cfg.catalog, xce.model.resources).
"""

import shlex
import socket

from xce.model.resources import Catalog, NUMERIC

ELIM_PROTOCOL = 8       # the first agent that runs elims
MAX_VALUES = 1024       # resources kept per host report
MAX_STRING = 256


def _catalog(cfg):
    cat = getattr(cfg, "catalog", None)
    if cat is None:     # a configuration built by hand (tests)
        cat = cfg.catalog = Catalog.build(cfg.raw.get("resources"))
    return cat


def definitions(cfg):
    """{name: {"type", "interval", "dynamic"}} of the site's resources,
    as the agent's elim runner takes them."""
    return {d.name: {"type": d.type, "interval": d.interval,
                     "dynamic": d.dynamic}
            for d in _catalog(cfg).site()}


def more_is_better(cfg):
    """Site resources whose larger values make a host more attractive
    (Numeric, INCREASING=N): order[] sorts them descending, as LSF does."""
    cached = getattr(cfg, "_more_is_better", None)
    if cached is None:
        cached = cfg._more_is_better = frozenset(
            d.name for d in _catalog(cfg).site() if d.bigger_is_better)
    return cached


def message(cfg, host):
    serverdir = cfg.params.get("LSF_SERVERDIR")
    serverdir = str(serverdir) if serverdir and \
        str(serverdir).startswith("/") else None
    params = cfg.params
    debug = str(params.get("LSF_ELIM_DEBUG", "")).strip().upper()
    return {"op": "elim", "serverdir": serverdir,
            "resources": definitions(cfg),
            # lsf.conf's MELIM settings (ranges.py checked the numbers).
            "blocktime": _whole(params.get("LSF_ELIM_BLOCKTIME")),
            "restarts": _whole(params.get("LSF_ELIM_RESTARTS")),
            "debug": debug in ("Y", "YES", "TRUE"),
            # lsf.cluster's ELIMARGS: every elim's command-line arguments.
            "args": _args(params.get("ELIMARGS")),
            # lsf.cluster's EXINTERVAL: seconds between load reports.
            "exinterval": _whole(params.get("EXINTERVAL")),
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
    """The reported values the controller keeps: site resources only,
    each of its definition's type (the agent checked already; a value
    that does not fit is dropped, not guessed)."""
    cat = _catalog(cfg)
    out = {}
    if not isinstance(ext, dict):
        return out
    for name, value in ext.items():
        d = cat.get(name)
        if d is None or d.builtin or len(out) >= MAX_VALUES:
            continue
        if d.type == NUMERIC and isinstance(value, (int, float)) and \
                not isinstance(value, bool):
            out[name] = float(value)
        elif d.type == "Boolean" and isinstance(value, bool):
            out[name] = value
        elif d.type == "String" and isinstance(value, str):
            out[name] = value[:MAX_STRING]
    return out


def _whole(value):
    """A whole-number setting, None when unset."""
    if value is None or str(value).strip() in ("", "-"):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _args(text):
    """ELIMARGS as words, quotes as a shell reads them (unbalanced quotes:
    split on blanks)."""
    text = str(text or "")
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()
