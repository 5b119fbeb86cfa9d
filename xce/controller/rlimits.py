"""bsub -c -v -S -F -D -C -p -T against the queue's limits, and as the
job's agent enforces them.

At submit a job without its own value takes the queue's default, and a
value above the queue's maximum is refused with LSF's "Cannot exceed
queue's hard limit(s)".  At dispatch the start message carries what the
agent needs: the per-process limits for setrlimit (soft: the job's value;
hard: the queue's maximum when it has one, as LSF has it), and the
whole-job limits it checks at each sample.

CPU time is normalised as LSF does: the time on the execution host is the
limit times the CPU factor of the normalising host (the job's /host or
/model, else the queue's DEFAULT_HOST_SPEC, else lsb.params'
DEFAULT_HOST_SPEC, else the fastest host of the cluster) over the CPU
factor of the execution host.  A host's CPU factor is that of its model
(xce.yaml host_models), 1.0 when it has none.

The run limit (bsub -W, the queue's RUNLIMIT, each with an optional
/host or /model) is normalised by the same rule, unless ABS_RUNLIMIT=Y
(parameters, or the job's application) makes it wall-clock time.
"""

import math

from xce.errors import text
from xce.lang import rlimits
from xce.scheduler import jobtimes

DEFAULT_FACTOR = 1.0
# bsub -We 10/hostA, the profile's RUNTIME = 10/model: the estimate's
# normalising host (normal_seconds reads "<key>_host").
ESTIMATE_HOST = "estimate_host"
# The spec keys of these limits (bmod and bswitch carry them).
SPEC_KEYS = tuple(limit.key for limit in rlimits.LIMITS) + (
    rlimits.CPU_HOST, rlimits.RUN_HOST)


def cpu_factor(cfg, name):
    """CPU factor of a host or host model named *name*; None if unknown."""
    models = cfg.raw.get("host_models") or {}
    if name in cfg.hosts:
        model = cfg.hosts[name].model or cfg.detected_models.get(name)
        return float(models.get(model, DEFAULT_FACTOR))
    if name in models:
        return float(models[name])
    return None


def _normaliser_factor(cfg, q, host):
    for name in (host, (q.raw or {}).get("DEFAULT_HOST_SPEC"),
                 cfg.params.get("DEFAULT_HOST_SPEC")):
        if name:
            factor = cpu_factor(cfg, str(name).strip())
            if factor is not None:
                return factor
    return fastest_factor(cfg)


def normal_minutes(cfg, q, minutes, host):
    """CPU minutes on a host of factor 1.0."""
    return minutes * _normaliser_factor(cfg, q, host)


def check(cfg, q, spec, rejected):
    """Fill the queue's defaults into *spec*; raise *rejected* with LSF's
    message for a value above the queue's maximum or an unknown
    normalising host."""
    for key in (rlimits.CPU_HOST, rlimits.RUN_HOST, ESTIMATE_HOST):
        host = spec.get(key)
        if host and cpu_factor(cfg, host) is None:
            raise rejected(text("BAD_HOST_SPEC", host))
    _check_run(cfg, q, spec, rejected)
    for key, (default, maximum) in (q.rlimits or {}).items():
        value = spec.get(key)
        if key == "cpulimit":
            _check_cpu(cfg, q, spec, default, maximum, rejected)
        elif value is None:
            spec[key] = default
        elif value > maximum:
            raise rejected(text("HARD_LIMIT", rlimits.BY_KEY[key].name))


def _check_cpu(cfg, q, spec, default, maximum, rejected):
    if spec.get("cpulimit") is None:
        spec["cpulimit"] = default[0]
        if default[1]:
            spec[rlimits.CPU_HOST] = default[1]
        return
    asked = normal_minutes(cfg, q, spec["cpulimit"],
                           spec.get(rlimits.CPU_HOST))
    if asked > normal_minutes(cfg, q, *maximum) + 1e-9:
        raise rejected(text("HARD_LIMIT", "CPULIMIT"))


def _check_run(cfg, q, spec, rejected):
    """The queue's RUNLIMIT: its default fills a job without -W (with its
    host or model); a -W above its maximum, both normalised, is refused."""
    if getattr(q, "runlimit", None) is None:
        return
    (default, maximum), (default_host, max_host) = \
        q.runlimit, q.runlimit_hosts
    if spec.get("runlimit") is None:
        spec["runlimit"] = default
        if default_host:
            spec[rlimits.RUN_HOST] = default_host
        return
    asked = normal_minutes(cfg, q, spec["runlimit"],
                           spec.get(rlimits.RUN_HOST))
    if asked > normal_minutes(cfg, q, maximum, max_host) + 1e-9:
        raise rejected(text("HARD_LIMIT", "RUNLIMIT"))


def absolute_runlimit(cfg, spec):
    """ABS_RUNLIMIT=Y for this job: its run limit is not normalised."""
    app = cfg.apps.get(spec.get("app") or "")
    return cfg.param_flag("ABS_RUNLIMIT") or bool(app and app.abs_runlimit)


def normal_seconds(cfg, q, spec, key="runlimit"):
    """(seconds on a host of CPU factor 1.0, absolute) of the job's run
    limit (*key* "runlimit") or run-time estimate ("estimate": bsub -We or
    the profile's RUNTIME; the caller gives the queue's
    ESTIMATED_RUNTIME), each normalised by its own /host or /model;
    *absolute*: ABS_RUNLIMIT=Y, the seconds are wall-clock.  (None, _)
    when the job has none."""
    minutes = spec.get(key)
    if not minutes:
        return None, False
    if q is None or absolute_runlimit(cfg, spec):
        return minutes * 60.0, True
    return normal_minutes(cfg, q, minutes, spec.get(key + "_host")) * 60.0, \
        False


def run_seconds(cfg, q, spec, exec_host, key="runlimit"):
    """The job's run limit (or estimate) in seconds of wall-clock time on
    *exec_host* (its first execution host), or None: the limit times the
    normalising host's CPU factor over the execution host's."""
    seconds, absolute = normal_seconds(cfg, q, spec, key)
    return jobtimes.on_host(seconds, cpu_factor(cfg, exec_host) or
                            DEFAULT_FACTOR, absolute)


def fastest_factor(cfg):
    """The CPU factor of the cluster's fastest host (1.0 without hosts)."""
    return max((cpu_factor(cfg, h) for h in cfg.hosts),
               default=DEFAULT_FACTOR)


def switched(spec):
    """The limits a queue switch carries in its event (those set)."""
    return {key: spec[key] for key in SPEC_KEYS
            if spec.get(key) is not None}


def cpu_seconds(cfg, q, spec, exec_host):
    """The job's CPU limit in seconds of its execution host, or None."""
    if not spec.get("cpulimit"):
        return None
    normal = normal_minutes(cfg, q, spec["cpulimit"],
                            spec.get(rlimits.CPU_HOST))
    factor = cpu_factor(cfg, exec_host) or DEFAULT_FACTOR
    return normal * 60.0 / factor


def agent_limits(cfg, q, spec, exec_host):
    """What the start message carries for the agent: {"setrlimit":
    [[resource, soft, hard or None], ...] in bytes and seconds,
    "cpulimit": seconds, "swaplimit": KB, "processlimit": n,
    "threadlimit": n}, the whole-job ones only when set.  The CPU limit is
    both, as LSF has it without LSB_JOB_CPULIMIT; Y keeps the whole-job
    check alone, N the per-process setrlimit alone."""
    out, per_process = {}, []
    cpu_mode = _yes_no_unset(cfg.params.get("LSB_JOB_CPULIMIT"))
    queue = (q.rlimits if q is not None else None) or {}
    seconds = cpu_seconds(cfg, q, spec, exec_host) if q is not None \
        else None
    for limit in rlimits.LIMITS:
        value = spec.get(limit.key)
        if value is None:
            continue
        if limit.key == "cpulimit":
            if seconds and cpu_mode != "N":
                out["cpulimit"] = seconds
            if seconds and cpu_mode != "Y":
                per_process.append(["cpu", math.ceil(seconds), None])
        elif limit.resource:
            hard = queue.get(limit.key, [None, None])[1]
            per_process.append([limit.resource, value * 1024,
                                None if hard is None else
                                max(hard, value) * 1024])
        else:
            out[limit.key] = value
    if per_process:
        out["setrlimit"] = per_process
    return out


def _yes_no_unset(value):
    """"Y", "N" or "" (unset) of an lsf.conf switch."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Y" if value else "N"
    return str(value).strip().upper()[:1]
