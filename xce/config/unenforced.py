"""The LSF keys of a configuration that xce carries but does not act on.

xce.yaml may hold keys the key table (xce.config.keys) calls *accepted*
(validated and kept, not enforced yet), *not needed* (they tune LSF's own
daemons, which xce does not have) or *not carried* (written in by hand:
xce has no such feature).  Nothing may be ignored silently, so the
controller logs one warning per such key at start and at reconfig
(``lines``), naming where it is set and, for the last two, why.  Pure:
reads the loaded YAML tree.
"""

from xce.config import keys

# xce.yaml section -> the key table scopes its keys are looked up in.
_SCOPES = {
    "parameters": ("params", "lsf.conf", "lsf.cluster"),
    "queues": ("queue",),
    "hosts": ("host", "cluster_host"),
    "users": ("user",),
    "user_groups": ("user_group",),
    "applications": ("application",),
    "resources": ("resource",),
}
# xce.yaml key -> the LSF column it was carried from.
_LSF_NAME = {"members": "GROUP_MEMBER"}


def _status(scopes, name):
    """The key table's status of *name*, in the first scope that knows it
    (None for xce's own keys)."""
    for scope in scopes:
        key = keys.lookup(scope, _LSF_NAME.get(name, name))
        if key.why != keys.UNKNOWN_WHY:
            return key.status, scope
    return None, None


def _owners(raw):
    """(section, owner name, its keys) for every mapping in *raw*."""
    yield "parameters", "parameters", raw.get("parameters") or {}
    for section in _SCOPES:
        if section == "parameters":
            continue        # one flat mapping, not one per owner
        for owner, props in (raw.get(section) or {}).items():
            if isinstance(props, dict):
                yield section, str(owner), props
    for index, props in enumerate(raw.get("limits") or []):
        if isinstance(props, dict):
            yield "limits", str(props.get("NAME") or f"#{index + 1}"), props


def accepted(raw, statuses=(keys.ACCEPTED,)):
    """{(scope, key): [owners]} of every key set in *raw* whose status is
    one of *statuses*."""
    found = {}
    for section, owner, props in _owners(raw):
        scopes = _SCOPES.get(section, ("limit",))
        for name in props:
            status, scope = _status(scopes, str(name))
            if status in statuses or \
                    section == "applications" and status != keys.ENFORCED:
                # A profile key xce does not apply, known to the table or
                # not (SUCCESS_EXIT_VALUES, ...), is warned about too.
                found.setdefault((scope or "application", str(name)),
                                 []).append(owner)
    return found


def lines(raw):
    """One warning line per accepted key: what is not acted on, and where."""
    out = []
    found = accepted(raw, (keys.ACCEPTED, keys.NOT_NEEDED, keys.NOT_CARRIED))
    for (scope, name), owners in sorted(found.items()):
        where = " ".join(owners) if scope not in ("params", "lsf.conf") \
            else "parameters"
        key = keys.lookup(scope, name)
        if key.status == keys.NOT_NEEDED:
            out.append(f"{scope} key {name} ({where}): not needed in xce, "
                       f"not acted on: {key.why}")
        elif key.status == keys.NOT_CARRIED and key.why != keys.UNKNOWN_WHY:
            out.append(f"{scope} key {name} ({where}): not acted on: "
                       f"{key.why}")
        else:
            out.append(f"{scope} key {name} ({where}): carried but not "
                       "acted on; xce does not enforce it yet")
    return out
