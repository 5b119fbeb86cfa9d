"""``bjobs -N host_spec``: CPU times normalised to a host, a host model or
a CPU factor.

A job's CPU time, taken on its (first) execution host, is multiplied by
that host's CPU factor and divided by the factor *host_spec* names: what
the job would have used on a host of that speed (LSF's normalisation of
CPU limits, the other way round).  A host's factor is its model's in
``host_models``; a host of no configured model counts 1.0, as the
controller counts it for CPU limits.
"""

from xce.errors import XceError, text
from xce.model import jsoncodec


def factor_of(spec, hosts, models):
    """The CPU factor *spec* names: a host, a host model or a positive
    number; LSF's error otherwise."""
    by_name = {h["name"]: h for h in hosts}
    if spec in by_name:
        return host_factor(by_name[spec], models)
    if spec in models:
        return _number(models[spec]) or 1.0
    number = _number(spec)
    if number is None or number <= 0:
        raise XceError(text("BAD_NORMALISER", spec=spec))
    return number


def host_factor(host, models):
    return _number(models.get(host.get("model"))) or 1.0


def models_of(meta):
    """host_models (name -> CPU factor) of the store's configuration."""
    try:
        conf = jsoncodec.loads(meta.get("config_sections") or "{}")
    except ValueError:
        return {}
    return conf.get("host_models") or {}


def normalised(rows, factor, hosts, models):
    """Copies of *rows* with cpu_time normalised to *factor*."""
    by_name = {h["name"]: h for h in hosts}
    out = []
    for row in rows:
        row = dict(row)
        cpu = row.get("cpu_time")
        first = (row.get("exec_hosts") or "").split()[:1]
        if cpu and first:
            host = by_name.get(first[0]) or {}
            row["cpu_time"] = cpu * host_factor(host, models) / factor
        out.append(row)
    return out


def _number(value):
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and number not in (
        float("inf"), float("-inf")) else None
