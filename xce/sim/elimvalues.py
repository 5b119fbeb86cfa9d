"""What the hosts' elims would report, for a replay (xce sim
--elim-values FILE): the values select[], order[] and rusage[] of a
dynamic resource read, given as the elims give them.

One line per host in the elim's own load update string, after the host
name: ``HOST n name1 value1 ... namen valuen``; HOST ``all`` gives every
host the values (a host's own line wins).  ``#`` starts a comment.  A
shared resource (ResourceMap ``[all]``, ``[hostA hostB]``) takes the
value a host of its location reports, as live.  The values hold for the
whole replay.

Each value is kept as the controller keeps an agent's report
(xce.controller.elimconf.values): a resource with no site definition,
or a value not of its TYPE, is an error that names the line.  A built-in
load index (r1m, ut, pg, it, ...) is the host's load, as a live elim's
value replaces the agent's own measurement: the load thresholds of hosts
and queues, select[] and order[] read it (the simulator measures no
load otherwise); a value a live agent would refuse is an error.
"""

from xce.controller import elimconf
from xce.model.resources import (LOAD_INDICES, load_index_value,
                                 reported_value)


class ElimValuesError(ValueError):
    """A line of the file xce sim cannot take; str() says which."""


def read(path, cfg):
    """{host: {resource: value}} from the file at *path*."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ElimValuesError(f"{path}: {getattr(e, 'strerror', None) or e}")
    common, own = {}, {}
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path}, line {number}"
        host, values = words[0], _values(words[1:], cfg, where)
        if host == "all":
            common.update(values)
        elif host in cfg.hosts:
            own.setdefault(host, {}).update(values)
        else:
            raise ElimValuesError(f"{where}: {host} is not a host of the "
                                  "cluster")
    return {name: {**common, **own.get(name, {})} for name in cfg.hosts
            if common or name in own}


def _values(words, cfg, where):
    try:
        count = int(words[0]) if words else -1
    except ValueError:
        count = -1
    if count < 0 or len(words) != 1 + 2 * count:
        raise ElimValuesError(f"{where}: not a load update string (n name1 "
                              "value1 ... namen valuen)")
    cat = cfg.catalog
    typed, load = {}, {}
    for i in range(count):
        name, raw = words[1 + 2 * i], words[2 + 2 * i]
        if name in LOAD_INDICES:
            load[name], why = load_index_value(name, raw)
            if why is not None:
                raise ElimValuesError(f"{where}: built-in load index {name}: "
                                      f"{raw} is {why}")
            continue
        found = cat.get(name)
        if found is None or found.builtin:
            raise ElimValuesError(f"{where}: {name} is not a site resource "
                                  "(resources: in xce.yaml)")
        value = reported_value(found.type, raw)
        if value is None:
            raise ElimValuesError(f"{where}: {name}: {raw} is not a "
                                  f"{found.type} value")
        typed[name] = value
    return {**elimconf.values(cfg, typed), **load}
