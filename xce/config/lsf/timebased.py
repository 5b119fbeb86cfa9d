"""LSF's time-based configuration in the lsb.* files: values set between
``#if time(...)`` and ``#endif`` (with ``#elif`` and ``#else`` branches).

mbatchd switches to the branch whose time expression holds, looking every
few minutes.  xce switches by time only the amounts of lsb.resources
limits (SLOTS, JOBS, MEM) and a queue's PRIORITY and job-slot limits
(QJOB_LIMIT, UJOB_LIMIT, HJOB_LIMIT, PJOB_LIMIT): time-based values,
xce.lang.timevalue.  Such a key set in the branches of one
``#if time(windows)`` block becomes one such value (``fold``): ``[a 8:00-18:00] [b ()]`` for
``#if time(8:00-18:00)`` a ``#else`` b, the first open window's value in
force, the #else's (or the value set before the block) at all other
times.  Every other value in a branch (and every section inside one) is
left out, one report line per key with the branch it was in; the values
set outside the blocks are carried as usual and hold at all times.
"""

import re

from xce.config.lsf.sections import Item
from xce.lang import timewindow

WHY = ("set inside {branch}, LSF's time-based configuration: xce switches "
       "by time only a Limit's SLOTS, JOBS and MEM and a queue's PRIORITY, "
       "QJOB_LIMIT, UJOB_LIMIT, HJOB_LIMIT and PJOB_LIMIT under "
       "time(windows) with no time zone, so this is not carried; set in "
       "xce.yaml the value that is to hold at all times")
# The key whose value names a KEY = VALUE section in the report.
_NAMES = ("QUEUE_NAME", "NAME")
# The keys xce switches by time, by section kind (the queue's:
# xce.config.queuetime), and the one expression it reads.
_AMOUNTS = {"limit": ("SLOTS", "JOBS", "MEM"),
            "queue": ("PRIORITY", "QJOB_LIMIT", "UJOB_LIMIT", "HJOB_LIMIT",
                      "PJOB_LIMIT")}
_TIME = re.compile(r"time\(([^()]*)\)\Z")


def fold(lsf_file):
    """lsb.resources, lsb.queues: each Limit amount or queue key of
    _AMOUNTS set in the branches of one #if time() block becomes one
    time-based value, set for all times."""
    for section in lsf_file.sections if lsf_file else ():
        for key in _AMOUNTS.get(section.kind, ()):
            found = [(t, b) for t, b in section.conditional
                     if isinstance(t, Item) and t.key == key]
            value = _time_based(found, section.items.get(key)) \
                if found else None
            if value is not None:
                section.conditional = [(t, b) for t, b in section.conditional
                                       if (t, b) not in found]
                section.items[key] = Item(key, value, found[0][0].origin)


def _time_based(found, before):
    """``[value windows] ...`` of one block's branches (an #else, or else
    the value set *before* the block, as ``[value ()]``: at all other
    times); None when they are not one block of time windows with one
    value per branch."""
    branches = [b for _, b in found]
    opened = branches[0].opened
    if any(b.outer is not None or b.opened != opened for b in branches) or \
            len(set(branches)) != len(branches):
        return None
    pairs = []
    for item, branch in found:
        if len(item.value.split()) != 1:
            return None
        if branch.kind == "else":
            pairs.append(f"[{item.value} ()]")
            continue
        match = _TIME.match(branch.expression.replace(" (", "("))
        windows = " ".join(match.group(1).split()) if match else ""
        try:
            if timewindow.parse(windows) is None:
                return None
        except timewindow.WindowError:
            return None
        pairs.append(f"[{item.value} {windows}]")
    if before is None or branches[-1].kind == "else":
        return " ".join(pairs)
    if before.origin.path != opened.path or \
            before.origin.line > opened.line or len(before.value.split()) != 1:
        return None     # set after the block, it would hold at all times
    return " ".join(pairs + [f"[{before.value} ()]"])


def report(mig, lsf_file):
    """Report every value of *lsf_file* that is inside an #if block."""
    if lsf_file is None:
        return
    for section in lsf_file.sections:
        for thing, branch in section.conditional:
            _drop(mig, section, thing, branch)
    for section in lsf_file.conditional:
        for thing in list(section.items.values()) + section.rows:
            _drop(mig, section, thing, section.condition)
        for thing, branch in section.conditional:
            _drop(mig, section, thing, branch)


def _drop(mig, section, thing, branch):
    why = WHY.format(branch=branch)
    if isinstance(thing, Item):
        mig.drop(thing.origin, f"{_owner(section)} {thing.key} = "
                 f"{thing.value}", why)
        return
    columns = [c for c, v in thing.cells.items() if v is not None]
    name = thing.cells.get(columns[0]) if columns else "?"
    for column in columns[1:]:
        mig.drop(thing.origin, f"{section.kind} {name} {column} = "
                 f"{thing.cells[column]}", why)


def _owner(section):
    for key in _NAMES:
        item = section.items.get(key)
        if item is not None:
            return f"{section.kind} {item.value.split()[0]}"
    return section.kind
