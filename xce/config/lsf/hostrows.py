"""lsb.hosts Host rows keyed by something other than one host.

A row of lsb.hosts' Host section names a host, a host group, a host model,
a host type or ``default``.  LSF gives a host the value of the most
specific row that names it: its own row, then a group it is in, then its
model, then its type, then ``default``.  xce.yaml has per-host keys and a
``default`` entry, so the migrator resolves the group, model and type rows
here, into the keys of each host they cover; the report says which hosts
each row reached.  A row naming none of these is not a host either (LSF
ignores it): it is left out, not turned into a host of that name.
"""

from xce.config.lsf import hostnames
from xce.config.lsf.build import Entry

HOST, GROUP, MODEL, TYPE, DEFAULT = "host", "group", "model", "type", \
    "default"
# Most specific first: a host's own row wins over its group's, and so on.
PRECEDENCE = (HOST, GROUP, MODEL, TYPE)


def classify(name, hosts, groups, models, types):
    """What an lsb.hosts row name stands for, or None."""
    if name == "default":
        return DEFAULT
    if name in hosts:
        return HOST
    if name in groups:
        return GROUP
    if name in models:
        return MODEL
    if name in types:
        return TYPE
    return None


def covered(kind, name, hosts, groups):
    """The hosts a row of *kind* named *name* applies to, in host order."""
    if kind == HOST:
        return [name]
    if kind == GROUP:
        try:
            members = hostnames.expand(groups[name], groups, list(hosts))
        except hostnames.PatternError:
            return []
        return [h for h in hosts if h in members]
    column = "model" if kind == MODEL else "type"
    return [h for h, props in hosts.items() if props.get(column) == name]


def known_names(shared, section, column, hosts, host_column):
    """Model (or type) names: lsf.shared's rows and the hosts' own."""
    names = {h.get(host_column) for h in hosts.values()
             if h.get(host_column)}
    for part in shared.all(section) if shared else ():
        for row in part.rows:
            if row.get(column):
                names.add(row.get(column))
    return names


def apply_rows(mig, rows, carry_one, hosts, groups):
    """Give each host the values of the rows that cover it, in LSF's
    precedence.  *rows* are (kind, row); *carry_one*(column, value, origin,
    label) checks one value and returns (converted, status) or None."""
    taken = set()           # (host, key) given by a more specific row
    for kind in PRECEDENCE:
        for row_kind, row in rows:
            if row_kind == kind:
                _apply(mig, kind, row, carry_one, hosts, groups, taken)


def _apply(mig, kind, row, carry_one, hosts, groups, taken):
    name = row.get("HOST_NAME")
    targets = covered(kind, name, hosts, groups)
    shown = row.written or name
    label = f"host {shown}" if kind == HOST else f"host {kind} {shown}"
    for column, value in row.cells.items():
        if column == "HOST_NAME" or value is None:
            continue
        if not targets:
            mig.drop(row.origin, f"{label} {column} = {value}",
                     f"the {kind} has no host in the cluster")
            continue
        checked = carry_one(column, value, row.origin, label)
        if checked is None:
            continue
        converted, status, key_name = checked
        reached = []
        for host in targets:
            if (host, key_name) in taken:
                continue        # a more specific row gave it already
            taken.add((host, key_name))
            mig.set(("hosts", host, key_name), converted, row.origin, status)
            reached.append(host)
        text = f"{label} {column} = {' '.join(str(value).split())}"
        if kind != HOST:
            shown = " ".join(reached) or "none, each has its own value"
            text += f" (hosts: {shown})"
        # One report line for the row, tied to its first host's value.
        mig.entries.append(Entry(status, row.origin, text, path=(
            ("hosts", reached[0], key_name) if reached else None)))


def unknown_row(mig, row, cluster_file):
    name = row.get("HOST_NAME")
    mig.drop(row.origin, f"host {name}", "not a host, host group, host "
             f"model or host type of {cluster_file}; LSF ignores the row")
