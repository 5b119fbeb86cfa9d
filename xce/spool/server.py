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
from dataclasses import dataclass, field

from xce.spool import layout

log = logging.getLogger("xce.spool")


@dataclass
class Claimed:
    """One request taken from incoming/: parsed, or with the reason it is bad."""
    name: str
    id: str
    uid: int = -1
    doc: dict = field(default_factory=dict)
    error: str = ""


class SpoolServer:
    def __init__(self, spool_dir):
        self.dir = spool_dir
        self.doorbell = None

    def setup(self):
        """Create the tree with its modes and bind the doorbell."""
        self.dir.mkdir(parents=True, exist_ok=True)
        for name, mode in {**layout.SHARED_DIRS,
                           **layout.PRIVATE_DIRS}.items():
            path = self.dir / name
            path.mkdir(exist_ok=True)
            os.chmod(path, mode)
        bell = self.dir / layout.DOORBELL
        try:
            bell.unlink()
        except FileNotFoundError:
            pass
        self.doorbell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.doorbell.bind(str(bell))
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

    def claim(self, limit=None):
        """Read up to *limit* requests in name order."""
        names = self.pending_names()
        if limit:
            names = names[:limit]
        return [self._read(name) for name in names]

    def _read(self, name):
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
            req.uid = st.st_uid
            if not stat.S_ISREG(st.st_mode):
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
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                     0o600)
        try:
            os.write(fd, data)
            if req.uid >= 0 and req.uid != os.geteuid():
                os.fchown(fd, req.uid, -1)
        finally:
            os.close(fd)
        os.replace(tmp, final)
        self._notify(req.id)

    def _notify(self, req_id):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            s.sendto(b"d", layout.reply_socket_name(req_id))
        except OSError:
            pass    # the client polls the reply file too
        finally:
            s.close()

    def remove(self, req):
        """Drop a processed request; a bad one is kept in rejected/."""
        src = self.dir / "incoming" / req.name
        try:
            if req.error:
                os.replace(src, self.dir / "rejected" / req.name)
            else:
                os.unlink(src)
        except FileNotFoundError:
            pass


def _read_all(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _parse(data, req_id):
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return {}, "request file is not valid JSON (truncated?)"
    if not isinstance(doc, dict):
        return {}, "request is not a JSON object"
    if doc.get("version") != layout.VERSION:
        return {}, f"request version {doc.get('version')!r} is not supported"
    if doc.get("id") != req_id:
        return {}, "request id does not match its file name"
    if not isinstance(doc.get("kind"), str):
        return {}, "request has no kind"
    return doc, ""
