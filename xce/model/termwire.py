"""The terminal channel of an interactive job (bsub -I, -Ip, -Is).

bsub listens on a TCP port; the job's relay on the execution host connects
to it (as LSF's remote execution server calls back its submitter).  Either
end proves that it holds the job's key, a random secret bsub put in its
spool request (a file only it and the controller can read); the controller
keeps it in a directory of its own and hands it to the agent with the job.
So nobody else can pose as the job to bsub (and read what the user types)
or as bsub to the job (and type into it).

The exchange, after connect:

    bsub  -> relay   "XCE-TERM 1 <bsub nonce>\\n"
    relay -> bsub    {"job", "idx", "host", "nonce", "proof"}\\n
    bsub  -> relay   {"proof", "modes", "winsize"}\\n
    then frames both ways: one type byte, a 4-byte length, the payload.

Stdlib only: bsub and the relay both import it.
"""

import hashlib
import hmac
import json
import os
import struct

GREETING = b"XCE-TERM 1 "
MAX_LINE = 64 * 1024
MAX_FRAME = 1 << 16
KEY_HEX = 64                # a key: 32 random bytes, in hex

# Frame types.  To the job: its standard input (empty: end of input), a
# window size, a signal.  From the job: standard output and error, and its
# end (a JSON object: {"exit": code} or {"signal": number}).
STDIN, WINSIZE, SIGNAL = b"i", b"w", b"k"
STDOUT, STDERR, END = b"o", b"e", b"x"
_HEADER = struct.Struct(">cI")


class WireError(Exception):
    pass


def new_key():
    return os.urandom(KEY_HEX // 2).hex()


def new_nonce():
    return os.urandom(16).hex()


def proof(key, role, nonce, job, idx):
    """What *role* ("exec" or "submit") sends to show it holds *key*: an
    HMAC of the other side's *nonce* and the job it speaks for."""
    data = f"{role}|{nonce}|{int(job)}|{int(idx)}".encode()
    return hmac.new(bytes.fromhex(key), data, hashlib.sha256).hexdigest()


def proven(key, role, nonce, job, idx, claimed):
    return isinstance(claimed, str) and hmac.compare_digest(
        proof(key, role, nonce, job, idx), claimed)


def line(doc):
    return json.dumps(doc, separators=(",", ":")).encode() + b"\n"


def parse_line(data):
    """A JSON object from one handshake line; WireError otherwise."""
    try:
        doc = json.loads(data)
    except ValueError:
        raise WireError("not JSON")
    if not isinstance(doc, dict):
        raise WireError("not an object")
    return doc


def frame(kind, payload=b""):
    return _HEADER.pack(kind, len(payload)) + payload


def winsize_frame(rows, cols):
    return frame(WINSIZE, struct.pack(">HH", rows, cols))


def parse_winsize(payload):
    return struct.unpack(">HH", payload)


class Frames:
    """Splits a byte stream into (type, payload) frames."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        out = []
        while len(self.buf) >= _HEADER.size:
            kind, size = _HEADER.unpack_from(self.buf)
            if size > MAX_FRAME:
                raise WireError("frame too long")
            end = _HEADER.size + size
            if len(self.buf) < end:
                break
            out.append((kind, bytes(self.buf[_HEADER.size:end])))
            del self.buf[:end]
        return out


def drain(fd):
    """Empty a non-blocking wake-up pipe (signal.set_wakeup_fd's)."""
    try:
        while os.read(fd, 512):
            pass
    except OSError:
        pass
