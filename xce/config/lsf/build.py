"""The migration under construction: the xce.yaml tree, where each value
came from, and the report of what was carried and what was not.

Converters call ``carry`` for every LSF key they place in the tree and
``drop`` for every one they leave out, so the report is complete by
construction.  Whether a carried key is enforced comes from xce.config.keys.
"""

from dataclasses import dataclass

from xce.config import keys
from xce.config.lsf import cells

SECTION_ORDER = ("cluster", "parameters", "hosts", "host_groups", "queues",
                 "users", "user_groups", "limits", "applications",
                 "resources", "host_types", "host_models",
                 "host_architectures")


@dataclass(frozen=True)
class Entry:
    """One line of the report."""

    status: str        # keys.ENFORCED / ACCEPTED / NOT_CARRIED
    origin: object     # Origin or None (a default xce filled in)
    label: str         # "queue normal PRIORITY = 30"
    why: str = ""
    path: tuple = None  # where the value sits in the tree, when carried
    key: str = ""      # "queue NICE": scope and LSF name, when known


class Migration:
    def __init__(self, diags):
        self.diags = diags
        self.tree = {}
        self.origins = {}     # path tuple -> Origin
        self.statuses = {}    # path tuple -> keys status
        self.entries = []
        self.cluster_name = None

    # -- placing values ------------------------------------------------------
    def node(self, *path, default=dict):
        """The container at *path*, created (as *default*()) when absent."""
        here = self.tree
        for index, step in enumerate(path):
            if isinstance(here, list):
                here = here[step]
                continue
            if step not in here:
                last = index == len(path) - 1
                here[step] = default() if last else {}
            here = here[step]
        return here

    def set(self, path, value, origin=None, status=None):
        """Place *value* at *path* (a tuple) without a report line.

        *status* is the keys status of an LSF key, None for xce's own values.
        """
        self.node(*path[:-1])[path[-1]] = value
        if origin is not None:
            self.origins[path] = origin
        self.statuses[path] = status

    def carry(self, scope, path, name, text, origin, label):
        """Carry LSF key *name* of *scope* (value *text*) to path + (name,).

        Returns the converted value, or None when the key is not carried.
        """
        key = keys.lookup(scope, name)
        if not key.carried:
            self.entries.append(Entry(
                keys.NOT_CARRIED, origin, f"{label} {name} = {_short(text)}",
                key.why, key=f"{scope} {key.name}"))
            return None
        if key.shape == "omit":
            # Not needed in xce: reported, not written as a value.
            self.entries.append(Entry(
                key.status, origin, f"{label} {name} = {_short(text)}",
                key.why, key=f"{scope} {key.name}"))
            return None
        value = convert(key.shape, text)
        self._check_placeholder(origin, name, text)
        self.set(path + (key.name,), value, origin, key.status)
        self.entries.append(Entry(key.status, origin,
                                  f"{label} {key.name} = {_short(text)}",
                                  key.why, path + (key.name,),
                                  f"{scope} {key.name}"))
        return value

    def drop(self, origin, label, why):
        self.entries.append(Entry(keys.NOT_CARRIED, origin, label, why))

    def note(self, status, origin, label, why="", path=None):
        self.entries.append(Entry(status, origin, label, why, path))

    def retract(self, path, why):
        """Take the value at *path* (and what is under it) back out of the
        tree: its report lines become one "not carried" line saying why."""
        parent = self.node(*path[:-1]) if len(path) > 1 else self.tree
        gone = parent.pop(path[-1], None) if isinstance(parent, dict) \
            else None
        size = len(path)
        kept, dropped = [], []
        for entry in self.entries:
            under = entry.path is not None and entry.path[:size] == path
            (dropped if under else kept).append(entry)
        self.entries = kept
        if not dropped:
            dropped = [Entry(keys.NOT_CARRIED, self.origins.get(path),
                             f"{' '.join(map(str, path))} = {_short(gone)}")]
        for entry in dropped:
            self.drop(entry.origin, entry.label, why)
        return gone

    def warn(self, origin, message):
        self.diags.warn(origin.path, origin.line, message)

    def _check_placeholder(self, origin, name, text):
        if cells.looks_like_placeholder(text):
            self.warn(origin, f"{name} = {_short(text)} looks like an "
                      "install-time placeholder; carried as written")

    # -- result ---------------------------------------------------
    def ordered_tree(self):
        """The tree with its sections in xce.yaml order."""
        ordered = {name: self.tree[name] for name in SECTION_ORDER
                   if name in self.tree}
        ordered.update((k, v) for k, v in self.tree.items()
                       if k not in ordered)
        return ordered


def convert(shape, text):
    """LSF value text -> YAML value, following the key's shape."""
    text = text.strip()
    if shape == "raw":
        return text
    if shape == "text":
        return " ".join(cells.unquote(text).split())
    if shape == "path":
        return cells.unquote(text)
    if shape == "list":
        return cells.split_list(text)
    if shape == "list1":
        members = cells.split_list(text)
        return members if len(members) > 1 else convert("auto", text)
    found = cells.number(text)
    return found if found is not None else " ".join(text.split())


def _short(text, width=50):
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[:width - 3] + "..."
