"""Static facts about the agent's host, reported in its hello."""

import os
import platform
import re
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
        "type": host_type(platform.system(), platform.machine()),
        "model": platform.machine().upper() or "UNKNOWN",
        # What lsf.shared's HostModel ARCHITECTURE strings are matched
        # against (xce.config.hostarch).
        "arch": arch_strings(platform.machine(), _cpuinfo()),
        # Detected GPUs (none without nvidia-smi); a host's declared
        # `gpus:` in xce.yaml take their place (xce.model.gpus).
        "gpus": gpus.detect(),
        # The container runtimes a profile's CONTAINER may ask for.
        "containers": container.detect(),
    }


# LSF's type names for (operating system, machine) pairs it ships for.
_LSF_TYPES = {("Linux", "x86_64"): "X86_64", ("Linux", "aarch64"):
              "LINUX_ARM64", ("Linux", "ppc64le"): "LINUXPPC64LE",
              ("Linux", "ppc64"): "LINUXPPC64", ("Linux", "armv7l"):
              "LINUX_ARM", ("Darwin", "x86_64"): "MACOSX",
              ("Darwin", "arm64"): "MACOSX"}


def host_type(system, machine):
    """The host's type, in LSF's name where LSF has one (X86_64 for
    Linux on x86_64), else the machine name in capitals."""
    return _LSF_TYPES.get((system, machine)) or machine.upper() or "UNKNOWN"


def _cpuinfo():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            return f.read(65536)
    except OSError:
        return ""


def _field(cpuinfo, *names):
    """The first CPU's value of the first of *names* it has."""
    fields = {}
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip().lower(), value.strip())
    return next((fields[n] for n in names if fields.get(n)), "")


def arch_strings(machine, cpuinfo):
    """The strings the host's CPU is known by, most precise first: LSF's
    x<family>_<bogomips>_<name> (x86), the CPU name with everything but
    letters and digits removed, and the machine name."""
    name = re.sub(r"[^A-Za-z0-9]", "", _field(cpuinfo, "model name",
                                                 "cpu", "processor"))
    found = []
    family = _field(cpuinfo, "cpu family")
    bogomips = re.match(r"[0-9]+", _field(cpuinfo, "bogomips"))
    if name and family.isdigit() and bogomips:
        found.append(f"x{family}_{bogomips[0]}_{name}")
    if name:
        found.append(name)
    if machine:
        found.append(machine)
    return found


def _disk_kb(path):
    """The size of the file system holding *path*, in KB (rusage[tmp])."""
    try:
        return shutil.disk_usage(path).total // 1024
    except OSError:
        return None
