"""What both daemons share: single-instance lock, pid file, log file, detach.

Detaching re-executes the daemon with posix_spawn in a new session, since
daemons never fork (invariant 6).
"""

import fcntl
import logging
import os
import signal
import sys


def signal_wakeup_pipe():
    """A non-blocking pipe whose read end becomes readable when a signal
    arrives (signal.set_wakeup_fd), so a daemon's select loop wakes for
    its handlers.  Returns the read end; drain it with drain()."""
    rfd, wfd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wfd, warn_on_full_buffer=False)
    return rfd


def drain(fd):
    """Reads a non-blocking descriptor empty."""
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass


class AlreadyRunning(Exception):
    pass


class Instance:
    """Holds the lock and pid file of one daemon for as long as it runs.

    The lock is a flock(2) on a file of the daemon's directory, taken
    without waiting; the kernel drops it when the daemon dies however it
    dies.  Its descriptor closes on exec (an agent's hrestart takes it
    again in its new image)."""

    def __init__(self, lock_path, pid_path):
        self.lock_path = lock_path
        self.pid_path = pid_path
        self.fd = None

    def acquire(self):
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                     0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise AlreadyRunning(
                f"another instance holds {self.lock_path} "
                f"(pid {read_pid(self.pid_path) or 'unknown'})")
        self.fd = fd
        tmp = f"{self.pid_path}.tmp"
        with open(tmp, "w") as f:
            f.write(f"{os.getpid()}\n")
        os.replace(tmp, self.pid_path)

    def release(self):
        try:
            if read_pid(self.pid_path) == os.getpid():
                os.unlink(self.pid_path)
        except OSError:
            pass
        if self.fd is not None:
            os.close(self.fd)       # closing the descriptor drops the lock
            self.fd = None


def read_pid(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def pid_alive(pid):
    """True for a live, non-zombie process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return False
    return data[data.rindex(b")") + 2:][:1] != b"Z"


def setup_logging(log_path, name, foreground):
    handlers = [logging.FileHandler(log_path)]
    if foreground and sys.stderr.isatty():
        handlers.append(logging.StreamHandler())
    logging.basicConfig(
        level=os.environ.get("XCE_LOG_LEVEL", "INFO"), handlers=handlers,
        format=f"%(asctime)s {name}[%(process)d] %(levelname)s %(message)s")


def detach(argv, log_path):
    """Start *argv* (which must run in the foreground) as a daemon; its pid."""
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.close(fd)
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, str(log_path),
                os.O_WRONLY | os.O_APPEND, 0),
               (os.POSIX_SPAWN_DUP2, 1, 2)]
    return os.posix_spawn(argv[0], argv, dict(os.environ),
                          file_actions=actions, setsid=True, setsigmask=[],
                          setsigdef=[signal.SIGINT, signal.SIGTERM,
                                     signal.SIGHUP, signal.SIGPIPE])


def close_stray_fds():
    """fds inherited without CLOEXEC would leak into every job."""
    os.closerange(3, 1024)


def become_subreaper():
    """Orphaned job processes are re-parented here, so they get reaped."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)     # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass
