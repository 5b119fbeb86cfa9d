"""The command side of the spool: write a request atomically, wait for its reply."""

import json
import os
import select
import socket
import sys
import time

from xce.errors import XceError
from xce.spool import layout

DEFAULT_TIMEOUT = 120.0
# lsf.conf / environment key: how long a command waits for the controller.
TIMEOUT_KEY = "XCE_REQUEST_TIMEOUT"


def new_request_id():
    # Names sort in submission order: nanoseconds, then pid, then randomness.
    return f"{time.time_ns():020d}-{os.getpid()}-{os.urandom(4).hex()}"


def _fsync_dir(path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_request(spool, kind, body, req_id=None):
    """Spool one request; return its id.  The file's owner is the requester."""
    req_id = req_id or new_request_id()
    doc = dict(body, version=layout.VERSION, kind=kind, id=req_id)
    data = json.dumps(doc, separators=(",", ":")).encode()
    tmp = spool / "tmp" / f"{req_id}.json"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, spool / "incoming" / f"{req_id}.json")
        _fsync_dir(spool / "incoming")
    except OSError as e:
        raise XceError(f"Cannot write a request into the spool: {e.strerror}")
    return req_id


def ring(spool):
    """Wake the controller; False when nothing listens on the doorbell."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.sendto(b"r", str(spool / layout.DOORBELL))
        return True
    except (ConnectionRefusedError, FileNotFoundError):
        return False
    except BlockingIOError:
        return True     # doorbell queue full: the controller is busy, not down
    except OSError:
        return False
    finally:
        s.close()


class Request:
    """One request in flight; ``wait()`` returns the controller's reply."""

    def __init__(self, site, kind, body):
        self.site = site
        self.spool = site.spool
        self.id = new_request_id()
        # Listen before spooling so the controller's wake-up cannot be missed.
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self.listener.bind(layout.reply_socket_name(self.id))
        except OSError:
            pass    # the reply file is polled as well
        write_request(self.spool, kind, body, self.id)

    def _read_reply(self):
        path = self.spool / "replies" / f"{self.id}.json"
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        try:
            os.unlink(path)
        except OSError:
            pass
        return json.loads(data)

    def wait(self, timeout=None):
        """Wait for the reply; say once on stderr if the controller is down."""
        if timeout is None:
            timeout = float(self.site.setting(TIMEOUT_KEY, DEFAULT_TIMEOUT))
        deadline = time.monotonic() + timeout
        up = ring(self.spool)
        warned = False
        while True:
            reply = self._read_reply()
            if reply is not None:
                self.listener.close()
                return reply
            now = time.monotonic()
            if now >= deadline:
                self.listener.close()
                raise XceError(
                    f"Request <{self.id}> is still spooled; the controller "
                    "will process it when it returns.")
            if not up and not warned:
                print("Cannot connect to LSF. Please wait ...", file=sys.stderr)
                warned = True
            select.select([self.listener], [], [], min(0.5, deadline - now))
            try:
                self.listener.recv(16, socket.MSG_DONTWAIT)
            except OSError:
                pass
            if not up:
                up = ring(self.spool)


def call(site, kind, body, timeout=None):
    """Spool a request and return the controller's reply document."""
    return Request(site, kind, body).wait(timeout)
