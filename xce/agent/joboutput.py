"""Where a job's output goes without -o, and which of a job's -o/-e files
its user could not open (read, never written, but for the output directory).

The job wrapper (xce.agent.spawn) writes the shell's complaint and then the
file's name to <prefix>.oerr / <prefix>.eerr when it cannot open the job's
output / error file, and sends that stream to the fallback file instead.
Those files are in the user's own directory and written with the user's
rights, so the agent reads them as untrusted: never through a link, never
blocking on a FIFO, a bounded number of bytes, printable text only.
"""

import os

from xce.agent.procs import read_user_file

# Suffixes of the wrapper's notes, by the stream they are about.
OPEN_ERRORS = (".oerr", ".eerr")
_STREAMS = (("stdout", ".oerr"), ("stderr", ".eerr"))

MAX_NOTE_BYTES = 8192       # a path may be 4094 bytes, its complaint twice that
MAX_FIELD = 4096


def read_user_note(path, limit=MAX_NOTE_BYTES):
    """The text of a small regular file the user may have tampered with;
    '' when it is missing, not a regular file, or unreadable."""
    return read_user_file(path, limit).decode("utf-8", "replace")


def _printable(text):
    return "".join(c if c.isprintable() else "?" for c in text)[:MAX_FIELD]


def parse_note(text):
    """(file, reason) from a wrapper note, or None for an empty one.  The
    shell says ``xce-job: 12: cannot create /x/y: Permission denied``; the
    last line is the file's name as the wrapper tried it."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    name = lines[-1]
    complaint = lines[0] if len(lines) > 1 else ""
    reason = complaint.rsplit(": ", 1)[-1] if ": " in complaint else \
        "cannot be opened"
    return _printable(name), _printable(reason)


def fallback_output(prefix, fallback):
    """{"stdout": {"file", "reason"}, "stderr": ..., "to": fallback} for the
    streams that went to *fallback*, or None when every file opened."""
    moved = {}
    for stream, suffix in _STREAMS:
        parsed = parse_note(read_user_note(prefix + suffix))
        if parsed:
            moved[stream] = {"file": parsed[0], "reason": parsed[1]}
    if not moved:
        return None
    moved["to"] = fallback
    return moved


def default_output(output_dir, msg):
    """No -o: the output stays under the spool, in the user's own
    directory (made here).  Output whose -o/-e file the user cannot
    open goes there too, where LSF would mail it."""
    path = default_output_path(output_dir, msg)
    userdir = path.parent
    if not userdir.exists():
        # Agents of virtual hosts share this directory: another one may
        # make it at the same moment (and it gives it the same owner).
        userdir.mkdir(mode=0o700, exist_ok=True)
        if os.geteuid() == 0:
            os.chown(userdir, msg["uid"], msg["gid"])
    return str(path)


def default_output_path(output_dir, msg):
    label = f"{msg['job']}.{msg['idx']}" if msg.get("idx") else \
        str(msg["job"])
    return output_dir / msg["user"] / f"{label}.out"


def moved_output(prefix, output_dir, msg):
    """fallback_output() of the job of *msg*, whose fallback is its default
    output file."""
    return fallback_output(prefix, str(default_output_path(output_dir, msg)))
