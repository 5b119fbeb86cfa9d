"""Names and modes of the spool directory tree (see xce-spool(5)).

    spool/tmp/        requests being written (sticky, writable, not listable)
    spool/incoming/   complete requests, processed in name order (same)
    spool/replies/    one reply per request, written by the controller only
    spool/rejected/   requests the controller refused to parse, kept a while
    spool/store/      the SQLite state store, pid, lock and log files
    spool/doorbell    UNIX datagram socket that wakes the controller
    spool/agents/H/   per-host agent state: socket, journal, job dirs
    spool/output/     job output when bsub had no -o (per-user files)
    spool/attachments/  files attached with bpost -a, each its owner's (0600)
    spool/interactive/  the key of each interactive job (the controller's)
"""

from xce.spool import fields

VERSION = fields.VERSION
# Users may create files in tmp/ and incoming/ but not list them: the ids
# of other users' requests stay unknown.  Only the controller writes
# replies/, so a reply found there comes from it (see client.read_reply).
SHARED_DIRS = {"tmp": 0o1733, "incoming": 0o1733, "output": 0o1777}
# attachments/: the controller's, not listable; each file is readable by
# its job's owner only (bread -a), unlike the store every user may read.
PRIVATE_DIRS = {"replies": 0o711, "rejected": 0o700, "store": 0o755,
                "agents": 0o711, "attachments": 0o711, "interactive": 0o700}
DOORBELL = "doorbell"
_REQUEST_NAME = r"^(\d{20}-\d+-[0-9a-f]{8})\.json$"
MAX_REQUEST_BYTES = 64 * 1024 * 1024
MAX_REPLY_BYTES = 64 * 1024 * 1024


def attachment_name(jobid, idx, msg_id):
    """The file under attachments/ of a job's message."""
    return f"{int(jobid)}.{int(idx)}.{int(msg_id)}"


def reply_socket_name(request_id):
    """Abstract-namespace datagram socket where a waiting client listens."""
    return b"\0xce-reply-" + request_id.encode()


def __getattr__(name):
    # REQUEST_NAME (a compiled pattern) is the controller's: compiled when
    # first asked for, so that commands, which only write requests, never
    # load re.
    if name == "REQUEST_NAME":
        import re
        globals()[name] = re.compile(_REQUEST_NAME)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
