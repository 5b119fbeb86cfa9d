"""Reading processes from /proc: identity, liveness and per-session usage.

One pass over /proc per sample, processes attributed to jobs by session id
(a job's wrapper is its session leader), is much cheaper than psutil's
per-process calls when many jobs run.
"""

import os
import stat

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def _stat_fields(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: split after the last ')'.
    return data[data.rindex(b")") + 2:].split()


def start_ticks(pid):
    """The process's start time in clock ticks since boot, or None."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields else None


def alive(pid, ticks):
    """True if *pid* is the same living process (not a zombie, not reused)."""
    fields = _stat_fields(pid)
    if not fields or fields[0] == b"Z":
        return False
    return ticks is None or int(fields[19]) == ticks


def leads_session_under(pid, parent):
    """True if *pid* is a live session leader whose parent is *parent*."""
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] != b"Z" and \
        int(fields[1]) == parent and int(fields[3]) == pid


def sample_sessions(sids):
    """sid -> {cpu seconds, rss KB, vsize KB, nprocs, threads, pids, and
    job_procs/job_threads: those but the session leader's (the job's
    wrapper)} for the given sessions.  CPU counts what the live processes
    used and what the children they reaped used (cutime, cstime), so that
    the time of a job's finished processes stays in its total."""
    usage = {sid: {"cpu": 0.0, "rss": 0, "vsize": 0, "nprocs": 0,
                   "threads": 0, "job_procs": 0, "job_threads": 0,
                   "pids": []}
             for sid in sids}
    if not usage:
        return usage
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        fields = _stat_fields(name)
        if not fields or fields[0] == b"Z":
            continue
        sid = int(fields[3])
        u = usage.get(sid)
        if u is None:
            continue
        u["cpu"] += sum(int(f) for f in fields[11:15]) / _TICKS
        u["rss"] += int(fields[21]) * _PAGE_KB
        u["vsize"] += int(fields[20]) // 1024
        u["nprocs"] += 1
        u["threads"] += int(fields[17])
        if int(name) != sid:
            u["job_procs"] += 1
            u["job_threads"] += int(fields[17])
        u["pids"].append(int(name))
    return usage


def own_peak_kb():
    """This process's peak resident set (VmHWM, KB), or 0.

    A child spawned with posix_spawn (vfork-style) inherits this value as
    its own ru_maxrss at exec: a child's ru_maxrss above it is its own."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def read_user_file(path, limit):
    """Up to *limit* bytes of a small file written with a job's user's
    rights, b'' when it is missing or not a regular file.  Never follows
    a link, never blocks on a FIFO the user put there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, limit)
    except OSError:
        return b""
    finally:
        os.close(fd)


def read_small_int(path):
    """The number in a small file a job's or task's wrapper wrote as the
    job's user, or None."""
    try:
        return int(read_user_file(path, 64).split()[0])
    except (ValueError, IndexError):
        return None


def read_peak_file(path):
    """The KB a job's wrapper wrote at its end (its children's peak RSS),
    or 0; only ever used to raise a figure, never to lower one."""
    return max(0, read_small_int(path) or 0)
