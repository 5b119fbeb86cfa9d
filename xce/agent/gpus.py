"""The GPUs of the agent's host, as nvidia-smi reports them.

detect() is the one place that asks the hardware: it runs nvidia-smi
(found on PATH; posix_spawn with a pipe, a few seconds at most) and
parse() turns its CSV into devices, each {"id", "uuid", "model", "mem"
(MB), and "state" when no job may use it}, the shape a host's declared `gpus:` take in xce.yaml
(xce.model.gpus), so that the controller treats both alike.  A host
without nvidia-smi, or where it fails, reports no devices.
"""

import logging
import os
import select
import shutil
import time

log = logging.getLogger("xce.agent")

QUERY = "--query-gpu=index,uuid,name,memory.total,compute_mode"
ARGS = (QUERY, "--format=csv,noheader,nounits")
TIMEOUT = 5.0


def detect(which=shutil.which):
    path = which("nvidia-smi")
    if path is None:
        return []
    try:
        text = _run([path, *ARGS])
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


def _run(argv):
    """nvidia-smi's standard output, or None if it failed or hung."""
    rd, wr = os.pipe()
    try:
        with open(os.devnull, "rb") as null:
            pid = os.posix_spawn(argv[0], argv, {"PATH": "/usr/bin:/bin"},
                                 file_actions=[
                                     (os.POSIX_SPAWN_DUP2, null.fileno(), 0),
                                     (os.POSIX_SPAWN_DUP2, wr, 1),
                                     (os.POSIX_SPAWN_DUP2, null.fileno(), 2)])
    finally:
        os.close(wr)
    chunks, deadline = [], time.monotonic() + TIMEOUT
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([rd], [], [], left)[0]:
                os.kill(pid, 9)
                break
            data = os.read(rd, 65536)
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(rd)
        status = os.waitpid(pid, 0)[1]
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    return b"".join(chunks).decode(errors="replace")
