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


def minutes_text(minutes):
    """``10.0``: minutes with one decimal, as LSF shows a limit; a limit
    below that precision (XCE_FRACTIONAL_RUNLIMIT's 0.02, 1.2 s) with the
    decimals it has, never as a 0.0 that reads as no time at all."""
    value = float(minutes)
    shown = f"{value:.1f}"
    if float(shown) == value:
        return shown
    return f"{value:.6f}".rstrip("0")


def time_lines(name, minutes, host=None):
    """`` NAME`` over ``10.0 min`` (``of hostA`` when normalised to a named
    host or model), as CPULIMIT and RUNLIMIT are shown."""
    value = f" {minutes_text(minutes)} min" + (f" of {host}" if host
                                              else "")
    return ["", f" {name}", value]


# TASKLIMIT and PROCLIMIT, its older name (TASKLIMIT wins, as jobs take
# it): shown among the limits, as TASKLIMIT.
TASK_KEYS = ("TASKLIMIT", "PROCLIMIT")


def configured_tasks(conf):
    """The TASKLIMIT (or PROCLIMIT) text of a profile's or a queue's
    configuration, or None."""
    return next((conf[k] for k in TASK_KEYS
                 if conf.get(k) not in (None, "")), None)


def task_lines(words):
    """`` TASKLIMIT`` over its configured numbers (``2 3 4``: minimum,
    default, maximum), as bapp -l and bqueues -l show them."""
    if not words:
        return []
    return ["", " TASKLIMIT", " " + " ".join(str(words).split())]


def row_lines(values, mem_kb=None, unit=None):
    """One header line of the limits set in *values* (spec key -> KB or a
    count), in LSF's order, over a line of their values, each column
    right-aligned under its name; *mem_kb*, when given, is MEMLIMIT's
    column, after CORELIMIT (as bapp -l shows a profile's).  *unit*:
    LSF_UNIT_FOR_LIMITS, when sizes are shown in it as configured
    (bqueues -l); None scales them (``19.5 M``, as bjobs -l)."""
    names, cells = [], []
    shown = [(limit.name, limit.kind, values.get(limit.key))
             for limit in rlimits.LIMITS]
    if mem_kb is not None:
        at = [name for name, _, _ in shown].index("SWAPLIMIT")
        shown.insert(at, ("MEMLIMIT", "size", mem_kb))
    for name, kind, value in shown:
        if kind == "time" or value is None:
            continue
        cell = _size(value, unit) if kind == "size" else str(value)
        width = max(len(name), len(cell))
        names.append(f"{name:>{width}}")
        cells.append(f"{cell:>{width}}")
    if not names:
        return []
    return ["", " " + " ".join(names), " " + " ".join(cells)]


def _size(kb, unit):
    if unit is None:
        return units.limit_amount(kb)
    return units.in_limit_unit(kb, unit).strip()
