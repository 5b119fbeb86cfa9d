"""The files a job keeps beside its prefix (.hosts, .job, .pid, .status,
...), in its user's own directory: made by the agent anew, read as the
user's (untrusted) writing, removed once the job's exit is acknowledged.

Staged files (bsub -f) have their own module, xce.agent.staging.
"""

import os

from xce.agent import procs
from xce.agent.joboutput import OPEN_ERRORS

# The files a job leaves beside its prefix, all removed once its exit is
# acknowledged.
JOB_FILES = (".hosts", ".job", ".pid", ".status", ".failed", ".report",
             ".peak", ".cwd", ".made") + OPEN_ERRORS


def create(path, text, mode=0o600):
    """Create *path* anew (never through a link) holding *text*."""
    try:
        os.unlink(path)     # removes a planted link, never its target
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                 mode)
    try:
        os.write(fd, text if isinstance(text, bytes) else text.encode())
    finally:
        os.close(fd)
    return path


def read_int(path, strict=False):
    """A number the wrapper wrote, as the job's user, into the user's own
    directory: read without following a link or waiting on a FIFO."""
    value = procs.read_small_int(path)
    if value is None and strict:
        raise ValueError(f"{path}: no number in a regular file")
    return value


def remove_files(prefix):
    for ext in JOB_FILES:
        remove(prefix + ext)


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
