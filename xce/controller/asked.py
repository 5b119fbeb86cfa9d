"""bsub -m and bmod -m against the configuration.

At submission the list must name known hosts or host groups and, unless
it says ``others``, at least one host the queue uses (LSF refuses the job
otherwise).  For the scheduler each distinct list becomes one shared
asked.AskedHosts, built once per configuration: the scheduler keys its
per-pass candidate lists by that object.
"""

from xce.config.lsf import hostnames
from xce.errors import text
from xce.lang import hostlist
from xce.scheduler import asked

_SHARED = {}            # words -> (cfg, AskedHosts)
_GROUPS = {}            # "cfg" -> (cfg, group -> member hosts)
_CACHE_MAX = 20000


def problem(cfg, q, words):
    """Why *words* (the -m list as given) cannot be used with queue *q*;
    None when it can.  The text is bsub's before ". Job not submitted."."""
    try:
        pairs = hostlist.parse(words)
    except hostlist.BadHostList as e:
        return str(e)
    groups = _groups(cfg)
    bad = asked.unknown(pairs, cfg.hosts, groups)
    if bad is not None:
        return text("BAD_HOST", words[bad])
    if q is None or q.hosts is None:
        return None
    found = asked.expand(pairs, cfg.hosts, groups)
    if found.others is not None or set(found.levels) & set(q.hosts):
        return None
    first = next(w for w, (n, _) in zip(words, pairs) if n != hostlist.OTHERS)
    return text("QUEUE_HOST", first)


def view(cfg, words, excluded=None):
    """The scheduler's AskedHosts for a job's list, or None without one.
    Names no longer configured (after a reconfig) simply match no host.
    *excluded*: hosts the job may no longer use (exclusive requeue)."""
    if excluded:
        key = ("excluded", tuple(words or ()), tuple(sorted(excluded)))
        found = _SHARED.get(key)
        if found is None or found[0] is not cfg:
            found = (cfg, asked.without(view(cfg, words), excluded))
            _SHARED[key] = found
        return found[1]
    if not words:
        return None
    key = tuple(words)
    found = _SHARED.get(key)
    if found is not None and found[0] is cfg:
        return found[1]
    try:
        pairs = hostlist.parse(words)
    except hostlist.BadHostList:
        pairs = []
    value = asked.expand(pairs, cfg.hosts, _groups(cfg))
    if len(_SHARED) >= _CACHE_MAX:
        _SHARED.clear()
    _SHARED[key] = (cfg, value)
    return value


def _groups(cfg):
    """Host group -> member host names (nested groups, ranges, `all` and
    wildcards resolved), once per configuration."""
    found = _GROUPS.get("cfg")
    if found is not None and found[0] is cfg:
        return found[1]
    universe = list(cfg.hosts)
    members = {}
    for name in cfg.host_groups:
        try:
            members[name] = hostnames.expand([name], cfg.host_groups,
                                             universe)
        except hostnames.PatternError:
            members[name] = []      # the config check reports it
    _GROUPS["cfg"] = (cfg, members)
    return members


_QUEUE_PREFER = {}      # queue name -> (its QueueConf, AskedHosts or None)


def queue_prefer(q):
    """The scheduler's view of queue *q*'s HOSTS preference levels (an
    AskedHosts, built once per configuration), or None when they do not
    order its hosts (no +N, or all at one level)."""
    found = _QUEUE_PREFER.get(q.name)
    if found is None or found[0] is not q:
        levels = asked.AskedHosts(q.host_levels) if q.host_levels else None
        found = (q, levels if levels is not None and levels.ranked
                 else None)
        _QUEUE_PREFER[q.name] = found
    return found[1]
