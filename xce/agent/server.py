"""The agent daemon's loop: one controller connection, jobs, timers.

The controller connects to a UNIX socket only root (or the agent's own
user) can open, and the peer's uid is checked again with SO_PEERCRED.

Messages for the controller are sent at the end of each turn; with no
controller connected they are dropped, and one that stops before it
reads them loses them too.  What the controller must not lose is said
again after the next connection's hello:
  - started, finished, post, task_exit: the hello carries them, from the
    journal (jobs running, results and post-exec states not yet
    acknowledged, task exits not yet acknowledged), and the held starts
    discarded before their go (xce.agent.held, journalled too);
  - host_steps_done: the controller asks again for the steps it still
    waits on (xce.controller.hoststeps.hello), and the journal keeps
    their end (xce.agent.prepost);
  - output (a running job's -o/-e fallback): said again after the hello
    (xce.agent.jobusage.resay_outputs);
  - usage, task_usage, load: periodic, the next one says it; peeked and
    pong answer a request of the connection that is gone.
"""

import gc
import logging
import os
import selectors
import signal
import socket
import struct
import time

from xce.agent.jobs import JobTable
from xce.agent.jobusage import SAMPLE_INTERVAL
from xce.agent.tasks import TaskTable
from xce.agent.protocol import VERSION, LineReader, ProtocolError, encode
from xce.agent import hostinfo, staging
from xce.agent.load import LoadSampler
from xce.agent.elim import ElimRunner
from xce import daemon, unixsock

log = logging.getLogger("xce.agent")

# Seconds between load reports, as LSF's LIM updates most indices.  A
# sample is cheap; each report costs the controller a turn, which adds up
# over hundreds of hosts (see bench_scale).
LOAD_INTERVAL = 15.0
# An elim's first values, or values gone unknown, are reported this soon
# rather than at the next regular report.
EXT_CHANGED_DELAY = 1.0


class AgentServer:
    def __init__(self, host, workdir, output_dir, now=time.time):
        self.host = host
        self.dir = workdir
        self.now = now
        self.table = JobTable(workdir, output_dir, now)
        self.tasks = TaskTable(self.table.outbox, now, self.table.journal,
                               self.table.user_dir)
        self.table.other_child = self._other_child
        self.sel = selectors.DefaultSelector()
        self.conn = None
        self.reader = None
        self.stopping = False
        # badmin hrestart: once stopped, the agent re-executes itself.
        self.restart = False
        self.next_sample = 0.0
        self.load_interval = LOAD_INTERVAL     # EXINTERVAL
        self.sampler = LoadSampler()
        self.load = None            # the last load indices sampled
        self.next_load = 0.0
        self.elims = ElimRunner(self.sel, host,
                                pidfile=str(workdir / "elims.pids"))

    # -- setup -------------------------------------------------------------
    def listen(self):
        path = self.dir / "agent.sock"
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            unixsock.bind(self.listener, path)
        finally:
            os.umask(old)
        self.listener.listen(8)
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ, "accept")
        self.wake_r = daemon.signal_wakeup_pipe()
        self.sel.register(self.wake_r, selectors.EVENT_READ, "wake")
        signal.signal(signal.SIGCHLD, lambda *a: None)
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    def _stop(self, *_):
        self.stopping = True

    # -- loop --------------------------------------------------------------
    def serve(self):
        self.table.recover()
        self.table.sweep_boxes()
        self.tasks.recover()
        self.elims.kill_leftovers()
        # What start-up loaded lives as long as the agent: the collector
        # need not walk it at every collection, nor again at exit.
        gc.freeze()
        log.info("agent for host %s serving on %s", self.host, self.dir)
        while not self.stopping:
            self.run_once(self._timeout())
        log.info("agent stopping; %d jobs keep running",
                 len(self.table.running))
        self.elims.stop()
        self.table.journal.sync()

    def _timeout(self):
        deadlines = [self.next_sample if self._sampling() else None,
                     self.next_load,
                     self.table.next_deadline(), self.tasks.next_deadline()]
        now = self.now()
        waits = [d - now for d in deadlines if d is not None]
        for due in (self.table.journal.fsync_deadline(),
                    self.elims.next_deadline()):      # monotonic times
            if due is not None:
                waits.append(due - time.monotonic())
        return max(0.0, min(waits)) if waits else None

    def run_once(self, timeout):
        for key, _ in self.sel.select(timeout):
            if key.data == "accept":
                self._accept()
            elif key.data == "wake":
                daemon.drain(self.wake_r)
            elif key.data == "conn":
                self._read()
            elif key.data == "elim":
                self.elims.readable(key.fd)
        self.table.reap()
        self.elims.run_timers()
        now = self.now()
        self.table.run_timers(now)
        self.tasks.run_timers(now)
        if self._sampling() and now >= self.next_sample:
            self.table.sample(self.tasks)
            self.next_sample = now + SAMPLE_INTERVAL
        if self.elims.names_changed:
            self.elims.names_changed = False
            self.next_load = min(self.next_load, now + EXT_CHANGED_DELAY)
        if self.elims.changed_within is not None:
            # A value changed: reported once its INTERVAL has passed since
            # the last report (a value changing every second costs no more
            # reports than its INTERVAL allows).
            self.next_load = min(self.next_load, max(
                now + EXT_CHANGED_DELAY,
                self.next_load - LOAD_INTERVAL + self.elims.changed_within))
            self.elims.changed_within = None
        if now >= self.next_load:
            self._report_load(now)
        self._flush()
        due = self.table.journal.fsync_deadline()
        if due is not None and time.monotonic() >= due:
            self.table.journal.sync()

    def _load_every(self, seconds):
        """EXINTERVAL, as the controller says it (the default when unset):
        a shorter one takes effect at once."""
        ok = isinstance(seconds, int) and not isinstance(seconds, bool) \
            and seconds >= 1
        self.load_interval = float(seconds) if ok else LOAD_INTERVAL
        self.next_load = min(self.next_load, self.now() + self.load_interval)

    def _report_load(self, now):
        self.next_load = now + self.load_interval
        try:
            self.load = self.sampler.sample()
        except (OSError, ValueError) as e:     # never stop the agent for it
            log.warning("cannot sample the load: %s", e)
            return
        if self.conn is not None:
            self.table.outbox.append({"op": "load", "load": self._load_now(),
                                      "ext": self.elims.values()})

    def _load_now(self):
        """The last sample, with what the elims report for built-in
        indices in place of the agent's own measurements (LSF's elim
        override); None before the first sample."""
        if self.load is None:
            return None
        return {**self.load, **self.elims.overrides()}

    def _other_child(self, pid, status, ru):
        """A child that is neither a job nor a step: an elim or a task."""
        if not self.elims.exited(pid, status):
            self.tasks.exited(pid, status, ru)

    def _sampling(self):
        return bool(self.table.running or self.tasks.by_pid)

    def _accept(self):
        try:
            conn, _ = self.listener.accept()
        except BlockingIOError:
            return
        uid = _peer_uid(conn)
        if uid not in (0, os.geteuid()):
            log.warning("refused a connection from uid %s", uid)
            conn.close()
            return
        if self.conn is not None:
            self._drop("replaced by a new controller connection")
        conn.setblocking(True)
        self.conn, self.reader = conn, LineReader()
        self.sel.register(conn, selectors.EVENT_READ, "conn")
        self.table.outbox.insert(0, self._hello())
        self.table.resay_outputs()

    def _hello(self):
        return {"op": "hello", "v": VERSION, "host": self.host,
                "pid": os.getpid(), "facts": hostinfo.facts(),
                "load": self._load_now(), "ext": self.elims.values(),
                "jobs": self.table.hello_jobs(),
                "discarded": self.table.hello_discarded(),
                "tasks": self.tasks.hello_tasks(),
                "task_exits": self.tasks.hello_exits()}

    def _drop(self, why):
        log.info("controller connection closed: %s", why)
        self.table.discard_held(why)
        self.sel.unregister(self.conn)
        self.conn.close()
        self.conn = None

    def _read(self):
        try:
            data = self.conn.recv(1 << 20)
        except OSError as e:
            data = b""
            log.info("read error: %s", e)
        if not data:
            self._drop("end of stream")
            return
        try:
            msgs = self.reader.feed(data)
        except ProtocolError as e:
            self._drop(str(e))
            return
        self._handle(msgs)

    def _handle(self, msgs):
        starts = [m for m in msgs if m["op"] == "start"]
        if starts:
            self.table.start_batch(starts)
        gos = [m for m in msgs if m["op"] == "go"]
        if gos:     # protocol 14: held starts the controller committed
            self.table.go_batch(gos)
        for msg in msgs:
            op = msg["op"]
            try:
                if op == "signal":
                    self.table.signal(msg)
                    self.tasks.signal(msg)      # blaunch tasks go along
                elif op == "task":
                    self.tasks.start(msg)
                elif op == "task_kill":
                    self.tasks.kill_job(msg)
                elif op == "limits":
                    self.table.set_limits(msg)
                elif op == "host_steps":
                    self.table.host_steps(msg)
                elif op == "task_ack":
                    self.tasks.acked(msg)
                elif op == "ack":
                    self.table.acked(msg)
                elif op == "discarded_ack":     # protocol 15 (held.py)
                    self.table.discarded_ack(msg)
                elif op == "elim":
                    self.elims.configure(msg)
                    self._load_every(msg.get("exinterval"))
                elif op == "peek":      # bpeek (xce.agent.staging)
                    self.table.outbox.append(
                        staging.peek(self.table.running, msg))
                elif op == "ping":
                    self.table.outbox.append({"op": "pong"})
                elif op == "exit":
                    # badmin hshutdown/hrestart: the jobs keep running.
                    log.info("asked to %s", "restart" if msg.get("restart")
                             else "shut down")
                    self.stopping = True
                    self.restart = bool(msg.get("restart"))
                elif op not in ("start", "go"):
                    log.warning("unknown message op %r", op)
            except (KeyError, TypeError, ValueError) as e:
                log.warning("bad %s message: %s", op, e)

    def _flush(self):
        # Nothing is reported before the journal holds it (see journal.py).
        self.table.journal.flush()
        if not self.table.outbox:
            return
        if self.conn is None:
            # Said again after the next hello (see the top of this file).
            self.table.outbox.clear()
            return
        data = b"".join(encode(m) for m in self.table.outbox)
        self.table.outbox.clear()
        try:
            self.conn.sendall(data)
        except OSError as e:
            self._drop(str(e))


def _peer_uid(conn):
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                            struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1]
