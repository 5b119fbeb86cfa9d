"""The site's elim executables (LSF_SERVERDIR/elim, elim.*): the agent
starts, reads and restarts them, as LSF's master elim (MELIM) does.

An elim writes load update strings to its standard output, one a line:
``n name1 value1 ... namen valuen``.  The agent keeps the latest value of
each resource the cluster defines (the controller sends the definitions
with the elim message) and reports the fresh ones with its load.  Nothing
an elim does may stop or bloat the agent: its pipe is non-blocking, a
turn reads a bounded amount, a line has a bounded length, a flooding elim
is killed, a crashed one is restarted no more than once every 90 seconds
(LSF's limit), one that exits with ELIM_ABORT_VALUE is left stopped.
Values go unknown when their elim ends or stops refreshing them.

An elim may also report a built-in load index by its formal name (r15s,
r1m, r15m, ut, pg, io, ls, it, tmp, swp, mem): as LSF's LIM does, the
agent then reports that value instead of its own measurement
(``overrides``), so lsload, bhosts -l, select[], order[] and the load
thresholds all read it.  Such a value must be a number of the index's
meaning: finite, not negative, ut a fraction from 0 to 1; anything else
is logged and the host's own value is used.  The aliases cpu, idle,
login and swap are refused (LSF overrides by formal name only).

lsf.conf's LSF_ELIM_BLOCKTIME (how long an unfinished load update string
may wait; set, an elim that overruns it is restarted), LSF_ELIM_DEBUG (log
every string received; also restarts on the block time) and
LSF_ELIM_RESTARTS (how often an elim is restarted at most, with either of
the other two) come with the controller's elim message.
"""

import logging
import os
import selectors
import signal
import time

from xce.agent import procs
from xce.agent.spawn import DEFAULT_SIGNALS
from xce.model.resources import (LOAD_INDEX_ALIASES, load_index_value,
                                 reported_value)

log = logging.getLogger("xce.agent")

ABORT_VALUE = 97        # ELIM_ABORT_VALUE: not meant for this host
RESTART_EVERY = 90.0    # LSF restarts an elim at most once in 90 seconds
BLOCKTIME = 4.0         # LSF_ELIM_BLOCKTIME's default: a partial string
MAX_LINE = 64 * 1024    # a longer load update string is garbage
READ_CHUNK = 64 * 1024  # what one turn reads of one elim at most
FLOOD_BYTES = 1 << 20   # more output than this per FLOOD_WINDOW: killed
FLOOD_WINDOW = 10.0
DEFAULT_INTERVAL = 60.0  # a resource defined without an INTERVAL
STALE_TIMES = 3         # unrefreshed for this many INTERVALs: unknown
STALE_MIN = 45.0        # (and never sooner: three load reports)
_WARN_EVERY = 60.0      # one garbage warning per elim per minute
# The built-in load indices an elim may override, with how often LSF's
# LIM updates each (seconds): an override not refreshed for STALE_TIMES
# of them goes unknown, and the agent's own measurement is used again.
BUILTIN_INTERVALS = {"r15s": 15, "r1m": 15, "r15m": 15, "ut": 15, "pg": 15,
                     "io": 15, "ls": 30, "it": 30, "tmp": 120, "swp": 15,
                     "mem": 15}


class _Elim:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        self.pid = None
        self.fd = None
        self.buf = bytearray()
        self.partial_since = None   # when the unfinished line began
        self.skipping = False       # inside an over-long line
        self.started = None
        self.next_start = 0.0
        self.restarts = 0           # times started again after an end
        self.aborted = False
        self.window = (0.0, 0)      # (start, bytes read since)
        self.values = {}            # name -> (value, time)
        self.overrides = {}         # built-in index -> (value, time)
        self.warned = -_WARN_EVERY
        self.warned_index = {}      # built-in index -> last bad-value log
        self.unknown_names = set()  # undefined names already logged


class ElimRunner:
    """The elims of one agent; *sel* is the agent's selector (the pipes
    are registered with data "elim")."""

    def __init__(self, sel, host, now=time.monotonic, spawn=None,
                 pidfile=None):
        self.sel = sel
        self.host = host
        self.now = now
        self.spawn = spawn or _spawn
        # "pid start-ticks" of each running elim: an agent that died
        # without stopping them ends them when it starts (kill_leftovers).
        self.pidfile = pidfile
        self.serverdir = None
        self.defs = {}
        self.env = {}
        self.args = []                  # ELIMARGS
        self.elims = {}             # path -> _Elim
        self.blocktime = BLOCKTIME
        self.restart_on_block = False   # LSF_ELIM_BLOCKTIME or _DEBUG set
        self.debug = False              # LSF_ELIM_DEBUG
        self.max_restarts = None        # LSF_ELIM_RESTARTS
        self.by_fd = {}
        self.by_pid = {}
        self.names_changed = False  # the set of known resources changed
        # The shortest INTERVAL of the resources whose value changed since
        # the agent last reported (None: none changed): a changed value is
        # reported that soon after the last report rather than at the next
        # regular one, so the scheduler reserves against a fresh value.
        self.changed_within = None

    # -- configuration (the controller's elim message) --------------------
    def configure(self, msg):
        serverdir = msg.get("serverdir") or None
        self.debug = bool(msg.get("debug"))
        blocktime = msg.get("blocktime")
        self.blocktime = BLOCKTIME if blocktime is None else \
            max(0.0, float(blocktime))
        self.restart_on_block = blocktime is not None or self.debug
        restarts = msg.get("restarts")
        self.max_restarts = int(restarts) if restarts is not None and \
            self.restart_on_block else None
        self.defs = {str(k): dict(v) for k, v in
                     (msg.get("resources") or {}).items()}
        self.args = [str(a) for a in msg.get("args") or ()]
        self.env = {"LSF_SERVERDIR": serverdir or "",
                    "LSF_MASTER": "Y" if msg.get("master") else "N",
                    "LSF_RESOURCES": " ".join(
                        sorted(n for n, d in self.defs.items()
                               if d.get("dynamic"))),
                    "ELIM_ABORT_VALUE": str(ABORT_VALUE),
                    "XCE_HOST": self.host}
        if serverdir != self.serverdir:
            self.stop()
            self.elims = {}
            self.serverdir = serverdir
        found = _executables(serverdir) if serverdir else []
        for path in found:
            if path not in self.elims:
                self.elims[path] = _Elim(path)
                log.info("elim %s found in LSF_SERVERDIR", path)
        for path in list(self.elims):
            if path not in found:
                self._kill(self.elims.pop(path), "it left LSF_SERVERDIR")
        self.names_changed = True

    # -- the loop's turns -----------------------------------------------------
    def next_deadline(self):
        waits = []
        for e in self.elims.values():
            if e.pid is None and not e.aborted:
                waits.append(e.next_start)
            if e.partial_since is not None:
                waits.append(e.partial_since + self.blocktime)
        return min(waits) if waits else None

    def run_timers(self):
        now = self.now()
        for e in self.elims.values():
            if e.pid is None and not e.aborted and now >= e.next_start:
                self._start(e, now)
            if e.partial_since is not None and \
                    now - e.partial_since >= self.blocktime:
                self._blocked(e)

    def readable(self, fd):
        e = self.by_fd.get(fd)
        if e is None:
            return
        try:
            data = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(e)
            return
        now = self.now()
        start, count = e.window
        if now - start > FLOOD_WINDOW:
            start, count = now, 0
        e.window = (start, count + len(data))
        if e.window[1] > FLOOD_BYTES:
            self._kill(e, f"it wrote more than {FLOOD_BYTES} bytes in "
                       f"{FLOOD_WINDOW:g} seconds")
            return
        self._feed(e, data, now)

    def exited(self, pid, status):
        """A child ended: True if it was an elim."""
        e = self.by_pid.pop(pid, None)
        if e is None:
            return False
        self._save_pids()
        self._close(e)
        e.pid = None
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        self._forget(e)
        if code == ABORT_VALUE:
            e.aborted = True
            log.info("elim %s exited with ELIM_ABORT_VALUE (%d): not "
                     "restarted", e.name, ABORT_VALUE)
            return True
        how = f"exit code {code}" if code is not None else \
            f"signal {os.WTERMSIG(status)}"
        if self.max_restarts is not None and \
                e.restarts >= self.max_restarts:
            e.aborted = True
            log.warning("elim %s ended (%s); its values are unknown; not "
                        "restarted: it was restarted LSF_ELIM_RESTARTS=%d "
                        "times", e.name, how, self.max_restarts)
            return True
        e.restarts += 1
        e.next_start = max(self.now(), (e.started or 0.0) + RESTART_EVERY)
        log.warning("elim %s ended (%s); its values are unknown; restarted "
                    "in %.0f seconds", e.name, how,
                    e.next_start - self.now())
        return True

    def values(self):
        """The fresh values of every elim's site resources, the latest
        report winning."""
        return self._fresh("values", lambda name: self.defs.get(
            name, {}).get("interval"))

    def overrides(self):
        """The fresh values elims report for built-in load indices: they
        replace the agent's own measurements (LSF's override)."""
        return self._fresh("overrides", BUILTIN_INTERVALS.get)

    def _fresh(self, kind, interval_of):
        now = self.now()
        out, when = {}, {}
        for e in self.elims.values():
            for name, (value, t) in getattr(e, kind).items():
                interval = interval_of(name) or DEFAULT_INTERVAL
                if now - t > max(STALE_MIN, STALE_TIMES * interval):
                    continue
                if name not in when or t > when[name]:
                    out[name], when[name] = value, t
        return out

    def stop(self):
        """End every elim (the agent stops; its jobs keep running)."""
        for e in self.elims.values():
            if e.pid is not None:
                _signal_group(e.pid, signal.SIGTERM)
        deadline = time.monotonic() + 1.0
        for e in self.elims.values():
            while e.pid is not None and time.monotonic() < deadline and \
                    not _reaped(e.pid):
                time.sleep(0.02)
            if e.pid is not None:
                _signal_group(e.pid, signal.SIGKILL)
                _reaped(e.pid)
                self.by_pid.pop(e.pid, None)
                e.pid = None
            self._close(e)
            self._forget(e)
        self._save_pids()

    # -- inside -------------------------------------------------------------
    def _start(self, e, now):
        e.started, e.next_start = now, now + RESTART_EVERY
        rfd, wfd = os.pipe2(os.O_CLOEXEC)
        try:
            e.pid = self.spawn([e.path, *self.args], wfd,
                               dict(self.env, PATH=_PATH))
        except OSError as err:
            os.close(rfd)
            log.warning("elim %s cannot start: %s; tried again in %.0f "
                        "seconds", e.name, err, RESTART_EVERY)
            return
        finally:
            os.close(wfd)
        os.set_blocking(rfd, False)
        e.fd, e.buf, e.skipping, e.partial_since = rfd, bytearray(), False, \
            None
        e.window = (now, 0)
        self.by_fd[rfd] = e
        self.by_pid[e.pid] = e
        self.sel.register(rfd, selectors.EVENT_READ, "elim")
        log.info("elim %s started (pid %d)", e.name, e.pid)
        self._save_pids()

    def _feed(self, e, data, now):
        e.buf += data
        *lines, rest = bytes(e.buf).split(b"\n")
        for line in lines:
            if e.skipping:
                e.skipping = False      # the end of an over-long line
                continue
            if len(line) > MAX_LINE:    # it came whole in one read
                self._garbage(e, "a line longer than %d bytes" % MAX_LINE,
                              now)
                continue
            self._line(e, line.decode("utf-8", "replace"), now)
        e.buf = bytearray(rest)
        if len(e.buf) > MAX_LINE:
            self._garbage(e, "a line longer than %d bytes" % MAX_LINE, now)
            e.buf.clear()
            e.skipping = True
        if not e.buf:
            e.partial_since = None
        elif lines or e.partial_since is None:
            e.partial_since = now       # the unfinished line began now

    def kill_leftovers(self):
        """End the elims a previous agent left running (it was killed
        before it could stop them): each listed pid that still leads its
        own session running that elim."""
        if self.pidfile is None:
            return
        try:
            with open(self.pidfile) as f:
                lines = f.read().splitlines()
        except OSError:
            return
        for line in lines:
            words = line.split()
            if len(words) == 2 and all(w.isdigit() for w in words) and \
                    procs.alive(int(words[0]), int(words[1])):
                log.info("ending the elim (pid %s) an earlier agent left "
                         "running", words[0])
                _signal_group(int(words[0]), signal.SIGKILL)
        self._save_pids()

    def _save_pids(self):
        if self.pidfile is None:
            return
        text = "".join(f"{pid} {procs.start_ticks(pid)}\n"
                       for pid in self.by_pid)
        try:
            tmp = f"{self.pidfile}.tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, self.pidfile)
        except OSError as err:
            log.warning("cannot record the elims' pids: %s", err)

    def _blocked(self, e):
        """An unfinished load update string waited the block time."""
        log.warning("elim %s: no complete load update string in %g "
                    "seconds; dropped %r", e.name, self.blocktime,
                    bytes(e.buf[:200]))
        e.buf.clear()
        e.partial_since = None
        if self.restart_on_block:
            self._kill(e, "LSF_ELIM_BLOCKTIME or LSF_ELIM_DEBUG is set: "
                       "restarted")

    def _line(self, e, line, now):
        if self.debug:
            log.info("elim %s: %s", e.name, line[:1000])
        words = line.split()
        if not words:
            return
        try:
            count = int(words[0])
        except ValueError:
            count = -1
        if count < 0 or len(words) != 1 + 2 * count:
            self._garbage(e, "not a load update string: %r" % line[:200],
                          now)
            return
        for i in range(count):
            name, raw = words[1 + 2 * i], words[2 + 2 * i]
            if name in BUILTIN_INTERVALS:
                self._override(e, name, raw, now)
                continue
            definition = self.defs.get(name)
            if definition is None and name in LOAD_INDEX_ALIASES:
                if name not in e.unknown_names:
                    e.unknown_names.add(name)
                    log.warning("elim %s reports %s, an alias of the "
                                "built-in load index %s: an elim overrides "
                                "an index by its formal name only; ignored",
                                e.name, name, LOAD_INDEX_ALIASES[name])
                continue
            if definition is None:
                if name not in e.unknown_names:
                    e.unknown_names.add(name)
                    log.warning("elim %s reports resource %s, which is not "
                                "defined (lsf.shared Resource section); "
                                "ignored", e.name, name)
                continue
            if raw == "-":
                e.values.pop(name, None)     # LSF's unknown value
                continue
            value = reported_value(definition.get("type"), raw)
            if value is None:
                self._garbage(e, f"{name}: {raw[:40]!r} is not a "
                              f"{definition.get('type')} value", now)
                continue
            if name not in e.values:
                self.names_changed = True
            elif e.values[name][0] != value:
                interval = definition.get("interval") or DEFAULT_INTERVAL
                self.changed_within = interval if self.changed_within is \
                    None else min(self.changed_within, interval)
            e.values[name] = (value, now)

    def _override(self, e, name, raw, now):
        """A built-in load index in a load update string: kept if it is a
        value of that index, else dropped (the host's own is used)."""
        if raw == "-":                      # unknown: the agent measures
            if e.overrides.pop(name, None) is not None:
                self.names_changed = True
            return
        value, why = load_index_value(name, raw)
        if why is not None:
            if e.overrides.pop(name, None) is not None:
                self.names_changed = True
            if now - e.warned_index.get(name, -_WARN_EVERY) >= _WARN_EVERY:
                e.warned_index[name] = now
                log.warning("elim %s: built-in load index %s: %r is %s; "
                            "ignored, the host's own %s is used", e.name,
                            name, raw[:40], why, name)
            return
        old = e.overrides.get(name)
        if old is None:
            self.names_changed = True
            log.info("elim %s overrides the built-in load index %s (the "
                     "host's own value is not reported while it does)",
                     e.name, name)
        elif old[0] != value:
            interval = BUILTIN_INTERVALS[name]
            self.changed_within = interval if self.changed_within is \
                None else min(self.changed_within, interval)
        e.overrides[name] = (value, now)

    def _garbage(self, e, what, now):
        if now - e.warned >= _WARN_EVERY:
            e.warned = now
            log.warning("elim %s wrote %s; ignored (its last values go "
                        "unknown unless refreshed)", e.name, what)

    def _kill(self, e, why):
        if e.pid is not None:
            log.warning("elim %s (pid %d) killed: %s", e.name, e.pid, why)
            _signal_group(e.pid, signal.SIGKILL)
        self._close(e)

    def _close(self, e):
        if e.fd is not None:
            try:
                self.sel.unregister(e.fd)
            except (KeyError, ValueError):
                pass
            self.by_fd.pop(e.fd, None)
            os.close(e.fd)
            e.fd = None
        e.buf, e.partial_since = bytearray(), None

    def _forget(self, e):
        if e.values or e.overrides:
            self.names_changed = True
        e.values, e.overrides = {}, {}


_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def _executables(serverdir):
    """elim and elim.* in *serverdir*: regular executable files, sorted.
    They run as the agent's user (root on a production host), so a file
    or directory another user could change is refused."""
    try:
        names = os.listdir(serverdir)
        unsafe = _unsafe(os.stat(serverdir))
    except OSError as e:
        log.warning("LSF_SERVERDIR %s: %s; no elim runs", serverdir, e)
        return []
    out = []
    for name in sorted(names):
        if name != "elim" and not name.startswith("elim."):
            continue
        path = os.path.join(serverdir, name)
        try:
            st = os.stat(path)
        except OSError:
            continue
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            continue
        why = unsafe and "its directory" or _unsafe(st) and "it"
        if why:
            log.warning("elim %s not run: %s may be changed by a user "
                        "other than the agent's (owner or group/other "
                        "write permission)", path, why)
            continue
        out.append(path)
    return out


def _unsafe(st):
    """A file or directory someone but root and the agent's user could
    write (a sticky directory still lets others add files)."""
    return st.st_uid not in (0, os.geteuid()) or bool(st.st_mode & 0o022)


def _spawn(argv, stdout_fd, env):
    """posix_spawn in its own session, stdout to the pipe, the rest to
    /dev/null (LSF's MELIM reads only the standard output)."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_DUP2, stdout_fd, 1),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions,
                          setsid=True, setsigmask=[],
                          setsigdef=DEFAULT_SIGNALS)


def _signal_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _reaped(pid):
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid

