"""Names and modes of the spool directory tree (see xce-spool(5)).

    spool/tmp/        requests being written (sticky, world-writable)
    spool/incoming/   complete requests, processed in name order
    spool/replies/    one reply per request, owned by its requester, 0600
    spool/rejected/   requests the controller refused to parse, kept
    spool/store/      the SQLite state store, pid, lock and log files
    spool/doorbell    UNIX datagram socket that wakes the controller
    spool/agents/H/   per-host agent state: socket, journal, job dirs
    spool/output/     job output when bsub had no -o (per-user files)
"""

import re

VERSION = 1
SHARED_DIRS = {"tmp": 0o1777, "incoming": 0o1777, "replies": 0o1777,
               "output": 0o1777}
PRIVATE_DIRS = {"rejected": 0o700, "store": 0o755, "agents": 0o711}
DOORBELL = "doorbell"
REQUEST_NAME = re.compile(r"^(\d{20}-\d+-[0-9a-f]{8})\.json$")
MAX_REQUEST_BYTES = 64 * 1024 * 1024


def reply_socket_name(request_id):
    """Abstract-namespace datagram socket where a waiting client listens."""
    return b"\0xce-reply-" + request_id.encode()
