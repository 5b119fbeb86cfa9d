"""A host's model from the architecture strings of lsf.shared's HostModel
section, as LSF's LIM picks it for a host whose model is ``!``.

Each agent reports the strings its CPU is known by (xce.agent.hostinfo):
LSF's full form ``x<family>_<bogomips>_<name>``, the CPU name alone (the
``model name`` of /proc/cpuinfo with everything but letters and digits
removed, e.g. ``IntelRXeonRCPUE52699v4220GHz``) and the machine name
(``x86_64``).  The first of them that a model lists in its ARCHITECTURE
wins, the model first in lsf.shared among several; a full form that
differs only in its BogoMIPS figure matches the model whose figure is
closest.  A host matching no model keeps the model its agent reported.
Pure: reads the loaded YAML tree and the host's facts.
"""

import re

SECTION = "host_architectures"
_FULL = re.compile(r"x(\d+)_(\d+)_(.+)\Z")


def architectures(raw):
    """{model: [architecture strings]} of xce.yaml, in lsf.shared order."""
    found = {}
    for model, strings in (raw.get(SECTION) or {}).items():
        if isinstance(strings, str):
            strings = strings.split()
        found[str(model)] = [str(s) for s in strings or ()]
    return found


def matched_model(raw, arch_strings):
    """The model whose ARCHITECTURE matches the host's strings, or None."""
    table = architectures(raw)
    for wanted in arch_strings or ():
        for model, strings in table.items():
            if wanted in strings:
                return model
    return _closest_bogomips(table, arch_strings or ())


def _closest_bogomips(table, arch_strings):
    """A partial match: the same family and CPU name, the nearest
    BogoMIPS figure."""
    best = None
    for wanted in arch_strings:
        mine = _FULL.match(wanted)
        if not mine:
            continue
        for model, strings in table.items():
            for text in strings:
                theirs = _FULL.match(text)
                if theirs and (theirs[1], theirs[3]) == (mine[1], mine[3]):
                    gap = abs(int(theirs[2]) - int(mine[2]))
                    if best is None or gap < best[0]:
                        best = (gap, model)
    return best[1] if best else None


def host_model(raw, declared, facts):
    """A host's model: the one xce.yaml declares, else the one its
    architecture matches, else the one its agent reported."""
    if declared:
        return declared
    return matched_model(raw, facts.get("arch")) or facts.get("model") or ""
