"""The GPUs of the agent's host, as nvidia-smi reports them.

detect() is the one place that asks the hardware: it runs nvidia-smi
(found on PATH; posix_spawn with a pipe, a few seconds at most) and
parse() turns its CSV into devices, each {"id", "uuid", "model", "mem"
(MB), and "state" when no job may use it}, the shape a host's declared `gpus:` take in xce.yaml
(xce.model.gpus), so that the controller treats both alike.  A host
without nvidia-smi, or where it fails, reports no devices.
"""

import logging
import shutil

from xce.agent import spawn

log = logging.getLogger("xce.agent")

QUERY = "--query-gpu=index,uuid,name,memory.total,compute_mode"
ARGS = (QUERY, "--format=csv,noheader,nounits")
TIMEOUT = 5.0


def detect(which=shutil.which):
    path = which("nvidia-smi")
    if path is None:
        return []
    try:
        text = spawn.capture([path, *ARGS], {"PATH": "/usr/bin:/bin"},
                             TIMEOUT)
    except OSError as e:
        log.warning("nvidia-smi: %s", e)
        return []
    return parse(text) if text is not None else []


def parse(text):
    """Devices from `nvidia-smi --query-gpu=index,uuid,name,memory.total,
    compute_mode --format=csv,noheader,nounits`; lines that do not read
    are skipped (and logged)."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        cols = [c.strip() for c in line.split(",")]
        try:
            index, uuid, name, mem = cols[0], cols[1], cols[2], cols[3]
            dev = {"id": int(index), "uuid": uuid,
                   "model": "".join(name.split()), "mem": float(mem)}
        except (IndexError, ValueError):
            log.warning("nvidia-smi: unreadable line %r", line)
            continue
        if len(cols) > 4 and cols[4].lower().startswith("prohibited"):
            dev["state"] = "prohibited"     # no process may use it
        out.append(dev)
    return out
