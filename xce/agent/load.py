"""The host's load indices, as LSF's LIM reports them (see lsload(1)).

Raw values, averaged the way LSF says: r15s, r1m and r15m are run-queue
lengths over 15 s, 1 min and 15 min; ut (0..1), pg (pages in + out per
second) and io (KB/s) are exponentially averaged over the last minute;
ls is the number of login sessions, it the minutes since a login terminal
was last touched; tmp, swp and mem are what is free, in MB.

Sampling is cheap (a few /proc reads and one statvfs); the agent calls
``sample`` every few seconds and sends the result to the controller.
"""

import math
import os
import time

import psutil

AVERAGE = 60.0      # seconds: ut, pg and io average over the last minute
RUNQ_AVERAGE = 15.0  # r15s
_PAGE = os.sysconf("SC_PAGE_SIZE")


class LoadSampler:
    def __init__(self, tmpdir="/tmp", now=time.time):
        self.tmpdir = tmpdir
        self.now = now
        self.last = None        # (time, cpu busy, cpu total, pages, io KB)
        self.avg = {}

    def sample(self):
        """The indices now; the first call averages since boot."""
        now = self.now()
        counters = _counters()
        r1m, _, r15m = os.getloadavg()
        if self.last is None:
            # Since boot: a real average, and not a zero that means nothing.
            uptime = max(1.0, now - psutil.boot_time())
            rates = {"ut": _ratio(counters[0], counters[1]),
                     "pg": counters[2] / uptime, "io": counters[3] / uptime}
            self.avg = dict(rates, r15s=r1m)
        else:
            dt = max(1e-3, now - self.last[0])
            rates = {"ut": _ratio(counters[0] - self.last[1],
                                  counters[1] - self.last[2]),
                     "pg": (counters[2] - self.last[3]) / dt,
                     "io": (counters[3] - self.last[4]) / dt}
            for name, value in rates.items():
                self.avg[name] = _decay(self.avg[name], value, dt, AVERAGE)
            self.avg["r15s"] = _decay(self.avg["r15s"], _runnable(), dt,
                                      RUNQ_AVERAGE)
        self.last = (now, *counters)
        sessions = psutil.users()
        load = {"r15s": self.avg["r15s"], "r1m": r1m, "r15m": r15m,
                "ut": self.avg["ut"], "pg": self.avg["pg"],
                "io": self.avg["io"], "ls": len(sessions),
                "it": _idle_minutes(sessions, now),
                "tmp": _free_mb(self.tmpdir),
                "swp": psutil.swap_memory().free / 1048576,
                "mem": psutil.virtual_memory().available / 1048576}
        return {k: round(v, 3) for k, v in load.items()}


def _decay(old, new, dt, period):
    """Exponential average of *new* into *old* after *dt* seconds."""
    w = math.exp(-dt / period)
    return old * w + new * (1.0 - w)


def _ratio(part, whole):
    return min(1.0, max(0.0, part / whole)) if whole > 0 else 0.0


def _counters():
    """CPU busy and total seconds, pages paged in + out, disk KB moved."""
    cpu = psutil.cpu_times()
    total = sum(cpu)
    idle = cpu.idle + getattr(cpu, "iowait", 0.0)
    swap = psutil.swap_memory()
    pages = (swap.sin + swap.sout) / _PAGE
    try:
        disk = psutil.disk_io_counters()
        io_kb = (disk.read_bytes + disk.write_bytes) / 1024 if disk else 0.0
    except (OSError, RuntimeError):
        io_kb = 0.0
    return total - idle, total, pages, io_kb


def _runnable():
    """Processes in the run queue now (the fourth field of /proc/loadavg,
    less this agent, which is running as it reads it)."""
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return os.getloadavg()[0]
    return max(0, running - 1)


def _idle_minutes(sessions, now):
    """Minutes since a login terminal was last used: the most recent
    access time of the sessions' terminals; with none logged in, since
    the host booted (nobody has touched it)."""
    last = None
    for s in sessions:
        if not s.terminal:
            continue
        try:
            atime = os.stat(os.path.join("/dev", s.terminal)).st_atime
        except OSError:
            continue
        last = atime if last is None else max(last, atime)
    if last is None:
        last = psutil.boot_time()
    return max(0.0, (now - last) / 60.0)


def _free_mb(path):
    try:
        st = os.statvfs(path)
    except OSError:
        return 0.0
    return st.f_bavail * st.f_frsize / 1048576
