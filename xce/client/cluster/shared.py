"""bhosts -s, lsload -s and lshosts -s: the shared resources (lsf.cluster
ResourceMap instances: licence tokens, host-set resources) and where they
are, in LSF 10.1's layouts.

The controller keeps each shared instance's total and what running jobs
hold of it in the store's meta table (``shared_usage``, written by the
scheduling pass).  bhosts -s shows what is left for scheduling (TOTAL)
and what jobs reserve (RESERVED); lsload -s and lshosts -s the value the
resource has (its configured amount), with the hosts that share it.
"""

import json

from xce.errors import XceError, about
from xce.lang.resreq.common import format_number

BHOSTS_HEADER = f"{'RESOURCE':<20}{'TOTAL':>10}{'RESERVED':>12}    LOCATION"
VALUE_HEADER = f"{'RESOURCE':<20}{'VALUE':>10}    LOCATION"


def _stored(meta):
    try:
        found = json.loads(meta.get("shared_usage") or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def usage(meta):
    """The stored rows: [{name, total, held, hosts}]."""
    return _stored(meta).get("shared") or []


def host_held(meta):
    """{host: {resource: held}} of the hosts' own site resources."""
    return _stored(meta).get("hosts") or {}


def host_block(host, catalog, meta):
    """bhosts -l's second load table: the host's Numeric site resources
    (its own and the shared ones it sees), what is left and what jobs
    hold; [] when it has none."""
    name = host["name"]
    values = {n: v for n, v in catalog.host_values(
        (host.get("conf") or {}).get("resources")).items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)}
    held = dict(host_held(meta).get(name) or {})
    for r in usage(meta):
        if name in r["hosts"]:
            values[r["name"]], held[r["name"]] = r["total"], r["held"]
    if not values:
        return []
    names = sorted(values)
    width = max(10, *(len(n) + 2 for n in names))
    head = " " * 12 + "".join(f"{n:>{width}}" for n in names)
    total = f" {'Total':<11}" + "".join(
        f"{values[n] - held.get(n, 0):>{width}.1f}" for n in names)
    reserved = f" {'Reserved':<11}" + "".join(
        f"{held.get(n, 0):>{width}.1f}" for n in names)
    return [head, total, reserved]


def _chosen(rows, names):
    """The rows of the resources *names* (all when none); a name no
    shared resource has is LSF's error."""
    if not names:
        return rows
    have = {r["name"] for r in rows}
    for name in names:
        if name not in have:
            raise XceError(about(name, "BAD_RESOURCE_NAME_SHARED"))
    return [r for r in rows if r["name"] in names]


def _shown(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return format_number(value)
    return str(value)


def bhosts_s(rows, names=()):
    out = [BHOSTS_HEADER]
    for r in _chosen(rows, names):
        free = r["total"] - r["held"]
        out.append(f"{r['name']:<20}{format_number(free):>10}"
                   f"{r['held']:>12.1f}    {' '.join(r['hosts'])}")
    return "\n".join(out)


def value_table(rows, names=()):
    """lsload -s / lshosts -s: each shared resource and its value."""
    out = [VALUE_HEADER]
    for r in _chosen(rows, names):
        out.append(f"{r['name']:<20}{_shown(r['total']):>10}"
                   f"    {' '.join(r['hosts'])}")
    return "\n".join(out)
