"""Static facts about the agent's host, reported in its hello."""

import os
import platform
import shutil
import tempfile

import psutil

from xce.agent import container, gpus


def facts():
    return {
        "ncpus": os.cpu_count() or 1,
        "maxmem": psutil.virtual_memory().total // 1024,     # KB
        "maxswp": psutil.swap_memory().total // 1024,
        "maxtmp": _disk_kb(tempfile.gettempdir()),
        "type": platform.machine().upper() or "UNKNOWN",
        "model": platform.machine().upper() or "UNKNOWN",
        # Detected GPUs (none without nvidia-smi); a host's declared
        # `gpus:` in xce.yaml take their place (xce.model.gpus).
        "gpus": gpus.detect(),
        # The container runtimes a profile's CONTAINER may ask for.
        "containers": container.detect(),
    }


def _disk_kb(path):
    """The size of the file system holding *path*, in KB (rusage[tmp])."""
    try:
        return shutil.disk_usage(path).total // 1024
    except OSError:
        return None
