"""The controller's connections to agents, and starting the local one.

The local agent is started with posix_spawn in its own session, so it and
its jobs outlive the controller; a restarted controller reattaches to it.
A stopped or hung agent keeps its socket open: it is pinged, and its link
dropped when it stops answering (heartbeat.py).
"""

import logging
import select
import socket
import sys
import time

from xce import daemon, unixsock
from xce.agent.protocol import LineReader, ProtocolError, encode
from xce.controller import heartbeat
from xce.errors import text

log = logging.getLogger("xce.controller")

RETRY = 0.2             # seconds between connection attempts
# Between attempts on an agent socket whose path cannot be used (a
# reconfiguration may change it; nothing else will).
UNUSABLE_RETRY = 30.0
# Bytes of an agent's log read for its last line.
LOG_TAIL = 4096
LAUNCH_GRACE = 5.0      # how long a launched agent may take to listen
# A launched agent is tried more often during its grace: it listens a
# fraction of a second after its start, and an attempt on a UNIX socket
# costs microseconds, so waiting a whole RETRY would delay every start.
LAUNCHED_RETRY = 0.02


def keep_link(links, host, cfg, conf, make=None):
    """The link to HOST in LINKS, made when it has none (by MAKE, the
    in-process tests' seam, else link_for), with the ping deadline of
    configuration CFG (a reconfig may change it)."""
    if host not in links:
        links[host] = (make or link_for)(host, cfg.spool, conf)
    links[host].agent_timeout = heartbeat.timeout(cfg.params, conf)


def retry_wait(links, down, now):
    """How long the controller may wait before it tries again a link not
    connected (of a host not held down): RETRY, less while a launched
    local agent is expected to listen any moment."""
    return min((link.retry_in(now) if isinstance(link, AgentLink) else RETRY
                for name, link in links.items()
                if not link.connected and name not in down), default=None)


def launch_local(cfg, held, now):
    """Links to the agents of the hosts of CFG launched on this machine
    (launch: local) and not in HELD, each agent launched when it is not
    running: the controller does this before it loads the bulk of its code,
    so that its agents start meanwhile."""
    links = {}
    for name, conf in cfg.hosts.items():
        if conf.launch == "local" and name not in held:
            links[name] = AgentLink(name, cfg.spool, conf)
            links[name].try_connect(now)
    return links


def link_for(host, spool, conf):
    """The link to HOST's agent: over SSH for launch ssh or none (the agent
    lives on another host, or is kept there by systemd), else the local
    UNIX socket.  paramiko is imported only when a host needs it."""
    if conf.launch in ("ssh", "none"):
        from xce.controller.sshlink import SSHLink
        return SSHLink(host, conf)
    return AgentLink(host, spool, conf)


class AgentLink:
    def __init__(self, host, spool, conf):
        self.host = host
        self.dir = spool / "agents" / host
        self.spool = spool
        self.launch = conf.launch
        self.sock = None
        self.reader = None
        self.next_try = 0.0
        self.launched_at = None
        self.launched_pid = None    # of the agent launched last
        self.out = []
        self.reason = None          # why the agent was last given up on
        self.beat = heartbeat.Heartbeat(0.0)
        # Seconds a ping may go unanswered (the controller sets it from
        # the configuration).
        self.agent_timeout = heartbeat.timeout({}, conf)

    @property
    def connected(self):
        return self.sock is not None

    def retry_in(self, now):
        """Seconds until the next connection attempt is due."""
        return max(0.0, self.next_try - now)

    def try_connect(self, now):
        """One attempt; launches the local agent when none is running."""
        if self.sock is not None or now < self.next_try:
            return False
        self.next_try = now + RETRY
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # Not blocking: the backlog of a stopped agent fills up, and a
        # blocking connect would then stall the controller.
        s.setblocking(False)
        try:
            unixsock.connect(s, self.dir / "agent.sock")
        except unixsock.SocketPathError as e:
            # No agent could listen there: none is launched to find out.
            s.close()
            self._give_up(str(e), now + UNUSABLE_RETRY)
            return False
        except OSError:
            s.close()
            self._maybe_launch(now)
            if self.launched_pid and now - self.launched_at < LAUNCH_GRACE:
                # launched and not known to have ended: listening soon
                self.next_try = now + LAUNCHED_RETRY
            return False
        # A send blocked this long means the agent did not read for the
        # whole deadline: it is silent (sendall raises, the link is lost).
        s.settimeout(self.agent_timeout)
        self.sock, self.reader = s, LineReader()
        self.beat = heartbeat.Heartbeat(time.monotonic())
        self.launched_at = self.launched_pid = None
        log.info("connected to the agent on %s", self.host)
        return True

    def _give_up(self, reason, next_try):
        """The agent cannot be used, for REASON (bhosts -l shows it): said
        once in the log, tried again at NEXT_TRY."""
        if reason != self.reason:
            log.error("agent %s: %s", self.host, reason)
        self.reason = reason
        self.next_try = next_try

    def _maybe_launch(self, now):
        if self.launch != "local":
            return
        pid = daemon.read_pid(self.dir / "agent.pid")
        if pid and daemon.pid_alive(pid):
            return      # starting up, or restarting: wait for its socket
        if self.launched_at is not None and (
                now - self.launched_at >= LAUNCH_GRACE or
                self.launched_pid and not daemon.pid_alive(
                    self.launched_pid)):
            # The last one launched ended without listening: why, in its
            # log's last line, said as soon as it ended (bhosts -l, xce
            # start); it is launched again once its grace is over.
            self.launched_pid = None
            self._give_up(text("AGENT_DIED",
                               why=_last_line(self.dir / "agent.log")),
                          max(self.next_try,
                              self.launched_at + LAUNCH_GRACE))
        if self.launched_at and now - self.launched_at < LAUNCH_GRACE:
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "xce.cli.xce_agent", "--spool",
                str(self.spool), "--host", self.host, "--foreground"]
        self.launched_pid = daemon.detach(argv, self.dir / "agent.log")
        self.launched_at = now
        log.info("launched the agent for %s (pid %d)", self.host,
                 self.launched_pid)

    def close(self):
        if self.sock is not None:
            self.sock.close()
        self.sock = None
        self.out.clear()

    def recv(self):
        """Messages available now; None when the connection is gone."""
        try:
            data = self.sock.recv(1 << 20)
        except OSError:
            data = b""
        if not data:
            return None
        self.beat.heard()
        self.reason = None
        try:
            return self.reader.feed(data)
        except ProtocolError as e:
            log.error("agent %s: %s", self.host, e)
            return None

    def queue(self, msg):
        self.out.append(msg)

    def flush(self):
        if self.sock is not None and not heartbeat.keep_alive(
                self, time.monotonic(), _readable(self.sock)):
            return False
        if not self.out or self.sock is None:
            return True
        msgs = list(self.out)
        self.out.clear()
        return self.send(msgs)

    def send(self, msgs):
        """Send *msgs* now, ahead of those queued; False if it failed."""
        try:
            self.sock.sendall(b"".join(encode(m) for m in msgs))
            return True
        except OSError as e:
            log.warning("agent %s: send failed: %s", self.host, e)
            return False


def _last_line(path):
    """The last line of the log at PATH (a few kilobytes read), or where
    the log is when it cannot be read."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, 2) - LOG_TAIL))
            lines = f.read().decode(errors="replace").strip().splitlines()
    except OSError:
        lines = []
    return lines[-1].strip() if lines else text("SEE_LOG", log=path)


def _readable(sock):
    """Bytes from the agent wait unread."""
    return bool(select.select([sock], [], [], 0)[0])
