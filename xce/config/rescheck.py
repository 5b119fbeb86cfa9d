"""The resource definitions of xce.yaml (``resources``: lsf.shared's
Resource section and lsf.cluster's ResourceMap, migrated) and the
``resources`` of each host, checked against xce.model.resources.

A malformed definition or location, a LOCATION naming no host of the
cluster, or a host value of the wrong type is an error that names file,
line and key: the controller refuses such a file rather than schedule
against a half-understood resource.
"""

from xce.errors import text
from xce.model.resources import Catalog


def check(cfg, raw, check_):
    """Build cfg.catalog; report its problems through *check_*."""
    section = raw.get("resources") or {}
    if not isinstance(section, dict):
        check_.error(raw, "resources", text("CONFIG_RESOURCES_NOT_MAPPING"))
        section = {}
    cfg.catalog = Catalog.build(section)
    _, errors = cfg.catalog.instances(list(cfg.hosts), cfg.host_groups)
    for line in cfg.catalog.errors + errors:
        name = _named(line, section)
        if "LOCATION" in line and isinstance(section.get(name), dict) \
                and "LOCATION" in section[name]:
            # Only the location is wrong: the definition stands.
            check_.error(section[name], "LOCATION", line)
        else:
            check_.error(section, name, line)
    hosts_node = raw.get("hosts") or {}
    types = raw.get("host_types")
    known_types = {str(t) for t in types} if isinstance(types, list) \
        else set()
    for name, hc in cfg.hosts.items():
        node = hosts_node.get(name) or hosts_node
        for line in cfg.catalog.host_errors(name, hc.resources):
            check_.error(node, "resources", line)
        if known_types and hc.type and hc.type not in known_types:
            # LSF's LIM takes only the types lsf.shared's HostType lists.
            check_.error(node if "type" in node else hosts_node, "type",
                         text("CONFIG_UNKNOWN_HOST_TYPE", type=hc.type))


def _named(line, section):
    """The resource key a message is about (its line in the file)."""
    words = line.split()
    if len(words) > 1 and words[0] == "resource" and \
            words[1].rstrip(":") in section:
        return words[1].rstrip(":")
    return "resources"
