"""The command side of the spool: write a request atomically, wait for its reply."""

import sys
import time

from xce import oslite, unixsock
from xce.errbase import XceError, text
from xce.model import jsoncodec
from xce.spool import layout
from xce.spool.check import BadRequest, check_request

try:
    # The C module alone: socket.py's enum classes cost a command more
    # than the rest of its request.  Its objects are the same sockets.
    import _socket as socket
except ImportError:         # not CPython
    import socket
# The C module Python loads at start: signal.py's enum classes would cost
# a command its start-up.
import _signal

DEFAULT_TIMEOUT = 120.0
# lsf.conf / environment key: how long a command waits for the controller.
TIMEOUT_KEY = "XCE_REQUEST_TIMEOUT"


def new_request_id():
    # Names sort in submission order: nanoseconds, then pid, then randomness.
    return f"{time.time_ns():020d}-{oslite.getpid()}-{oslite.urandom(4).hex()}"


def write_request(spool, kind, body, req_id=None, durable=True):
    """Spool one request; return its id.  The file's owner is the requester.

    *durable*: fsync it before returning.  A command waiting for the reply
    passes False and calls make_durable only if it stops waiting without
    one: a reply comes after the controller has committed the request's
    effect, and then the request file no longer matters (see
    xce-spool(5), Writing a request)."""
    req_id = req_id or new_request_id()
    try:
        check_request(kind, body)
    except BadRequest as e:
        raise XceError(text("REQUEST_INVALID", detail=e))
    # The kind first: the controller picks the request's schema by it.
    doc = {"version": layout.VERSION, "kind": kind, "id": req_id, **body}
    data = jsoncodec.dumps_compact(doc).encode()
    if len(data) > layout.MAX_REQUEST_BYTES:
        raise XceError(text("REQUEST_TOO_BIG", size=len(data),
                            limit=layout.MAX_REQUEST_BYTES))
    tmp = oslite.join(spool, "tmp", f"{req_id}.json")
    try:
        fd = oslite.open(tmp, oslite.O_WRONLY | oslite.O_CREAT |
                         oslite.O_EXCL, 0o600)
        try:
            view = memoryview(data)
            while view:     # a nearly full disk takes part of a write
                view = view[oslite.write(fd, view):]
            if durable:
                oslite.fsync(fd)
            oslite.replace(tmp, _incoming(spool, req_id))
            if durable:
                _fsync_renamed(fd)
        finally:
            oslite.close(fd)
    except OSError as e:
        try:
            oslite.unlink(tmp)      # no part left behind to fill the spool
        except OSError:
            pass
        import errno    # here, off the way of a request that is written
        if e.errno == errno.ENOSPC:
            raise XceError(text("SPOOL_FULL", spool=spool))
        raise XceError(text("SPOOL_WRITE", reason=e.strerror))
    return req_id


# A file in a directory others can write: no link followed, no FIFO
# waited on.
_READ_FLAGS = oslite.O_RDONLY | oslite.O_NOFOLLOW | oslite.O_NONBLOCK


def _incoming(spool, req_id):
    return oslite.join(spool, "incoming", f"{req_id}.json")


def _fsync_renamed(fd):
    # incoming/ cannot be opened by its users (they may not list it), so
    # its fsync is not theirs to make: the rename changed the file's
    # inode, and the file's fsync after it commits the journal that holds
    # the rename (ext4, XFS) along with the data.
    oslite.fsync(fd)


def make_durable(spool, req_id):
    """fsync a request still waiting in incoming/ (data and rename), so
    that it survives a crash; nothing when the controller has taken it."""
    try:
        fd = oslite.open(_incoming(spool, req_id), _READ_FLAGS)
    except OSError:
        return
    try:
        if oslite.S_ISREG(oslite.fstat(fd).st_mode):
            _fsync_renamed(fd)
    except OSError:
        pass        # it stays as safe as the file system keeps it
    finally:
        oslite.close(fd)


def doorbell(spool):
    """The path of the controller's doorbell socket."""
    return oslite.join(spool, layout.DOORBELL)


def ring(spool):
    """Wake the controller; False when nothing listens on the doorbell."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        unixsock.sendto(s, b"r", doorbell(spool))
        return True
    except (ConnectionRefusedError, FileNotFoundError):
        return False
    except BlockingIOError:
        return True     # doorbell queue full: the controller is busy, not down
    except (OSError, unixsock.SocketPathError):
        return False
    finally:
        s.close()


# A request that stays spooled (the controller is down or has not answered
# in time) is accepted: it takes effect when the controller processes it.
# Commands exit with this status then, so that a script can tell it from a
# refusal (255) and does not submit twice.  See bsub(1).
EXIT_SPOOLED = 3
START_HINT = "start it with 'xce start' (or 'make run' in a checkout)"


class Spooled(XceError):
    exit_code = EXIT_SPOOLED


def _trusted_dir(path, owners, sticky_ok=False):
    """*path* is a directory (not a link) owned by one of *owners* that no
    one else can write (or, when *sticky_ok*, sticky: no one else can
    rename what the owners put in it)."""
    st = oslite.lstat(path)
    return oslite.S_ISDIR(st.st_mode) and st.st_uid in owners and (
        not st.st_mode & 0o022 or sticky_ok and st.st_mode & oslite.S_ISVTX)


def controller_uid(spool):
    """The controller's uid: the owner of the replies/ directory it made,
    when neither it nor the spool can be written by anyone else."""
    replies = oslite.join(spool, "replies")
    try:
        uid = oslite.lstat(replies).st_uid
        if _trusted_dir(replies, (uid,)) and \
                _trusted_dir(spool, (0, uid), sticky_ok=True):
            return uid
    except FileNotFoundError:
        raise XceError(text("SPOOL_NEVER_RUN", spool=spool,
                            hint=START_HINT))
    except OSError:
        pass
    raise XceError(text("SPOOL_UNTRUSTED", spool=spool))


def read_reply(spool, req_id, ctl_uid):
    """The controller's reply document, or None while there is none.  Only
    a regular file of the controller's (or given by it to this user) in
    replies/ is believed; anything else is not the controller's."""
    path = oslite.join(spool, "replies", f"{req_id}.json")
    try:
        fd = oslite.open(path, _READ_FLAGS)
    except OSError:
        return None
    try:
        st = oslite.fstat(fd)
        if not oslite.S_ISREG(st.st_mode) or \
                st.st_uid not in (ctl_uid, oslite.getuid()) or \
                st.st_size > layout.MAX_REPLY_BYTES:
            return None
        data = oslite.read(fd, layout.MAX_REPLY_BYTES + 1)
    finally:
        oslite.close(fd)
    try:
        oslite.unlink(path)     # when the controller runs as this user
    except OSError:
        pass                # else the controller prunes it
    try:
        doc = jsoncodec.loads(data)
    except (ValueError, UnicodeDecodeError):
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("ok"), bool):
        raise XceError(text("REPLY_UNREADABLE", request=req_id))
    return doc


def _is_seconds(value):
    """ASCII digits with at most one decimal point and at least one digit
    (``1``, ``1.``, ``1.5``, ``.5``)."""
    whole, point, frac = value.partition(".")
    return bool(whole or frac) and not (whole.strip("0123456789") or
                                        frac.strip("0123456789"))


def request_timeout(site):
    """XCE_REQUEST_TIMEOUT (environment or lsf.conf): seconds above 0, at
    most a day (the range xce.yaml(5) gives it), in ASCII digits."""
    setting = getattr(site, "setting", None)    # xce start's ping: none
    value = str(setting(TIMEOUT_KEY, DEFAULT_TIMEOUT) if setting else
                DEFAULT_TIMEOUT).strip()
    if _is_seconds(value) and 0 < float(value) <= 86400:
        return float(value)
    raise XceError(text("BAD_TIMEOUT", setting=TIMEOUT_KEY, value=value))


def _spool_of(site):
    """A Site's spool directory as a string (no pathlib); any other
    object's ``spool``."""
    name = getattr(site, "spool_dir", None)
    return site.spool if name is None else name


class Request:
    """One request in flight; ``wait()`` returns the controller's reply."""

    def __init__(self, site, kind, body, hold=False):
        self.site = site
        self.spool = _spool_of(site)
        # Read before spooling: a bad setting refuses the request, it does
        # not leave it spooled behind a traceback.
        self.timeout = request_timeout(site)
        self.id = new_request_id()
        # Before spooling: a request is not sent down a channel whose
        # replies could be forged.
        self.ctl_uid = controller_uid(self.spool)
        # Nor where the doorbell cannot be rung (said, not taken for a
        # controller that is down).
        unixsock.check(doorbell(self.spool))
        # Listen before spooling so the controller's wake-up cannot be missed.
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            unixsock.bind(self.listener, layout.reply_socket_name(self.id))
        except OSError:
            pass    # the reply file is polled as well
        # From here until wait() listens, a signal that ends the command
        # waits: it must not come between the spooling and the words that
        # say the request stays (see _hold).
        self._held = _hold() if hold else None
        try:
            # Not fsynced yet: wait() does it only when no reply comes.
            write_request(self.spool, kind, body, self.id, durable=False)
        except BaseException:
            _release(self._held)
            raise

    def wait(self, timeout=None):
        """Wait for the reply; say once on stderr if the controller is down.

        Without a reply (the controller down or slow, the command
        interrupted) the request is left spooled, so it is made durable
        first; a reply means its effect is committed."""
        if timeout is None:
            timeout = self.timeout
        deadline = time.monotonic() + timeout
        warned = False
        reply = None
        try:
            _unblock(self._held)    # a signal held since spooling ends here
            up = ring(self.spool)
            if not up:
                make_durable(self.spool, self.id)
            while True:
                reply = read_reply(self.spool, self.id, self.ctl_uid)
                if reply is not None:
                    return reply
                now = time.monotonic()
                if now >= deadline:
                    raise Spooled(self._spooled_message(up, timeout))
                if not up and not warned:
                    print("Cannot connect to LSF. Please wait ...",
                          file=sys.stderr)
                    print(f"The xce controller is not running: {START_HINT}.",
                          file=sys.stderr, flush=True)
                    warned = True
                # A wake-up, or the time out (TimeoutError): the socket's
                # own wait, which spares a command the select module.
                self.listener.settimeout(min(0.5, deadline - now))
                try:
                    self.listener.recv(16)
                except OSError:
                    pass
                if not up:
                    up = ring(self.spool)
        except KeyboardInterrupt:
            # ^C, SIGTERM (timeout(1)), SIGHUP (a closed terminal): the
            # request stays spooled and takes effect; say so, or the user
            # submits it again.
            raise Spooled(text("SPOOLED", request=self.id,
                               why=text("INTERRUPTED")))
        finally:
            self.listener.close()
            if reply is None:
                make_durable(self.spool, self.id)
            _release(self._held)

    def _spooled_message(self, up, timeout):
        why = text("NOT_ANSWERED", timeout=timeout) if up else \
            text("NOT_RUNNING")
        return text("SPOOLED", request=self.id, why=why)


def call(site, kind, body, timeout=None):
    """Spool a request and return the controller's reply document."""
    return Request(site, kind, body, hold=True).wait(timeout)


# Signals that end a command waiting for its reply: ^C, and SIGTERM and
# SIGHUP, which end it as KeyboardInterrupt does while it waits (unless
# they were ignored, as nohup ignores SIGHUP).
_ENDING = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def _hold():
    """Block the ending signals and make SIGTERM and SIGHUP interrupt:
    (the old signal mask, the old handlers); None off the main thread,
    where handlers cannot be set."""
    handlers = {}
    try:
        for signum in _ENDING[1:]:
            if _signal.getsignal(signum) == _signal.SIG_DFL:
                handlers[signum] = _signal.signal(signum, _interrupted)
    except ValueError:          # not the main thread
        return None
    return _signal.pthread_sigmask(_signal.SIG_BLOCK, _ENDING), handlers


def _unblock(held):
    """Let the held signals in: one that came meanwhile is raised now."""
    if held is not None:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, held[0])


def _release(held):
    """The signal mask and handlers as they were before _hold."""
    if held is not None:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, held[0])
        for signum, handler in held[1].items():
            _signal.signal(signum, handler)
