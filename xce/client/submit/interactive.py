"""bsub -I, -Ip, -Is: the submitting end of an interactive job.

Before submitting, bsub listens on a TCP port of its host and puts the
port's addresses and a fresh key in its request (xce.model.termwire).  It
then waits for the job's relay to call back from the execution host,
checks that the caller holds the key (and proves it holds it too), and
copies the terminal to the job and the job's output back until the job
ends; it exits with the job's exit status.

With -Ip and -Is the job has a pseudo-terminal of its own, so bsub puts
its terminal in raw mode: keys, Ctrl-C and Ctrl-Z included, go to the
job's terminal as typed (-Is); -Ip keeps Ctrl-C, Ctrl-\\ and Ctrl-Z as
signals, which bsub passes on to the job.  A window-size change is passed
on too.  Loaded only for interactive jobs: a batch bsub never imports it.
"""

import fcntl
import os
import select
import signal
import socket
import struct
import sys
import termios
import time
import tty

from xce.errors import XceError
from xce.model import termwire
from xce.store.reader import Reader

POLL = 0.25             # looks at the store while the job is pending
HANDSHAKE_WAIT = 5.0
MAX_ADDRS = 16
CHUNK = 1 << 15
_SIOCGIFADDR = 0x8915
# Signals bsub passes to the job.  SIGHUP (the terminal is gone) and
# SIGTERM end bsub instead, and with it the job (the relay hangs it up).
_PASSED = (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP)
_ENDING = (signal.SIGHUP, signal.SIGTERM)
_WAIT_ENDING = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM)


def local_addresses():
    """This host's IPv4 addresses, the loopback last: the relay tries each
    (a host in another network reaches only some of them)."""
    found = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            addr = socket.inet_ntoa(packed[20:24])
            if addr not in found:
                found.append(addr)
    finally:
        probe.close()
    found.sort(key=lambda a: a.startswith("127."))
    return found[:MAX_ADDRS] or ["127.0.0.1"]


class Session:
    """The listening socket and key of one interactive submission."""

    def __init__(self, mode):
        self.mode = mode
        self.key = termwire.new_key()
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("0.0.0.0", 0))
        self.listener.listen(8)
        port = self.listener.getsockname()[1]
        self.addrs = [f"{a}:{port}" for a in local_addresses()]

    def spec_fields(self):
        return {"interactive": self.mode, "interactive_addrs": self.addrs,
                "interactive_key": self.key}

    def run(self, site, jobid):
        """Wait for the job, relay its terminal; bsub's exit status."""
        quiet = bool(os.environ.get("BSUB_QUIET"))
        _note("<<Waiting for dispatch ...>>", quiet)
        conn, hello, ended = self._await_job(site, jobid)
        if conn is None:
            return ended
        _note(f"<<Starting on {hello.get('host')}>>", quiet)
        end = Terminal(conn, self.mode).run()
        return finish(site, jobid, end)

    def _await_job(self, site, jobid):
        """(connection, hello, None) once the job's relay has called and
        proved itself; (None, None, status) if the job ended first.
        Interrupted (Ctrl-C, a lost terminal) the job is killed, and
        bsub waits for it to end pending."""
        self.listener.setblocking(False)
        stopped = []
        for sig in _WAIT_ENDING:
            signal.signal(sig, lambda *_: stopped.append(True))
        asked = False
        while True:
            if stopped and not asked:
                asked = _kill(site, jobid)
            ready, _, _ = select.select([self.listener], [], [], POLL)
            if ready:
                conn, hello = self._accept(jobid)
                if conn is not None:
                    self.listener.close()
                    return conn, hello, None
                continue
            row = _job_row(site, jobid)
            if row and row["stat"] in ("DONE", "EXIT") and \
                    not select.select([self.listener], [], [], 0)[0]:
                return None, None, _ended_unseen(row)

    def _accept(self, jobid):
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return None, None
        try:
            conn.setblocking(True)
            conn.settimeout(HANDSHAKE_WAIT)
            return conn, self._handshake(conn, jobid)
        except (OSError, termwire.WireError, KeyError, ValueError):
            conn.close()        # not our job's relay: wait on
            return None, None

    def _handshake(self, conn, jobid):
        ours = termwire.new_nonce()
        conn.sendall(termwire.GREETING + ours.encode() + b"\n")
        hello = termwire.parse_line(_read_line(conn))
        job, idx = int(hello["job"]), int(hello["idx"])
        if job != jobid or not termwire.proven(
                self.key, "exec", ours, job, idx, hello.get("proof")):
            raise termwire.WireError("the caller did not prove the key")
        conn.sendall(termwire.line({
            "proof": termwire.proof(self.key, "submit", str(hello["nonce"]),
                                    job, idx),
            "modes": _modes(), "winsize": _winsize()}))
        conn.settimeout(None)
        return hello


def _kill(site, jobid):
    """Ask the controller to kill the job (bsub no longer waits for it)."""
    from xce.client.requests import call
    try:
        call(site, "control", {"action": "kill",
                               "ids": [[str(jobid), jobid, None]]})
    except (OSError, XceError):
        pass        # bsub still waits, and shows the job's end
    return True


def _note(message, quiet):
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def _read_line(conn):
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(1)
        if not chunk or len(data) > termwire.MAX_LINE:
            raise termwire.WireError("bad handshake")
        data += chunk
    return data[:-1]


def _modes():
    """The submitting terminal's modes, for the job's pseudo-terminal."""
    try:
        modes = termios.tcgetattr(0)
    except termios.error:
        return None
    modes[6] = [c[0] if isinstance(c, bytes) else c for c in modes[6]]
    return modes


def _winsize():
    for fd in (0, 1, 2):
        try:
            rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(
                fd, termios.TIOCGWINSZ, b"\0" * 8))
            return [rows, cols]
        except OSError:
            continue
    return None


def _job_row(site, jobid):
    """The job's row, from history.db once it has left the store."""
    columns = ("stat", "exec_hosts", "exit_code", "exit_reason")
    with Reader(site.store_path) as reader:
        rows = reader.jobs("jobid=?", (jobid,), columns) or \
            reader.with_history().jobs("jobid=?", (jobid,), columns)
    return rows[0] if rows else None


def _ended_unseen(row):
    """The job ended before its relay called (killed while pending, or
    its relay could not reach this bsub)."""
    if not row["exec_hosts"]:
        _note("<<Terminated while pending>>", False)
        return 246      # LSF's nios exits with -10 then
    return row["exit_code"] if row["exit_code"] is not None else 1


class Terminal:
    """Copies bsub's terminal to the job and back, until the job ends."""

    def __init__(self, conn, mode):
        self.conn, self.mode = conn, mode
        self.frames = termwire.Frames()
        self.end = None             # the relay's END document
        self.stdin_open = True
        self.saved = None           # the terminal's modes, to restore
        self.pending = []           # frames from signal handlers
        self.stop_after_send = False
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)

    def run(self):
        self._take_terminal()
        try:
            while self._turn():
                pass
        finally:
            self._give_back_terminal()
            self.conn.close()
        return self.end

    def _take_terminal(self):
        for sig in _PASSED:
            signal.signal(sig, self._pass)
        for sig in _ENDING:
            signal.signal(sig, self._hang_up)
        signal.signal(signal.SIGWINCH, self._resized)
        signal.signal(signal.SIGCONT, self._continued)
        if self.mode in ("Ip", "Is") and os.isatty(0):
            self.saved = termios.tcgetattr(0)
            self._raw()

    def _raw(self):
        tty.setraw(0)
        if self.mode == "Ip":   # keys that signal stay signals here
            modes = termios.tcgetattr(0)
            modes[3] |= termios.ISIG
            termios.tcsetattr(0, termios.TCSANOW, modes)

    def _give_back_terminal(self):
        if self.saved is not None:
            termios.tcsetattr(0, termios.TCSADRAIN, self.saved)

    def _pass(self, sig, _frame):
        self.pending.append(termwire.frame(termwire.SIGNAL, bytes([sig])))
        if sig == signal.SIGTSTP:
            self.stop_after_send = True

    def _continued(self, _sig, _frame):
        self.pending.append(termwire.frame(termwire.SIGNAL,
                                           bytes([signal.SIGCONT])))
        if self.saved is not None:      # back in the foreground: raw again
            self._raw()

    def _resized(self, _sig, _frame):
        size = _winsize()
        if size:
            self.pending.append(termwire.winsize_frame(*size))

    def _hang_up(self, sig, _frame):
        self._give_back_terminal()
        self.conn.close()           # the relay hangs the job up
        os._exit(128 + sig)

    def _turn(self):
        r = [self.conn, self.wake_r] + ([0] if self.stdin_open else [])
        try:
            ready, _, _ = select.select(r, [], [])
        except ValueError:          # the connection was closed
            return False
        if self.wake_r in ready:
            termwire.drain(self.wake_r)
        self._send_pending()
        if 0 in ready:
            self._from_terminal()
        if self.conn in ready:
            return self._from_job()
        return True

    def _send_pending(self):
        while self.pending:
            self._send(self.pending.pop(0))
        if self.stop_after_send:
            # Ctrl-Z: the job has been stopped; bsub stops too, with the
            # terminal as it found it, until the shell continues it.
            self.stop_after_send = False
            self._give_back_terminal()
            os.kill(os.getpid(), signal.SIGSTOP)

    def _send(self, data):
        try:
            self.conn.sendall(data)
        except OSError:
            pass                    # the job's end is read next

    def _from_terminal(self):
        try:
            data = os.read(0, CHUNK)
        except OSError:
            data = b""
        if not data:
            self.stdin_open = False
        self._send(termwire.frame(termwire.STDIN, data))

    def _from_job(self):
        try:
            data = self.conn.recv(CHUNK)
        except OSError:
            data = b""
        if not data:
            return False
        for kind, payload in self.frames.feed(data):
            if kind in (termwire.STDOUT, termwire.STDERR):
                _write_all(1 if kind == termwire.STDOUT else 2, payload)
            elif kind == termwire.END:
                self.end = termwire.parse_line(payload)
        return True


def _write_all(fd, data):
    while data:
        try:
            n = os.write(fd, data)
        except BlockingIOError:
            select.select([], [fd], [])
            continue
        except OSError:
            return
        data = data[n:]


def finish(site, jobid, end):
    """bsub's exit status from the relay's END (None: the relay died):
    the job's exit code, 128 + the signal that killed it."""
    if end is not None and isinstance(end.get("exit"), int):
        return end["exit"]
    row = _wait_finished(site, jobid)
    if row and row["exit_reason"] in _KILLED_BY_USER:
        print(f"<< Job <{jobid}> has been terminated by user or "
              "administrator >>", file=sys.stderr, flush=True)
    if end is not None and isinstance(end.get("signal"), int):
        return 128 + end["signal"]
    return row["exit_code"] if row and row["exit_code"] is not None else 1


_KILLED_BY_USER = ("TERM_OWNER", "TERM_ADMIN", "TERM_FORCE_OWNER",
                   "TERM_FORCE_ADMIN", "TERM_BUCKET_KILL")
FINISH_WAIT = 5.0


def _wait_finished(site, jobid):
    """The job's row once the store has its end (a few seconds at most:
    the relay has ended, so the job has)."""
    deadline = time.monotonic() + FINISH_WAIT
    row = _job_row(site, jobid)
    while (row is None or row["stat"] not in ("DONE", "EXIT")) and \
            time.monotonic() < deadline:
        time.sleep(0.1)
        row = _job_row(site, jobid)
    return row
