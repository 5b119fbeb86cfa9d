"""lsinfo's tables: the resources, host types and host models of the
cluster, LSF 10.1's layout.

The built-in resources come first (the load indices the agents report and
the static host facts xce knows), then the site's lsf.shared resources
(xce.yaml ``resources``) with their DESCRIPTION; ``host_types`` and
``host_models`` (with CPU factors) as configured.
"""

# (name, type, order, description) of the resources every host has.
BUILT_IN = (
    ("r15s", "Numeric", "Inc", "15-second CPU run queue length"),
    ("r1m", "Numeric", "Inc", "1-minute CPU run queue length (alias: cpu)"),
    ("r15m", "Numeric", "Inc", "15-minute CPU run queue length"),
    ("ut", "Numeric", "Inc", "1-minute CPU utilization (0.0 to 1.0)"),
    ("pg", "Numeric", "Inc", "Paging rate (pages/second)"),
    ("io", "Numeric", "Inc", "Disk IO rate (Kbytes/second)"),
    ("ls", "Numeric", "Inc", "Number of login sessions (alias: login)"),
    ("it", "Numeric", "Dec", "Idle time (minutes) (alias: idle)"),
    ("tmp", "Numeric", "Dec", "Disk space in /tmp (Mbytes)"),
    ("swp", "Numeric", "Dec", "Available swap space (Mbytes) (alias: swap)"),
    ("mem", "Numeric", "Dec", "Available memory (Mbytes)"),
    ("ncpus", "Numeric", "Dec", "Number of CPUs"),
    ("maxmem", "Numeric", "Dec", "Maximum memory (Mbytes)"),
    ("maxswp", "Numeric", "Dec", "Maximum swap space (Mbytes)"),
    ("type", "String", "N/A", "Host type"),
    ("model", "String", "N/A", "Host model"),
    ("hname", "String", "N/A", "Host name"),
    ("server", "Boolean", "N/A", "LSF server host"),
)
RESOURCE_HEADER = "RESOURCE_NAME   TYPE   ORDER  DESCRIPTION"
MODEL_HEADER = "MODEL_NAME      CPU_FACTOR      ARCHITECTURE"


def _order(props):
    if str(props.get("TYPE", "")).lower() != "numeric":
        return "N/A"
    return "Inc" if str(props.get("INCREASING", "")).upper() in (
        "Y", "YES", "TRUE") else "Dec"


def resource_rows(resources):
    """(name, type, order, description) of every resource, built-in first."""
    rows = list(BUILT_IN)
    for name, props in (resources or {}).items():
        props = props if isinstance(props, dict) else {}
        rows.append((str(name), str(props.get("TYPE", "Boolean")),
                     _order(props), str(props.get("DESCRIPTION", ""))))
    return rows


def resources_text(resources):
    return "\n".join([RESOURCE_HEADER] + [
        f"{name:<13} {kind:>7} {order:>5}   {desc}".rstrip()
        for name, kind, order, desc in resource_rows(resources)])


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


def lsinfo_text(conf, resources=True, types=True, models=True):
    """The tables asked for, separated by a blank line, as lsinfo prints."""
    parts = []
    if resources:
        parts.append(resources_text(conf.get("resources")))
    if types:
        parts.append(types_text(conf.get("host_types")))
    if models:
        parts.append(models_text(conf.get("host_models")))
    return "\n\n".join(parts)
