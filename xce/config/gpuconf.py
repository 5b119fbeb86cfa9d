"""GPU requirements in the configuration: LSB_GPU_NEW_SYNTAX, the
cluster default LSB_GPU_REQ (parameters), and GPU_REQ of queues and
application profiles; checked at load, merged per job by the controller
(job > application > queue > cluster, xce.lang.gpureq.merge).

A job asks for GPUs when it gives bsub -gpu (even `-gpu -`) or its
queue or application profile has a GPU_REQ; LSB_GPU_REQ alone only
supplies defaults to such jobs, it makes no other job a GPU job.
"""

import functools

from xce.errors import text
from xce.lang import gpureq, units
from xce.model import gpus as devices


def enabled(cfg):
    """LSB_GPU_NEW_SYNTAX: Y or extend (or unset) lets jobs ask for
    GPUs; N refuses bsub -gpu and GPU_REQ."""
    value = str(cfg.params.get("LSB_GPU_NEW_SYNTAX", "Y")).strip().lower()
    return value not in ("n", "no", "false", "0")


def check(cfg, raw, checker):
    """Report unreadable GPU requirements against their key, and any
    when LSB_GPU_NEW_SYNTAX=N (they would not be acted on)."""
    params = raw.get("parameters") or {}
    on = enabled(cfg)
    _check_one(params, "LSB_GPU_REQ", checker, on=on)
    _check_one(params, "LSB_GPU_NEW_SYNTAX", checker, syntax=True)
    for section in ("queues", "applications"):
        for props in (raw.get(section) or {}).values():
            if isinstance(props, dict):
                _check_one(props, "GPU_REQ", checker, on=on)


def _check_one(node, key, checker, syntax=False, on=True):
    if node.get(key) is None:
        return
    if not on:
        checker.error(node, key, text("CONFIG_GPU_OFF", key=key))
        return
    value = str(node[key]).strip()
    if syntax:
        if value.lower() not in ("y", "yes", "n", "no", "extend", "true",
                                 "false"):
            checker.error(node, key, text("CONFIG_GPU_SYNTAX"))
        return
    try:
        parsed(value)
    except gpureq.GpuReqError as e:
        checker.error(node, key, str(e))


@functools.lru_cache(maxsize=256)
def _parsed(text):
    return tuple(sorted(gpureq.parse(text).items()))


def parsed(text):
    """The options a GPU requirement string sets (cached by text)."""
    return dict(_parsed(text)) if text else {}


def job_levels(cfg, queue, app):
    """(app, queue, cluster) options for a job in *queue* with profile
    *app* (names); and whether either level makes the job a GPU job."""
    q = cfg.queues.get(queue)
    a = cfg.apps.get(app) if app else None
    q_text = str(q.raw.get("GPU_REQ") or "") if q is not None else ""
    a_text = str(getattr(a, "gpu_req", None) or "") if a is not None else ""
    cluster = str(cfg.params.get("LSB_GPU_REQ") or "")
    return (parsed(a_text), parsed(q_text), parsed(cluster),
            bool(q_text or a_text))


def effective(cfg, spec, queue):
    """The job's merged GpuReq, or None when it asks for no GPUs (spec
    "gpu" is its -gpu text, "-" for defaults)."""
    app, q, cluster, configured = job_levels(cfg, queue, spec.get("app"))
    job = spec.get("gpu")
    if job is None and not configured:
        return None
    return gpureq.merge(parsed(job) if job else None, app, q, cluster)


class DeviceError(ValueError):
    """A declared device that cannot be read; str() says why."""


def declared(items):
    """Devices from a host's `gpus:` list: each item a mapping with
    model and memory (a size such as 16G; a bare number is MB), and
    optionally id (default: its position), uuid and state."""
    if not isinstance(items, list):
        raise DeviceError("expected a list of devices")
    if len(items) > devices.MAX_DEVICES:
        raise DeviceError(f"at most {devices.MAX_DEVICES} devices")
    out, seen = [], set()
    for pos, item in enumerate(items):
        if not isinstance(item, dict):
            raise DeviceError(f"device {pos}: expected a mapping with "
                              "model and memory")
        unknown = set(item) - {"id", "model", "memory", "uuid", "state"}
        if unknown:
            raise DeviceError(f"device {pos}: unknown key "
                              f"{sorted(unknown)[0]}")
        dev = _one(pos, item)
        if dev["id"] in seen:
            raise DeviceError(f"device {pos}: id {dev['id']} given twice")
        seen.add(dev["id"])
        out.append(dev)
    return out


def _one(pos, item):
    ident = item.get("id", pos)
    if isinstance(ident, bool) or not isinstance(ident, int) or \
            not 0 <= ident < 1024:
        raise DeviceError(f"device {pos}: id must be 0 to 1023")
    model = "".join(str(item.get("model") or "").split())
    if not model:
        raise DeviceError(f"device {pos}: model is required")
    try:
        mem = units.size_bytes(str(item.get("memory", "")), "MB") / 2 ** 20
    except ValueError:
        raise DeviceError(f"device {pos}: memory must be a size such as 16G")
    state = str(item.get("state", devices.OK))
    if state not in devices.STATES:
        raise DeviceError(f"device {pos}: state must be one of "
                          + ", ".join(devices.STATES))
    dev = {"id": ident, "model": model, "mem": mem, "state": state}
    if item.get("uuid"):
        dev["uuid"] = str(item["uuid"])
    return dev
