"""Bounds that keep one user from filling the spool: the requests a user
may have waiting in incoming/, the files kept for them in rejected/ (a
count and bytes each), and the pruning of rejected/ by age and total size.
A user who floods the spool loses only their own requests."""

import logging
import os
import stat
from dataclasses import dataclass

log = logging.getLogger("xce.spool")

MB = 1 << 20


@dataclass
class SpoolLimits:
    """The bounds in force; the defaults are those of xce.yaml(5)."""
    min_free: int = 64 * MB         # below this, new jobs are refused
    user_requests: int = 10000      # waiting in incoming/, per user
    user_bytes: int = 256 * MB
    rejected_user_files: int = 100  # kept in rejected/, per user
    rejected_user_bytes: int = 16 * MB
    rejected_keep: float = 7 * 86400.0
    rejected_bytes: int = 256 * MB  # rejected/ as a whole


class Tally:
    """Files and bytes per uid."""

    def __init__(self):
        self.by_uid = {}

    def add(self, uid, size):
        count, total = self.by_uid.get(uid, (0, 0))
        self.by_uid[uid] = (count + 1, total + size)

    def fits(self, uid, size, max_count, max_bytes):
        """Would one more file of *size* keep *uid* within the bounds?"""
        count, total = self.by_uid.get(uid, (0, 0))
        return count < max_count and total + size <= max_bytes


def entries(directory, names):
    """(name, lstat) of each of *names* still there, in the given order."""
    out = []
    for name in names:
        try:
            out.append((name, os.lstat(os.path.join(directory, name))))
        except OSError:
            pass        # taken or removed since the listing
    return out


class Rejected:
    """rejected/: what it holds per user, kept within the bounds."""

    def __init__(self, directory):
        self.dir = directory
        self.tally = None

    def _load(self):
        self.tally = Tally()
        for _, st in entries(self.dir, os.listdir(self.dir)):
            self.tally.add(st.st_uid, st.st_size)

    def admit(self, uid, size, limits):
        """True when one more rejected file of *uid* may be kept."""
        if self.tally is None:
            self._load()
        if not self.tally.fits(uid, size, limits.rejected_user_files,
                               limits.rejected_user_bytes):
            return False
        self.tally.add(uid, size)
        return True

    def prune(self, now, limits):
        """Drop files older than the keep time, then the oldest until the
        directory is within its size; return how many went."""
        listed = entries(self.dir, os.listdir(self.dir))
        listed.sort(key=lambda e: e[1].st_mtime)
        total = sum(st.st_size for _, st in listed)
        dropped = 0
        for name, st in listed:
            if st.st_mtime >= now - limits.rejected_keep and \
                    total <= limits.rejected_bytes:
                break
            if unlink(os.path.join(self.dir, name)):
                dropped += 1
                total -= st.st_size
        self.tally = None       # counted again when next needed
        if dropped:
            log.info("pruned %d files from %s", dropped, self.dir)
        return dropped


def prune_replies(directory, before):
    """Replies nobody read (the command gave up or cannot remove them), and
    anything in replies/ that is not a regular file."""
    for name, st in entries(directory, os.listdir(directory)):
        if st.st_mtime < before or not stat.S_ISREG(st.st_mode):
            unlink(os.path.join(directory, name))


def unlink(path):
    """Remove one directory entry (never what a link points to)."""
    try:
        os.unlink(path)
        return True
    except OSError:
        return False    # gone already, or a directory left by someone
