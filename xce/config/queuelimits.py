"""A queue's CPULIMIT, FILELIMIT, DATALIMIT, STACKLIMIT, CORELIMIT,
SWAPLIMIT, PROCESSLIMIT and THREADLIMIT (xce.lang.rlimits reads them)."""

from xce.errors import text
from xce.lang import rlimits, units


def queue_limits(cfg, props, unit, check):
    """{spec key: [default, maximum]} of the limits the queue sets (sizes
    in KB, counts, CPU time as [minutes, host or model or None]); a bad
    value is reported against its key and left out."""
    out = {}
    check_host_spec(cfg, props, check)
    for limit in rlimits.LIMITS:
        if limit.name not in props:
            continue
        try:
            pair = rlimits.queue_value(limit, props[limit.name], unit)
        except rlimits.LimitError as e:
            check.error(props, limit.name, text(e.key, e.value, name=e.name))
            continue
        except ValueError as e:         # none, or more than two words
            check.error(props, limit.name, str(e))
            continue
        if pair is None:
            continue
        if limit.kind == "time" and not normalisers_known(cfg, pair, props,
                                                     limit.name, check):
            continue
        out[limit.key] = [list(v) if isinstance(v, tuple) else v
                          for v in pair]
    return out


def run_limit(cfg, props, check):
    """RUNLIMIT = [default] maximum, each [hour:]minute[/host or model]:
    ((default, maximum) minutes or None, (their hosts)).  Both above 0,
    the default not above the maximum; a host or model must be known."""
    value = props.get("RUNLIMIT")
    none = (None, (None, None))
    if value is None or str(value).strip() in ("", "-"):
        return none
    try:
        pair = units.limit_pair(value, units.minutes_of)
    except ValueError as e:
        check.error(props, "RUNLIMIT", str(e))
        return none
    (default, low_host), (maximum, high_host) = pair
    if min(default, maximum) <= 0 or default > maximum:
        check.error(props, "RUNLIMIT", text("CONFIG_LIMIT_PAIR", value=value))
        return none
    for host in (low_host, high_host):
        if host is not None and not _known(cfg, host):
            check.error(props, "RUNLIMIT", text("BAD_HOST_SPEC", host))
            return none
    return (default, maximum), (low_host, high_host)


def check_host_spec(cfg, node, check):
    """DEFAULT_HOST_SPEC (of a queue or of parameters) names a configured
    host or model: it normalises CPU limits."""
    value = node.get("DEFAULT_HOST_SPEC")
    if value is None or str(value).strip() in ("", "-"):
        return
    name = str(value).strip()
    if not _known(cfg, name):
        check.error(node, "DEFAULT_HOST_SPEC", text("BAD_HOST_SPEC", name))


def _known(cfg, name):
    return name in cfg.hosts or name in (cfg.raw.get("host_models") or {})


def normalisers_known(cfg, pair, props, key, check):
    """A normalising /host or /model must be a configured one."""
    for _, host in pair:
        if host is not None and not _known(cfg, host):
            check.error(props, key, text("BAD_HOST_SPEC", host))
            return False
    return True
