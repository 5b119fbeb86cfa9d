"""LSF's time-based configuration in the lsb.* files: values set between
``#if time(...)`` and ``#endif`` (with ``#elif`` and ``#else`` branches).

mbatchd switches to the branch whose time expression holds, looking every
few minutes; xce's configuration has no such switch, so every value in a
branch (and every section inside one) is left out, one report line per
key with the branch it was in.  The values set outside the blocks are
carried as usual and hold at all times.
"""

from xce.config.lsf.sections import Item

WHY = ("set inside {branch}, LSF's time-based configuration: xce does not "
       "switch configuration by time, so no branch is carried; set in "
       "xce.yaml the value that is to hold at all times")
# The key whose value names a KEY = VALUE section in the report.
_NAMES = ("QUEUE_NAME", "NAME")


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
