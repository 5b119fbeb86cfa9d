"""GPU requirement strings: bsub -gpu, GPU_REQ (queues and application
profiles) and LSB_GPU_REQ (the cluster default), as LSF 10.1 writes them.

    num=N[/host|/task]:mode=shared|exclusive_process:mps=yes|no:
    j_exclusive=yes|no:gmodel=NAME[-SIZE]:gmem=SIZE

Options are separated by colons, each at most once, in any order.  Each
level sets only the options it names; merge() takes each option from the
most specific level that sets it (job > application > queue > cluster)
and fills what none sets with LSF's default, num=1:mode=shared:mps=no:
j_exclusive=no.  A mode=exclusive_process requirement is job-exclusive
whatever j_exclusive says, as in LSF.

Options LSF has that xce does not act on (aff, block, gpack, gvendor,
gtile, glink, nvlink, mig, and mps other than no) are refused with the
reason rather than read and ignored.  Pure and stdlib-only: bsub checks
a string with the same code the controller uses.
"""

import re
from collections import namedtuple

from xce.lang import units

DEFAULTS = {"num": 1, "per_task": False, "mode": "shared", "mps": "no",
            "j_exclusive": False, "gmodel": None, "gmodel_mem": None,
            "gmem": None}

# The effective requirement; gmodel_mem and gmem in MB (None: any).
GpuReq = namedtuple("GpuReq", list(DEFAULTS))

_NOT_ACTED = {
    "aff": "GPU-CPU affinity binding", "block": "block distribution of GPUs",
    "gpack": "GPU packing", "gvendor": "GPU vendor selection",
    "gtile": "GPUs per socket", "glink": "GPU link selection",
    "nvlink": "NVLink selection", "mig": "MIG partitions"}
_MODES = ("shared", "exclusive_process")
_NUM = re.compile(r"([0-9]+)(?:/(host|task))?\Z", re.A)
_NAME = re.compile(r"[A-Za-z0-9_.-]+\Z", re.A)
MAX_NUM = 1024


class GpuReqError(ValueError):
    """A GPU requirement that cannot be read; str() says which part."""


def parse(text):
    """The options *text* sets, {option: value}; '-' and '' set none."""
    text = (text or "").strip()
    if text in ("", "-"):
        return {}
    out = {}
    for part in text.split(":"):
        name, eq, value = part.strip().partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not value:
            raise GpuReqError(f"{part!r}: expected option=value")
        if name in out or (name == "gmodel" and "gmodel" in out):
            raise GpuReqError(f"{name}: given twice")
        if name in _NOT_ACTED:
            raise GpuReqError(f"{name}: {_NOT_ACTED[name]} is not supported")
        reader = _READERS.get(name)
        if reader is None:
            raise GpuReqError(f"{name}: unknown GPU option")
        out.update(reader(value))
    return out


def _num(value):
    m = _NUM.match(value)
    if m is None or not 1 <= int(m.group(1)) <= MAX_NUM:
        raise GpuReqError(f"num={value}: expected 1 to {MAX_NUM}, "
                          "optionally /host or /task")
    return {"num": int(m.group(1)), "per_task": m.group(2) == "task"}


def _mode(value):
    if value not in _MODES:
        raise GpuReqError(f"mode={value}: expected shared or "
                          "exclusive_process")
    return {"mode": value}


def _mps(value):
    if value == "no":
        return {"mps": "no"}
    if value.split(",")[0] in ("yes", "per_socket", "per_gpu"):
        raise GpuReqError(f"mps={value}: xce starts no Multi-Process "
                          "Service daemon (use mps=no)")
    raise GpuReqError(f"mps={value}: expected yes or no")


def _yes_no(name):
    def read(value):
        if value not in ("yes", "no"):
            raise GpuReqError(f"{name}={value}: expected yes or no")
        return {name: value == "yes"}
    return read


def _gmodel(value):
    """NAME, or NAME-SIZE: the model with that much memory (a name may
    hold dashes itself: only a last part that reads as a size is one)."""
    name, _, size = value.rpartition("-")
    mem = None
    if name and re.match(r"[0-9]", size):
        try:
            mem = units.size_bytes(size, "MB") / 2 ** 20
        except ValueError:
            name = value
    else:
        name = value
    if not _NAME.match(name):
        raise GpuReqError(f"gmodel={value}: expected a model name")
    return {"gmodel": name, "gmodel_mem": mem}


def _gmem(value):
    return {"gmem": _mb(value, f"gmem={value}")}


def _mb(value, what):
    """A memory amount in MB (a bare number is MB, as LSF reads gmem)."""
    try:
        return units.size_bytes(value, "MB") / 2 ** 20
    except ValueError:
        raise GpuReqError(f"{what}: expected a memory amount such as 8G")


_READERS = {"num": _num, "mode": _mode, "mps": _mps,
            "j_exclusive": _yes_no("j_exclusive"), "gmodel": _gmodel,
            "gmem": _gmem}


def merge(job=None, app=None, queue=None, cluster=None):
    """The effective GpuReq: each option from the most specific level
    that sets it (each level a parse() result or None)."""
    out = dict(DEFAULTS)
    for level in (cluster, queue, app, job):
        if level:
            out.update(level)
    return GpuReq(**out)


def exclusive(req):
    """Whether the job's devices may serve no other job."""
    return req.j_exclusive or req.mode == "exclusive_process"


def show(req):
    """The requirement as LSF writes the effective one (bjobs -l)."""
    num = f"{req.num}/task" if req.per_task else f"{req.num}/host"
    parts = [f"num={num}", f"mode={req.mode}", f"mps={req.mps}",
             "j_exclusive=" + ("yes" if exclusive(req) else "no")]
    if req.gmodel:
        parts.append("gmodel=" + req.gmodel + (
            f"-{_size(req.gmodel_mem)}" if req.gmodel_mem else ""))
    if req.gmem:
        parts.append(f"gmem={_size(req.gmem)}")
    return ":".join(parts)


def _size(mb):
    if mb >= 1024 and mb % 1024 == 0:
        return f"{int(mb // 1024)}G"
    return f"{mb:g}M"
