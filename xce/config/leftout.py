"""Keys xce leaves out are refused in xce.yaml's parameters, queues, hosts
and limits.

The migrator leaves a *not carried* key (xce.config.keys, with its reason)
out of the xce.yaml it writes; written there by hand, the key would seem to
take effect while nothing acts on it, so the loader refuses it with the
same reason, as it does a profile's (xce.config.appconf).
"""

from xce.config import keys
from xce.errors import text

# xce.yaml section -> the key table scopes its owners' keys are looked up in.
_SECTIONS = (("queues", ("queue",)), ("hosts", ("host", "cluster_host")))
# The lsb.params, lsf.conf and lsf.cluster keys share one flat mapping.
_PARAMETER_SCOPES = ("params", "lsf.conf", "lsf.cluster")


def check(raw, check_):
    params = raw.get("parameters")
    if isinstance(params, dict):
        _refuse(params, _PARAMETER_SCOPES, check_)
    for section, scopes in _SECTIONS:
        node = raw.get(section)
        for props in node.values() if isinstance(node, dict) else ():
            if isinstance(props, dict):
                _refuse(props, scopes, check_)
    limits = raw.get("limits")
    for props in limits if isinstance(limits, list) else ():
        if isinstance(props, dict):
            _refuse(props, ("limit",), check_)


def _refuse(props, scopes, check_):
    for name in props:
        for scope in scopes:
            key = keys.lookup(scope, str(name))
            if key.why == keys.UNKNOWN_WHY:
                continue            # not this scope's (or xce's own)
            if key.status == keys.NOT_CARRIED:
                check_.error(props, name,
                             text("CONFIG_APP_LEFT_OUT", why=key.why))
            break
