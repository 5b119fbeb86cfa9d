"""lshosts and lsload: static host facts and load indices from the store.

Agents report ncpus, maxmem, maxswp, type and model in their hello; load
indices appear when an agent reports them (``load`` in the host row) and
show as ``-`` until then.  Layouts: openlava's lshosts.c and the LSF 10.1
lsload header (reference section 4.3).
"""

from xce.client.text.units import host_memory, load_value
from xce.errors import XceError, about
from xce.lang import loadthresh
from xce.model import states
from xce.model.resources import Catalog

LSHOSTS_HEADER = (f"{'HOST_NAME':<11.11} {'type':>7.7} {'model':>8.8} "
                  f"{'cpuf':>5.5} {'ncpus':>5.5} {'maxmem':>6.6} "
                  f"{'maxswp':>6.6} {'server':>6.6} {'RESOURCES':>9.9}")
LSHOSTS_WIDE = (f"{'HOST_NAME':<25.25} {'type':>10.10} {'model':>11.11} "
                f"{'cpuf':>5.5} {'ncpus':>5.5} {'maxmem':>6.6} "
                f"{'maxswp':>6.6} {'server':>6.6} {'RESOURCES':>9.9}")
# lsload: (index, header width, format of a value)
LOAD_INDICES = (("r15s", 6, "{:.1f}"), ("r1m", 6, "{:.1f}"),
                ("r15m", 6, "{:.1f}"), ("ut", 5, "{:.0%}"),
                ("pg", 6, "{:.1f}"), ("ls", 4, "{:.0f}"),
                ("it", 6, "{:.0f}"), ("tmp", 6, "mem"), ("swp", 6, "mem"),
                ("mem", 6, "mem"))
LONG_ONLY = (("io", 6, "{:.0f}"),)


def pick(hosts, names):
    """The hosts named (all when none); unknown names are an error."""
    if not names:
        return hosts
    by_name = {h["name"]: h for h in hosts}
    for n in names:
        if n not in by_name:
            raise XceError(about(n, "UNKNOWN_HOST_NAME"))
    return [by_name[n] for n in names]


def _booleans(host, catalog):
    """The host's Boolean resources, as lshosts lists them (values of
    Numeric and String ones are lshosts -s's)."""
    values = catalog.host_values((host.get("conf") or {}).get("resources"))
    return [n for n, v in values.items() if v is True]


def _resources(host, catalog):
    return "(" + " ".join(_booleans(host, catalog)) + ")"


def _cpuf(host, models):
    """The CPU factor of the host's model (host_models), else 1.0."""
    try:
        return float((models or {}).get(host["model"]) or 1.0)
    except (TypeError, ValueError):
        return 1.0


def static_rows(hosts, catalog):
    """lshosts -s rows of host-based static values: (name, value, host)."""
    rows = []
    for h in hosts:
        values = catalog.host_values((h.get("conf") or {}).get("resources"))
        for name, value in values.items():
            if value is not True:
                rows.append({"name": name, "total": value,
                             "hosts": [h["name"]]})
    return rows


def lshosts_table(hosts, wide=False, catalog=None, models=None):
    catalog = catalog or Catalog.build({})
    rows = [LSHOSTS_WIDE if wide else LSHOSTS_HEADER]
    for h in hosts:
        name, typ, model = h["name"], h["type"] or "-", h["model"] or "-"
        if wide:
            head = f"{name:<25} {typ:>10} {model:>11} "
        else:
            head = f"{name:<11.11} {typ:>7.7} {model:>8.8} "
        rows.append(head + f"{_cpuf(h, models):>5.1f} {h['ncpus'] or '-':>5} "
                    f"{host_memory(h['maxmem']):>6} {host_memory(h['maxswp']):>6} "
                    f"{'Yes':>6} {_resources(h, catalog)}")
    return "\n".join(rows)


def lshosts_long(hosts, catalog=None, models=None):
    catalog = catalog or Catalog.build({})
    out = []
    for h in hosts:
        res = _booleans(h, catalog)
        out += ["", f"HOST_NAME:  {h['name']}",
                f"{'type':<10.10} {'model':>11.11} {'cpuf':>5} {'ncpus':>5} "
                f"{'maxmem':>6} {'maxswp':>6} {'server':>6}",
                f"{h['type'] or '-':<10} {h['model'] or '-':>11} "
                f"{_cpuf(h, models):>5.1f} "
                f"{h['ncpus'] or '-':>5} {host_memory(h['maxmem']):>6} "
                f"{host_memory(h['maxswp']):>6} {'Yes':>6}",
                "", "RESOURCES: " + ("(" + " ".join(map(str, res)) + ")"
                                     if res else "Not defined"),
                "RUN_WINDOWS:  (always open)", ""] + lim_threshold_rows(h)
    return "\n".join(out).lstrip("\n")


# lshosts -l LOAD_THRESHOLDS: (index, width, format) in LIM's order.
LIM_THRESHOLD_CELLS = (("r15s", 6, "{:.1f}"), ("r1m", 6, "{:.1f}"),
                       ("r15m", 6, "{:.1f}"), ("ut", 5, "{:.0%}"),
                       ("pg", 6, "{:.1f}"), ("io", 6, "{:.0f}"),
                       ("ls", 5, "{:.0f}"), ("it", 5, "{:.0f}"),
                       ("tmp", 6, "{:.0f}M"), ("swp", 6, "{:.0f}M"),
                       ("mem", 6, "{:.0f}M"))


def _lim_thresholds(host):
    return (host.get("conf") or {}).get("lim_thresholds") or {}


def lim_threshold_rows(host):
    """lshosts -l's LOAD_THRESHOLDS table: LIM's busy thresholds of the
    host (lsf.cluster), ``-`` where none is set."""
    given = _lim_thresholds(host)
    return ["LOAD_THRESHOLDS:",
            "".join(f"{n:>{w}}" for n, w, _ in LIM_THRESHOLD_CELLS),
            "".join(_column(load_value(given.get(n), f), w)
                    for n, w, f in LIM_THRESHOLD_CELLS)]


def _column(cell, width):
    """*cell* right-aligned in *width*, a blank before one that fills it."""
    return f"{cell:>{width}}" if len(cell) < width else " " + cell


def busy_indices(host):
    """The indices whose load is beyond the host's LIM threshold: lsload
    shows it busy and stars them (LIM's busy status, which batch
    dispatch does not look at)."""
    given, load = _lim_thresholds(host), host.get("load") or {}
    return {name for name, limit in given.items()
            if loadthresh.beyond({name: (limit, None)}, load) is not None}


def _status(host):
    """lsload's status: unavail when the agent is lost, busy past a LIM
    threshold, else ok; batch closures (bhosts) do not show here."""
    if host["status"] in states.HOST_DOWN:
        return states.HOST_UNAVAIL
    return states.LIM_BUSY if busy_indices(host) else states.HOST_OK


def external_indices(hosts):
    """(name, width, format) of the numeric resources the hosts' elims
    report, by name: lsload -l's (and bhosts -l's) extra columns; LSF
    shows only numeric external indices there."""
    names = set()
    for h in hosts:
        ext = (h.get("load") or {}).get("ext") or {}
        names.update(n for n, v in ext.items()
                     if isinstance(v, (int, float)) and
                     not isinstance(v, bool))
    return tuple((n, max(len(n), 6) + 1, "{:.1f}") for n in sorted(names))


def _index_value(load, name):
    if name in load:
        return load[name]
    return (load.get("ext") or {}).get(name)


def _load_cell(load, name, fmt, busy, width):
    """One lsload value, right-aligned; ``*`` before it when beyond its
    LIM threshold, and a blank before a value that fills its column."""
    return _column(("*" if busy else "") +
                   load_value(_index_value(load, name), fmt), width)


def lsload_table(hosts, long_format=False, wide=False):
    indices = LOAD_INDICES[:6] + LONG_ONLY + LOAD_INDICES[6:] + \
        external_indices(hosts) if long_format else LOAD_INDICES
    name_w = 25 if wide or long_format else 15
    head = f"{'HOST_NAME':<{name_w}} {'status':>6}" + "".join(
        f"{n:>{w}}" for n, w, _ in indices)
    rows = [head]
    for h in hosts:
        load = h.get("load") or {}
        name = h["name"] if wide or long_format else h["name"][:name_w]
        status = _status(h)
        row = f"{name:<{name_w}} {status:>6}"
        if status != states.HOST_UNAVAIL:
            busy = busy_indices(h)
            row += "".join(_load_cell(load, n, f, n in busy, w)
                           for n, w, f in indices)
        rows.append(row)
    return "\n".join(rows)
