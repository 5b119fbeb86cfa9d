"""The execution end of an interactive job's terminal channel.

The job's wrapper runs this, as the job's user, in place of the job's
command (xce.agent.interactive builds the command line).  It connects to
the submitting bsub (xce.model.termwire: each side proves it holds the
job's key), starts the command on a pseudo-terminal (-Ip, -Is) or on pipes
(-I), and copies bytes both ways until the command ends; then it tells
bsub the command's status and exits with it (a command killed by a signal
kills the relay with that signal), so the job's status is the command's.

Signals the agent sends the job (bkill, bstop) reach the relay's process
group: with a pseudo-terminal the command has a session of its own, and
the relay passes them on.  When bsub goes away (its terminal was lost),
the command is hung up, as a terminal hang-up would, and killed if it
outlives that.

Stdlib only, and no fork: it is a plain process of the user's.
"""

import errno
import fcntl
import json
import os
import select
import signal
import socket
import struct
import sys
import termios
import time

from xce.model import termwire

CONNECT_WAIT = 5.0      # per address of bsub's
HANDSHAKE_WAIT = 10.0
DRAIN_WAIT = 0.3        # output still coming after the command ended
HANGUP_GRACE = 5.0      # from SIGHUP to SIGKILL when bsub is gone
HIGH_WATER = 4 << 20
CHUNK = 1 << 15
SHELL = "/bin/sh"
PASSED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
          signal.SIGUSR1, signal.SIGUSR2, signal.SIGCONT, signal.SIGTSTP,
          signal.SIGWINCH, signal.SIGXCPU)
DEFAULT_SIGNALS = [signal.SIGPIPE, signal.SIGXFSZ, *PASSED, signal.SIGCHLD,
                   signal.SIGTTIN, signal.SIGTTOU]


def say(message):
    os.write(2, f"xce interactive job: {message}\n".encode())


def connect(cfg):
    """An authenticated socket to bsub and bsub's handshake reply, or
    (None, reason)."""
    reason = "no address"
    for addr in cfg["addrs"]:
        host, _, port = addr.rpartition(":")
        try:
            sock = socket.create_connection((host, int(port)), CONNECT_WAIT)
        except (OSError, ValueError) as e:
            reason = f"{addr}: {e}"
            continue
        try:
            return sock, _handshake(sock, cfg)
        except (OSError, termwire.WireError) as e:
            reason = f"{addr}: {e}"
            sock.close()
    return None, reason


def _handshake(sock, cfg):
    sock.settimeout(HANDSHAKE_WAIT)
    greeting = _read_line(sock)
    if not greeting.startswith(termwire.GREETING):
        raise termwire.WireError("not a bsub")
    theirs = greeting[len(termwire.GREETING):].decode("ascii", "replace")
    ours = termwire.new_nonce()
    job, idx, key = cfg["job"], cfg["idx"], cfg["key"]
    sock.sendall(termwire.line({
        "job": job, "idx": idx, "host": cfg["host"], "nonce": ours,
        "proof": termwire.proof(key, "exec", theirs, job, idx)}))
    reply = termwire.parse_line(_read_line(sock))
    if not termwire.proven(key, "submit", ours, job, idx, reply.get("proof")):
        raise termwire.WireError("bsub did not prove the job's key")
    sock.settimeout(None)
    return reply


def _read_line(sock):
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise termwire.WireError("closed during the handshake")
        data += chunk
        if len(data) > termwire.MAX_LINE:
            raise termwire.WireError("handshake line too long")
    return data[:-1]


class Child:
    """The job's command, on a pseudo-terminal or on pipes.  *term*: which
    of fds 0, 1, 2 go to bsub (the others stay on the job's files)."""

    def __init__(self, cmd, env, pty, term, reply):
        self.pty, self.master = pty, None
        self.input, self.outputs = None, {}     # fd -> frame type
        actions, close_after = [], []
        if pty:
            self.master, slave = os.openpty()
            _set_modes(slave, reply)
            # Opened after setsid (posix_spawn does that first), the
            # terminal becomes the command's controlling terminal.
            actions.append((os.POSIX_SPAWN_OPEN, 3, os.ttyname(slave),
                            os.O_RDWR, 0))
            actions += [(os.POSIX_SPAWN_DUP2, 3, fd)
                        for fd in range(3) if term[fd]]
            actions.append((os.POSIX_SPAWN_CLOSE, 3))
            close_after.append(slave)
            self.input = self.master
            self.outputs[self.master] = termwire.STDOUT
        else:
            for fd, kind in ((0, None), (1, termwire.STDOUT),
                             (2, termwire.STDERR)):
                if not term[fd]:
                    continue
                r, w = os.pipe()
                ours, theirs = (w, r) if fd == 0 else (r, w)
                actions.append((os.POSIX_SPAWN_DUP2, theirs, fd))
                close_after.append(theirs)
                if fd == 0:
                    self.input = ours
                else:
                    self.outputs[ours] = kind
        try:
            self.pid = os.posix_spawn(
                SHELL, [SHELL, "-c", cmd], env, file_actions=actions,
                setsid=pty, setsigmask=[], setsigdef=DEFAULT_SIGNALS)
        finally:
            for fd in close_after:
                os.close(fd)
        for fd in [self.input, *self.outputs]:
            if fd is not None:
                os.set_blocking(fd, False)
        self.status = None

    def signal(self, sig):
        """Pass *sig* on: to the terminal's foreground group and the
        command's session (pty), or to the relay's own group, which the
        command shares (pipes)."""
        groups = {os.getpgrp()}
        if self.pty:
            groups = {self.pid}
            try:
                groups.add(os.tcgetpgrp(self.master))
            except OSError:
                pass
        for group in groups:
            try:
                os.killpg(group, sig)
            except OSError:
                pass

    def reaped(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is not None

    def end_of_input(self):
        if self.pty:
            eof = termios.tcgetattr(self.master)[6][termios.VEOF]
            return eof if isinstance(eof, bytes) else bytes([eof])
        os.close(self.input)
        self.input = None
        return b""


def _set_modes(slave, reply):
    modes = reply.get("modes")
    if isinstance(modes, list) and len(modes) == 7:
        try:
            modes[6] = [bytes([c]) if i not in (termios.VMIN, termios.VTIME)
                        else c for i, c in enumerate(modes[6])]
            termios.tcsetattr(slave, termios.TCSANOW, modes)
        except (termios.error, TypeError, ValueError, OverflowError):
            pass
    size = reply.get("winsize")
    if isinstance(size, list) and len(size) == 2:
        _set_winsize(slave, *size)


def _set_winsize(fd, rows, cols):
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ,
                    struct.pack("HHHH", int(rows), int(cols), 0, 0))
    except (OSError, ValueError, struct.error):
        pass


class Relay:
    def __init__(self, sock, child):
        self.sock, self.child = sock, child
        self.frames = termwire.Frames()
        self.to_job, self.to_bsub = bytearray(), bytearray()
        self.input_ended = False
        self.bsub_gone = None       # when bsub went away
        self.ended_at = None        # when the command ended
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for sig in PASSED:
            if sig != signal.SIGWINCH:
                signal.signal(sig, self._pass)
        sock.setblocking(False)

    def _pass(self, sig, _frame):
        if not self.child.pty:
            return  # pipes: the command is in our group and had it already
        # bstop (the agent's SIGTSTP, see agent.interactive) stops the
        # command for good; the relay goes on (stopped, in a group with no
        # parent in its session, the kernel would continue it), and passes
        # bresume's SIGCONT on.
        self.child.signal(signal.SIGSTOP if sig == signal.SIGTSTP else sig)

    def run(self):
        while not self._done():
            self._turn()
        self._send(termwire.END, json.dumps(self._end()).encode())
        self._flush_to_bsub()
        return self.child.status

    def _done(self):
        if self.child.reaped() and self.ended_at is None:
            self.ended_at = time.monotonic()
        if self.ended_at is None:
            return False
        return not self.child.outputs or \
            time.monotonic() - self.ended_at > DRAIN_WAIT

    def _turn(self):
        r = [self.wake_r, *self.child.outputs] \
            if len(self.to_bsub) < HIGH_WATER else [self.wake_r]
        if self.bsub_gone is None and len(self.to_job) < HIGH_WATER:
            r.append(self.sock)
        w = []
        if self.to_job and self.child.input is not None:
            w.append(self.child.input)
        if self.to_bsub and self.bsub_gone is None:
            w.append(self.sock)
        timeout = 0.05 if self.ended_at or self.bsub_gone else None
        rr, ww, _ = select.select(r, w, [], timeout)
        if self.wake_r in rr:
            termwire.drain(self.wake_r)
        for fd in rr:
            if fd in self.child.outputs:
                self._from_job(fd)
        if self.sock in rr:
            self._from_bsub()
        if self.child.input in ww:
            self._write_job()
        if self.sock in ww:
            self._write_bsub()
        self._hang_up_late()

    def _from_job(self, fd):
        try:
            data = os.read(fd, CHUNK)
        except BlockingIOError:
            return
        except OSError as e:        # EIO: the terminal's last user left
            if e.errno != errno.EIO:
                raise
            data = b""
        if not data:
            del self.child.outputs[fd]
            if fd != self.child.input:
                os.close(fd)
            return
        self._send(self.child.outputs[fd], data)

    def _send(self, kind, data):
        for at in range(0, max(len(data), 1), termwire.MAX_FRAME):
            self.to_bsub += termwire.frame(
                kind, data[at:at + termwire.MAX_FRAME])

    def _from_bsub(self):
        try:
            data = self.sock.recv(CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            return self._lost_bsub()
        try:
            frames = self.frames.feed(data)
        except termwire.WireError:
            return self._lost_bsub()
        for kind, payload in frames:
            self._obey(kind, payload)

    def _obey(self, kind, payload):
        if kind == termwire.STDIN:
            if payload:
                self.to_job += payload
            elif not self.input_ended and self.child.input is not None:
                self.input_ended = True
                self.to_job += self.child.end_of_input() if self.child.pty \
                    else b""
                if not self.child.pty and not self.to_job:
                    self.child.end_of_input()
        elif kind == termwire.WINSIZE and self.child.pty and \
                len(payload) == 4:
            _set_winsize(self.child.master, *termwire.parse_winsize(payload))
        elif kind == termwire.SIGNAL and len(payload) == 1 and \
                payload[0] in {int(s) for s in PASSED}:
            self.child.signal(payload[0])

    def _write_job(self):
        try:
            n = os.write(self.child.input, self.to_job)
        except BlockingIOError:
            return
        except OSError:             # the command closed its input
            n = len(self.to_job)
        del self.to_job[:n]
        if not self.to_job and self.input_ended and not self.child.pty \
                and self.child.input is not None:
            self.child.end_of_input()

    def _write_bsub(self):
        try:
            n = self.sock.send(self.to_bsub)
        except BlockingIOError:
            return
        except OSError:
            return self._lost_bsub()
        del self.to_bsub[:n]

    def _lost_bsub(self):
        """bsub (or its terminal) is gone: hang the command up."""
        if self.bsub_gone is None:
            self.bsub_gone = time.monotonic()
            self.to_bsub.clear()
            self.child.signal(signal.SIGHUP)

    def _hang_up_late(self):
        if self.bsub_gone is not None and self.ended_at is None and \
                time.monotonic() - self.bsub_gone > HANGUP_GRACE:
            self.child.signal(signal.SIGKILL)
            self.bsub_gone = float("inf")       # once

    def _end(self):
        status = self.child.status
        if os.WIFSIGNALED(status):
            return {"signal": os.WTERMSIG(status)}
        return {"exit": os.waitstatus_to_exitcode(status)}

    def _flush_to_bsub(self):
        if self.bsub_gone is not None:
            return
        deadline = time.monotonic() + 5.0
        self.sock.setblocking(True)
        self.sock.settimeout(1.0)
        try:
            while self.to_bsub and time.monotonic() < deadline:
                self._write_bsub_blocking()
            self.sock.shutdown(socket.SHUT_WR)
            # bsub closes once it has everything: then the job may end.
            while time.monotonic() < deadline and self.sock.recv(CHUNK):
                pass
        except OSError:
            pass

    def _write_bsub_blocking(self):
        n = self.sock.send(self.to_bsub)
        del self.to_bsub[:n]


def exit_like(status):
    """Exit as the command did: by its signal, or with its code."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
        return 128 + sig
    return os.waitstatus_to_exitcode(status)


def main():
    env = dict(os.environ)
    try:
        cfg = json.loads(env.pop("XCE_TERM"))
        cmd = env.pop("XCE_TERM_CMD")
    except (KeyError, ValueError):
        say("no terminal channel given")
        return 1
    sock, reply = connect(cfg)
    if sock is None:
        say(f"cannot reach the submitting bsub ({reply})")
        return 1
    mode = cfg.get("mode")
    term = [bool(t) for t in cfg.get("term", (True, True, True))][:3]
    try:
        child = Child(cmd, env, mode in ("Ip", "Is"), term, reply)
    except OSError as e:
        say(f"cannot start the job: {e}")
        sock.sendall(termwire.frame(termwire.END, b'{"exit":127}'))
        return 127
    return exit_like(Relay(sock, child).run())


if __name__ == "__main__":
    sys.exit(main())
