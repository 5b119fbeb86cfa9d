"""Static facts about the agent's host, reported in its hello."""

import os
import platform

import psutil


def facts():
    return {
        "ncpus": os.cpu_count() or 1,
        "maxmem": psutil.virtual_memory().total // 1024,     # KB
        "maxswp": psutil.swap_memory().total // 1024,
        "type": platform.machine().upper() or "UNKNOWN",
        "model": platform.machine().upper() or "UNKNOWN",
    }
