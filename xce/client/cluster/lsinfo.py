"""lsinfo's tables: the resources, host types and host models of the
cluster, LSF 10.1's layout.

The built-in resources come first (the load indices the agents report and
the static host facts xce knows), then the site's lsf.shared resources
(xce.yaml ``resources``) with their DESCRIPTION; ``host_types`` and
``host_models`` (with CPU factors) as configured.
"""

from xce.model.resources import BUILT_IN, LISTED, Catalog

RESOURCE_HEADER = "RESOURCE_NAME   TYPE   ORDER  DESCRIPTION"
MODEL_HEADER = "MODEL_NAME      CPU_FACTOR      ARCHITECTURE"


def resource_rows(resources):
    """(name, type, order, description) of every resource, built-in first
    (xce.model.resources defines them all)."""
    defs = [BUILT_IN[n] for n in LISTED] + Catalog.build(
        resources if isinstance(resources, dict) else {}).site()
    return [(d.name, d.type, d.order, d.description) for d in defs]


def resources_text(resources, names=()):
    """The resource table; with *names* (lsinfo resource_name ...) only
    their rows, in the table's order, then ``name: Resource name not
    found`` for each name the cluster has no resource of, as LSF's."""
    rows = [row for row in resource_rows(resources)
            if not names or row[0] in names]
    found = {row[0] for row in rows}
    return "\n".join([RESOURCE_HEADER] + [
        f"{name:<13} {kind:>7} {order:>5}   {desc}".rstrip()
        for name, kind, order, desc in rows] + [
        f"{name}: Resource name not found"
        for name in dict.fromkeys(names) if name not in found])


def types_text(host_types):
    return "\n".join(["TYPE_NAME"] + [str(t) for t in host_types or []])


def models_text(host_models):
    rows = [MODEL_HEADER]
    for name, factor in (host_models or {}).items():
        try:
            shown = f"{float(factor):.2f}"
        except (TypeError, ValueError):
            shown = str(factor)
        rows.append(f"{str(name):<16}{shown:>10}")
    return "\n".join(rows)


def lsinfo_text(conf, resources=True, types=True, models=True, names=()):
    """The tables asked for, separated by a blank line, as lsinfo prints;
    *names* limits the resource table to those resources."""
    parts = []
    if resources:
        parts.append(resources_text(conf.get("resources"), names))
    if types:
        parts.append(types_text(conf.get("host_types")))
    if models:
        parts.append(models_text(conf.get("host_models")))
    return "\n\n".join(parts)
