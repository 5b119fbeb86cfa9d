"""Process helpers for the test hosts: look processes up by PID in /proc.

Everything here works on explicit PIDs.  Nothing matches processes by name,
because other engineers' daemons (and other test runs) share this machine.
"""

import os
import signal
import subprocess
import time


def _stat_fields(pid):
    """Fields of /proc/PID/stat after the command name, or None if gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            data = f.read()
    except OSError:
        return None
    # The command name may contain spaces and parentheses; it ends at the last ')'.
    return data.rsplit(")", 1)[1].split()


def state(pid):
    """One-letter process state ('R', 'S', 'Z', ...) or None if gone."""
    fields = _stat_fields(pid)
    return fields[0] if fields else None


def start_time(pid):
    """Start time in clock ticks since boot; with the PID it names a process
    uniquely, so a recycled PID is never mistaken for the one we recorded."""
    fields = _stat_fields(pid)
    return int(fields[19]) if fields else None


def alive(pid):
    """True if PID runs.  Zombies count as dead: init on this sandbox reaps
    orphans lazily, and a zombie holds no namespace, socket or file."""
    return state(pid) not in (None, "Z", "X")


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return []
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def environ_value(pid, key):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    prefix = key.encode() + b"="
    for item in raw.split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix):].decode(errors="replace")
    return None


def all_pids():
    return [int(d) for d in os.listdir("/proc") if d.isdigit()]


def descendants(root):
    """All live descendants of ROOT, from one pass over /proc."""
    kids = {}
    for pid in all_pids():
        fields = _stat_fields(pid)
        if fields:
            kids.setdefault(int(fields[1]), []).append(pid)
    found, todo = [], [root]
    while todo:
        for child in kids.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_and_wait(pids, timeout=15.0):
    """SIGKILL each PID and poll until none is alive; return survivors."""
    pids = [p for p in pids if p != os.getpid()]
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in pids if alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.005)


def stop_popen(proc, grace=2.0):
    """Terminate a child we started and reap it, escalating to SIGKILL."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    return proc.returncode
