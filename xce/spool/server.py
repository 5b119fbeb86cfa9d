"""The controller side of the spool: claim, verify, reply, remove.

Identity comes from the kernel: the requester is the owner uid of the request
file, read with fstat after an O_NOFOLLOW open, never a field inside it.
"""

import errno
import json
import logging
import os
import socket
import stat
import time
from dataclasses import dataclass, field

from xce import unixsock
from xce.spool import bounds, layout, schema

log = logging.getLogger("xce.spool")

# A reply nobody took within this many seconds is removed (a command that
# runs as another user than the controller cannot remove its reply).
REPLY_KEEP = 600.0
# A backlog past one batch is counted against the per-user bounds at most
# this often (seconds): while it drains, every turn would pay for it.
BACKLOG_COUNT_EVERY = 10.0


@dataclass
class Claimed:
    """One request taken from incoming/: parsed, or with the reason it is bad."""
    name: str
    id: str
    uid: int = -1
    size: int = 0
    over: bool = False      # past its owner's bound: refused unread
    doc: dict = field(default_factory=dict)
    error: str = ""


class SpoolServer:
    def __init__(self, spool_dir, limits=None):
        self.dir = spool_dir
        self.limits = limits or bounds.SpoolLimits()
        self.rejected = bounds.Rejected(spool_dir / "rejected")
        self.backlog_counted = float("-inf")
        self.doorbell = None

    def setup(self):
        """Create the tree with its modes and bind the doorbell."""
        self.dir.mkdir(parents=True, exist_ok=True)
        _closed_root(self.dir)
        for name, mode in {**layout.SHARED_DIRS,
                           **layout.PRIVATE_DIRS}.items():
            path = self.dir / name
            try:
                path.mkdir(mode=0o700)
            except FileExistsError:
                pass
            _own_dir(path)
            os.chmod(path, mode)
        # What a user may have left in replies/ when it was writable.
        bounds.prune_replies(self.dir / "replies", time.time() - REPLY_KEEP)
        bell = self.dir / layout.DOORBELL
        try:
            bell.unlink()
        except FileNotFoundError:
            pass
        self.doorbell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        unixsock.bind(self.doorbell, bell)
        os.chmod(bell, 0o666)
        self.doorbell.setblocking(False)
        return self.doorbell

    def close(self):
        if self.doorbell:
            self.doorbell.close()
            self.doorbell = None

    def drain_doorbell(self):
        while True:
            try:
                self.doorbell.recv(64)
            except (BlockingIOError, OSError):
                return

    def pending_names(self):
        try:
            return sorted(os.listdir(self.dir / "incoming"))
        except FileNotFoundError:
            return []

    def claim(self, limit=None, skip=(), now=0.0):
        """Read up to *limit* requests in name order, leaving out the names
        in *skip* (taken, not yet done).  Requests past their owner's bound
        are refused here, and removed."""
        names = [n for n in self.pending_names() if n not in skip]
        tally, taken, over = bounds.Tally(), [], []
        for pos, name in enumerate(names):
            if limit and len(taken) >= limit:
                if now >= self.backlog_counted + BACKLOG_COUNT_EVERY:
                    self.backlog_counted = now
                    over += self._count_backlog(tally, names[pos:])
                break
            req = self._read(name, tally)
            if req.over:
                over.append((name, req.uid, req.size))
            else:
                taken.append(req)
        if over:
            self._refuse_over_bound(over)
        return taken

    def _count_backlog(self, tally, names):
        """A backlog past the batch is counted too (one lstat a name), so
        that a flood goes at once rather than batch by batch."""
        over = []
        for name, st in bounds.entries(self.dir / "incoming", names):
            if not self._admit(tally, st.st_uid, st.st_size):
                over.append((name, st.st_uid, st.st_size))
        return over

    def _admit(self, tally, uid, size):
        """Count one more waiting request of *uid*; False past its bound."""
        if not tally.fits(uid, size, self.limits.user_requests,
                          self.limits.user_bytes):
            return False
        tally.add(uid, size)
        return True

    def _refuse_over_bound(self, over):
        lim = self.limits
        error = ("Too many requests of this user are waiting in the spool "
                 f"(at most {lim.user_requests} requests and "
                 f"{lim.user_bytes // bounds.MB} MB): request refused")
        per_uid = bounds.Tally()
        for name, uid, size in over:
            m = layout.REQUEST_NAME.match(name)
            req = Claimed(name=name, id=m.group(1) if m else "", uid=uid,
                          error=error)
            # Removed first: a full spool gets room for the reply.
            bounds.unlink(self.dir / "incoming" / name)
            per_uid.add(uid, size)
            try:
                self.reply(req, {"ok": False, "error": error})
            except OSError as e:
                log.error("cannot reply to %s: %s", req.id, e)
        for uid, (count, size) in per_uid.by_uid.items():
            log.warning("refused and removed %d spool files (%d bytes) of "
                        "uid %d: past its bound on waiting requests",
                        count, size, uid)

    def _read(self, name, tally):
        """Open, check and parse one request; one past its owner's bound
        is marked *over* and not read."""
        m = layout.REQUEST_NAME.match(name)
        req = Claimed(name=name, id=m.group(1) if m else "")
        if not m:
            req.error = "request file name is not a request id"
            return req
        path = self.dir / "incoming" / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as e:
            req.error = ("request file is a symbolic link"
                         if e.errno == errno.ELOOP else e.strerror)
            return req
        try:
            st = os.fstat(fd)
            req.uid, req.size = st.st_uid, st.st_size
            if not self._admit(tally, req.uid, req.size):
                req.over = True
            elif not stat.S_ISREG(st.st_mode):
                req.error = "request file is not a regular file"
            elif st.st_size > layout.MAX_REQUEST_BYTES:
                req.error = "request file is too large"
            else:
                req.doc, req.error = _parse(_read_all(fd), req.id)
        finally:
            os.close(fd)
        return req

    def reply(self, req, doc):
        """Write the reply readable by the requester only, then wake them."""
        if not req.id:
            return
        data = json.dumps(doc, separators=(",", ":")).encode()
        final = self.dir / "replies" / f"{req.id}.json"
        tmp = self.dir / "replies" / f".{req.id}.tmp"
        # Only the controller writes replies/; still, whatever is found
        # under the temporary name is removed, never opened, so that no
        # link or FIFO there can redirect or block this write.
        bounds.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                     os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
        try:
            try:
                _write_all(fd, data)
                if req.uid >= 0 and req.uid != os.geteuid():
                    os.fchown(fd, req.uid, -1)
            finally:
                os.close(fd)
            os.replace(tmp, final)
        except OSError:
            bounds.unlink(tmp)      # a full spool: leave no part behind
            raise
        self._notify(req.id)

    def _notify(self, req_id):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            unixsock.sendto(s, b"d", layout.reply_socket_name(req_id))
        except OSError:
            pass    # the client polls the reply file too
        finally:
            s.close()

    def remove(self, req):
        """Drop a processed request; a bad one is kept in rejected/ while
        its owner's share of rejected/ allows."""
        src = self.dir / "incoming" / req.name
        try:
            if req.error and self.rejected.admit(req.uid, req.size,
                                                 self.limits):
                os.replace(src, self.dir / "rejected" / req.name)
            else:
                os.unlink(src)
        except FileNotFoundError:
            pass

    def prune(self, now):
        """Housekeeping: rejected/ by age and size, replies nobody took."""
        try:
            self.rejected.prune(now, self.limits)
            bounds.prune_replies(self.dir / "replies", now - REPLY_KEEP)
        except OSError as e:
            log.warning("cannot prune the spool: %s", e)


class SpoolError(RuntimeError):
    """The spool tree holds what the controller must not use."""


def _closed_root(path):
    """Users write in tmp/ and incoming/, never in the spool itself: a
    spool root others can write (a fresh tmpfs is 1777) is closed, so that
    no one can plant a name the controller will make."""
    st = os.lstat(path)
    if st.st_mode & 0o022 and st.st_uid == os.geteuid():
        os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o022)
    elif st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
        log.warning("the spool %s can be written by other users; commands "
                    "will not trust its replies", path)


def _own_dir(path):
    """A directory of the tree must be a real one of the controller's (or
    root's): one planted by a user (or a link) is refused, never used or
    chmod-ed."""
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid not in (0, os.geteuid()):
        raise SpoolError(f"{path} is not a directory owned by uid "
                         f"{os.geteuid()}; remove it and start again")


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_all(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _parse(data, req_id):
    """The request as a dict, checked against the declared schema
    (xce.spool.fields), or the one-line reason it is refused."""
    try:
        doc = schema.decode(data)
    except schema.BadRequest as e:
        return {}, f"Bad request: {e}"
    if doc["id"] != req_id:
        return {}, "Bad request: its id does not match its file name"
    return doc, ""
