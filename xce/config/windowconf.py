"""Time windows and load thresholds of queues and hosts in xce.yaml:
queue DISPATCH_WINDOW, RUN_WINDOW and r15s ... mem (lsb.queues), host
DISPATCH_WINDOW and the load-index columns (lsb.hosts), and a host's
lim_thresholds (lsf.cluster's load columns: LIM's busy thresholds).

A malformed window or threshold is refused with a ``file:line`` error
naming the key; what is read goes into QueueConf/HostConf for the
scheduler (xce.controller.windows) and the commands.
"""

from xce.errors import text
from xce.lang import loadthresh, timewindow


def read_queue(q, props, check):
    q.dispatch_window = _window(props, "DISPATCH_WINDOW", check)
    q.run_window = _window(props, "RUN_WINDOW", check)
    q.thresholds = _thresholds(props, check)


def read_host(hc, props, defaults, check):
    """A host's own keys, else the ``default`` row's (*defaults*)."""
    nodes = (props, defaults)
    hc.dispatch_window = _window(nodes, "DISPATCH_WINDOW", check)
    hc.thresholds = _thresholds(nodes, check)
    hc.lim_thresholds = _lim_thresholds(_node(nodes, "lim_thresholds"),
                                        check)


def _node(nodes, key):
    """The first of *nodes* that sets *key* (errors name its line)."""
    for node in nodes if isinstance(nodes, tuple) else (nodes,):
        if key in node:
            return node
    return None


def _window(nodes, key, check):
    node = _node(nodes, key)
    if node is None:
        return None
    try:
        return timewindow.parse(node[key])
    except timewindow.WindowError as e:
        check.error(node, key, text("CONFIG_TIME_WINDOW", problem=e))
        return None


def _thresholds(nodes, check):
    found = {}
    for name in loadthresh.INDICES:
        node = _node(nodes, name)
        if node is None:
            continue
        try:
            pair = loadthresh.parse(node[name])
        except loadthresh.ThresholdError as e:
            check.error(node, name, text("CONFIG_THRESHOLD", problem=e))
            continue
        if pair != (None, None):
            found[name] = pair
    return found


def _lim_thresholds(node, check):
    """{index: threshold} of a host's lim_thresholds: one number each, 0
    or more; ut above 1 is a percentage, as LIM reads it."""
    if node is None:
        return {}
    given = node["lim_thresholds"]
    if not isinstance(given, dict):
        check.error(node, "lim_thresholds",
                    text("CONFIG_LIM_THRESHOLDS", problem="not a mapping "
                         "of load index to threshold"))
        return {}
    found = {}
    for name, value in given.items():
        if name not in loadthresh.INDICES:
            problem = (f"{name} is not a load index "
                       f"({' '.join(loadthresh.INDICES)})")
        elif isinstance(value, bool) or \
                not isinstance(value, (int, float)) or \
                value != value or value < 0 or value == float("inf"):
            problem = f"{name}: {value!r} is not a number, 0 or more"
        else:
            found[name] = float(value) / 100 if name == "ut" and value > 1 \
                else float(value)
            continue
        check.error(given, name, text("CONFIG_LIM_THRESHOLDS",
                                      problem=problem))
    return found
