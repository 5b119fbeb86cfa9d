"""Where lsb.events and lsb.acct stand, and their rotation, crash-safe.

The store is the record; the two files are written from it after each
commit.  ``logdir/.xce-seq`` holds one fixed-width line, rewritten with a
single ``pwrite`` after every append: the last event written, both files'
sizes then, the finished jobs in lsb.events, when lsb.acct was begun, the
latest event time, and a rotation under way (its file and inode).  So a
crash at any point is undone or finished on the next start:

* bytes appended after the last recorded size are cut off (their events
  are after the recorded one, so they are written again, once);
* a rotation that was begun is finished: the numbered files are shifted up
  from the lowest gap (``.N`` to ``.N+1``), the file that was current (known
  by its inode) becomes ``.1``, and a new file is begun.  Every step can be
  repeated, so no record is lost or written twice.

LSF's rules (see lsb.events(5)): lsb.events is switched once it holds
MAX_JOB_NUM finished jobs (lsb.params, default 1000); lsb.acct is archived
when it is larger than ACCT_ARCHIVE_SIZE kilobytes, older than
ACCT_ARCHIVE_AGE days, or begun before the last ACCT_ARCHIVE_TIME (hh:mm,
local time) went by (all unset by default: never).  The newest archive is
``.1``; with MAX_ACCT_ARCHIVE_FILE the archives above that number are
deleted, the oldest first (unset: none).
"""

import os
import re
import time
from dataclasses import dataclass, fields

EVENTS, ACCT = "lsb.events", "lsb.acct"
STATE_FILE = ".xce-seq"
STATE_WIDTH = 160
# lsb.events begins with "# <history seek position>"; an archive with
# "# <time of its latest event>".  The blanks leave room for that time.
HEADER = "# 0" + " " * 11 + "\n"
DEFAULT_MAX_JOB_NUM = 1000


@dataclass
class LogState:
    seq: int = 0            # the last event whose records are written
    events_size: int = -1   # -1: not known (a log from before sizes)
    acct_size: int = -1
    finished: int = 0       # finished jobs in the current lsb.events
    acct_begun: int = 0     # when the current lsb.acct was begun
    stamp: int = 0          # the latest event time written
    rotating: str = "-"     # the file being rotated, or "-"
    ino: int = 0            # its inode before the rotation

    def line(self):
        text = " ".join(str(getattr(self, f.name)) for f in fields(self))
        return f"{text:<{STATE_WIDTH - 1}}\n".encode()

    @classmethod
    def parse(cls, text):
        """A state line; an old one holds the event number alone."""
        words = text.split()
        if not words or not all(w.lstrip("-").isdigit() or w in (
                "-", EVENTS, ACCT) for w in words):
            return None
        values = [w if f.type is str else int(w)
                  for w, f in zip(words, fields(cls))]
        return cls(*values)


@dataclass
class Limits:
    max_job_num: int = DEFAULT_MAX_JOB_NUM
    acct_size_kb: int = 0       # 0: no archiving by size
    acct_age_days: int = 0      # 0: no archiving by age
    acct_at: int = -1           # minutes past midnight; -1: no daily time
    max_acct_files: int = 0     # 0: no archive is deleted

    @classmethod
    def from_params(cls, params):
        params = params or {}
        return cls(_positive(params.get("MAX_JOB_NUM"), DEFAULT_MAX_JOB_NUM),
                   _positive(params.get("ACCT_ARCHIVE_SIZE"), 0),
                   _positive(params.get("ACCT_ARCHIVE_AGE"), 0),
                   clock_minutes(params.get("ACCT_ARCHIVE_TIME")),
                   _positive(params.get("MAX_ACCT_ARCHIVE_FILE"), 0))

    def acct_due(self, size, begun, now):
        if size <= 0:
            return False
        if self.acct_size_kb and size > self.acct_size_kb * 1024:
            return True
        if self.acct_at >= 0 and begun < last_clock_time(self.acct_at, now):
            return True
        return bool(self.acct_age_days and
                    now - begun > self.acct_age_days * 86400)


_CLOCK = re.compile(r"\s*([01]?[0-9]|2[0-3]):([0-5][0-9])\s*$")


def clock_minutes(value):
    """ACCT_ARCHIVE_TIME's hh:mm as minutes past midnight; -1 when unset
    or not a time of day (the configuration check refuses those)."""
    match = _CLOCK.match(str(value)) if value is not None else None
    if match is None:
        return -1
    return int(match.group(1)) * 60 + int(match.group(2))


def last_clock_time(minutes, now):
    """The latest moment at or before *now* when the local clock read
    *minutes* past midnight."""
    local = time.localtime(now)
    at = time.mktime((local.tm_year, local.tm_mon, local.tm_mday,
                      minutes // 60, minutes % 60, 0, 0, 0, -1))
    if at > now:
        day = time.localtime(now - 86400)
        at = time.mktime((day.tm_year, day.tm_mon, day.tm_mday,
                          minutes // 60, minutes % 60, 0, 0, 0, -1))
    return at


def prune_archives(directory, name, keep):
    """Delete name.N for every N above *keep* (0: keep all); repeatable."""
    if keep <= 0:
        return
    for n in sorted(archives(directory, name), reverse=True):
        if n > keep:
            os.unlink(os.path.join(directory, f"{name}.{n}"))


def _positive(value, default):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number > 0 else default


def archives(directory, name):
    """The numbers N of the files name.N in *directory*."""
    pattern = re.compile(re.escape(name) + r"\.([1-9][0-9]*)$")
    found = set()
    for entry in os.listdir(directory):
        match = pattern.match(entry)
        if match:
            found.add(int(match.group(1)))
    return found


def shift_archives(directory, name):
    """name.N -> name.N+1 for every N below the lowest missing number, the
    highest first: repeated after a crash halfway, it goes on where it
    stopped (the gap it left is the lowest missing number)."""
    present = archives(directory, name)
    gap = 1
    while gap in present:
        gap += 1
    for n in range(gap - 1, 0, -1):
        os.rename(os.path.join(directory, f"{name}.{n}"),
                  os.path.join(directory, f"{name}.{n + 1}"))


def finish_rotation(directory, name, ino, stamp):
    """Make the file that had inode *ino* ``name.1`` and begin a new one;
    returns the new file's size.  Safe to call again after any crash."""
    path = os.path.join(directory, name)
    try:
        current = os.stat(path).st_ino
    except FileNotFoundError:
        current = None
    if current == ino:
        if name == EVENTS:
            _stamp_header(path, stamp)
        shift_archives(directory, name)
        os.rename(path, path + ".1")
    # Nothing is written to the new file before the rotation is recorded as
    # done, so whatever a crash left in it is dropped.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        head = HEADER.encode() if name == EVENTS else b""
        os.write(fd, head)
    finally:
        os.close(fd)
    return len(head)


def _stamp_header(path, stamp):
    """Write the latest event time into a padded header (older logs began
    with a bare "# 0" and keep it)."""
    with open(path, "r+b") as f:
        first = f.readline()
        text = f"# {stamp}".encode()
        if first.startswith(b"# ") and len(text) < len(first):
            f.seek(0)
            f.write(text.ljust(len(first) - 1) + b"\n")


def count_finished(path):
    """Finished jobs in an lsb.events written before the state kept the
    count: its JOB_STATUS records with status EXIT (32) or DONE (64)."""
    count = 0
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(b'"JOB_STATUS"'):
                    words = line.split(b" ", 5)
                    if len(words) > 4 and words[4] in (b"32", b"64"):
                        count += 1
    except FileNotFoundError:
        pass
    return count
