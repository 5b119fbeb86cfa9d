"""The CPULIMIT block and the row of size and count limits (FILELIMIT
DATALIMIT STACKLIMIT CORELIMIT SWAPLIMIT PROCESSLIMIT THREADLIMIT) as
``bjobs -l`` and ``bqueues -l`` print them."""

from xce.client.text import units
from xce.lang import rlimits


def cpu_lines(minutes, host=None):
    """`` CPULIMIT`` over ``10.0 min`` (``of hostA`` when normalised to a
    named host or model)."""
    if not minutes:
        return []
    return time_lines("CPULIMIT", minutes, host)


def time_lines(name, minutes, host=None):
    """`` NAME`` over ``10.0 min`` (``of hostA`` when normalised to a named
    host or model), as CPULIMIT and RUNLIMIT are shown."""
    value = f" {float(minutes):.1f} min" + (f" of {host}" if host else "")
    return ["", f" {name}", value]


def row_lines(values):
    """One header line of the limits set in *values* (spec key -> KB or a
    count), in LSF's order, over a line of their values, each column
    right-aligned under its name."""
    names, cells = [], []
    for limit in rlimits.LIMITS:
        value = values.get(limit.key)
        if limit.kind == "time" or value is None:
            continue
        cell = units.limit_amount(value) if limit.kind == "size" \
            else str(value)
        width = max(len(limit.name), len(cell))
        names.append(f"{limit.name:>{width}}")
        cells.append(f"{cell:>{width}}")
    if not names:
        return []
    return ["", " " + " ".join(names), " " + " ".join(cells)]
