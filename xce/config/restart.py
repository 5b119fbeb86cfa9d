"""Keys a running controller cannot change: ``badmin reconfig`` refuses
an edit of them, naming each, instead of accepting a value it would not
use (a new spool left commands and controller on different spools).

- ``cluster.name`` and ``cluster.spool``: the controller's store, spool
  and lock live there; the commands find them through the name.
- the connection keys of a host that stays configured: its agent link is
  kept across a reconfig (running jobs stay watched), so a new address,
  port, launch, user, key file, known_hosts, python, ssh_timeout or spool
  would not be used until the next start.
"""

from xce.errors import text

CLUSTER_KEYS = (("name", "cluster_name"), ("spool", "spool"))
HOST_KEYS = ("launch", "address", "port", "user", "key_file", "known_hosts",
             "python", "ssh_timeout", "spool")


def changed(old, new):
    """``file:line: key: ...`` lines, one per key of *new* (a Config)
    whose value differs from the running *old* one and needs a restart."""
    errors = []
    cluster = new.raw.get("cluster") if isinstance(new.raw, dict) else None
    for key, attr in CLUSTER_KEYS:
        before, after = getattr(old, attr), getattr(new, attr)
        if before != after:
            errors.append(_line(new.path, cluster, key, f"cluster.{key}",
                                before, after))
    hosts = new.raw.get("hosts") if isinstance(new.raw, dict) else None
    for name, conf in new.hosts.items():
        running = old.hosts.get(name)
        if running is None:
            continue
        node = hosts.get(name) if isinstance(hosts, dict) else None
        for key in HOST_KEYS:
            before, after = getattr(running, key), getattr(conf, key)
            if before != after:
                where = node if isinstance(node, dict) and key in node \
                    else hosts
                errors.append(_line(new.path, where,
                                    key if where is node else name,
                                    f"hosts.{name}.{key}", before, after))
    return errors


def _line(path, node, key, label, before, after):
    try:
        where = f"{path}:{node.lc.key(key)[0] + 1}"
    except (AttributeError, KeyError, TypeError):
        where = str(path)
    return text("CONFIG_NEEDS_RESTART", where=where, label=label,
                before=_show(before), after=_show(after))


def _show(value):
    return text("CONFIG_NOT_SET") if value is None else str(value)
