"""``xce-agent --attach``: the far end of the controller's SSH channel.

The controller runs this over an SSH exec channel.  It connects its
stdin/stdout to the host's agent socket, starting the agent first when none
runs.  The agent is started detached (posix_spawn in a new session, stdio on
its log), so it and its jobs outlive this process and the SSH session: the
next attach, after a controller restart or a dropped link, finds it again.

Exit status: 0 when the controller closed the channel, 1 when the agent
closed the connection, 3 when no agent runs and none may be started
(launch: none), 4 when a started agent did not listen in time, 5 when the
agent's socket cannot be reached (its path too long, see xce.unixsock).
"""

import os
import select
import socket
import sys
import time

from xce import daemon, unixsock

LISTEN_WAIT = 15.0      # how long a starting agent may take to listen
POLL = 0.05
CHUNK = 1 << 16
HIGH_WATER = 4 << 20    # stop reading a side while this much waits for the other


def attach(spool, host, launch=True, stdin=0, stdout=1):
    """Pump STDIN/STDOUT to the agent of HOST under SPOOL; the exit status."""
    workdir = spool / "agents" / host
    try:
        unixsock.check(workdir / "agent.sock")
    except unixsock.SocketPathError as e:
        _say(str(e))        # the controller shows it: bhosts -l, its log
        return 5
    conn = _connect(workdir / "agent.sock")
    if conn is None:
        if not launch:
            _say(f"no agent is running for host {host} under {spool} "
                 "(launch: none: start it with systemd or by hand)")
            return 3
        conn = _start_and_connect(spool, host, workdir)
        if conn is None:
            _say(f"the agent for host {host} did not start listening; "
                 f"see {workdir / 'agent.log'}")
            return 4
    try:
        return pump(conn, stdin, stdout)
    finally:
        conn.close()


def _say(message):
    print(f"xce-agent --attach: {message}", file=sys.stderr, flush=True)


def _connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        unixsock.connect(s, path)
    except OSError:
        s.close()
        return None
    return s


def _start_and_connect(spool, host, workdir):
    """Start the agent unless one is starting, then wait for its socket."""
    pid = daemon.read_pid(workdir / "agent.pid")
    if not (pid and daemon.pid_alive(pid)):
        workdir.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "xce.cli.xce_agent", "--spool",
                str(spool), "--host", host, "--foreground"]
        # Another attach may start one at the same moment: the agent's
        # instance lock lets one of them run and the other exit.
        daemon.detach(argv, workdir / "agent.log")
    deadline = time.monotonic() + LISTEN_WAIT
    while time.monotonic() < deadline:
        conn = _connect(workdir / "agent.sock")
        if conn is not None:
            return conn
        time.sleep(POLL)
    return None


def pump(conn, rfd, wfd):
    """Copy RFD -> CONN and CONN -> WFD until one side ends.

    Everything is non-blocking with a buffer per direction, so a slow reader
    on one side never stops the other direction (the controller and the
    agent both write while the other is busy writing)."""
    for fd in (rfd, wfd):
        os.set_blocking(fd, False)
    conn.setblocking(False)
    up, down = bytearray(), bytearray()    # to the agent, to the controller
    st = {"in": True, "agent": True}
    while st["agent"] and (st["in"] or up):
        r = [fd for fd, ok in ((rfd, st["in"] and len(up) < HIGH_WATER),
                               (conn, len(down) < HIGH_WATER)) if ok]
        w = [fd for fd, ok in ((conn, up), (wfd, down)) if ok]
        rr, ww, _ = select.select(r, w, [])
        if rfd in rr:
            st["in"] = _fill(lambda n: os.read(rfd, n), up)
        if conn in rr:
            st["agent"] = _fill(conn.recv, down)
        if conn in ww and not _flush(conn.send, up):
            return 1
        if wfd in ww and not _flush(lambda b: os.write(wfd, b), down):
            return 0        # the controller is gone
    if not st["agent"]:
        _drain_to(wfd, down)
        return 1
    conn.shutdown(socket.SHUT_WR)     # the agent sees the end of stream
    return 0


def _fill(read, buf):
    """Append what *read* (os.read or socket.recv, non-blocking) gives;
    False at end of stream or on error."""
    try:
        data = read(CHUNK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    buf += data
    return bool(data)


def _flush(write, buf):
    """Write what *write* (os.write or socket.send) takes; False on error."""
    try:
        n = write(buf)
    except BlockingIOError:
        return True
    except OSError:
        return False
    del buf[:n]
    return True


def _drain_to(fd, buf):
    """The agent closed: hand the controller what it said last."""
    deadline = time.monotonic() + 5.0
    while buf and time.monotonic() < deadline:
        select.select([], [fd], [], 0.5)
        if not _flush(lambda b: os.write(fd, b), buf):
            return
