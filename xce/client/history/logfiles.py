"""``bhist -n``: the jobs of the N most recent event log files.

LSF's bhist reads lsb.events and, with ``-n``, its archives: ``-n N``
the current file and the N-1 newest archives (lsb.events.1 is the
newest), ``-n min,max`` the archives lsb.events.min to lsb.events.max,
``-n 0`` all of them.  A job is found in the files that hold its
submission (JOB_NEW), and its later events are in the same or newer
files.  xce's history is its store (xce.db and history.db), which the
controller writes the files from (xce.store.lsbfiles, the same log
directory): ``-n`` selects the jobs whose JOB_NEW record is in the
files it names, by job id and submission time (a job id MAX_JOBID gave
twice names two jobs), and their histories are read from the store as
without ``-n``.  ``-n 0`` is the whole history.
"""

from xce import oslite
from xce.errors import XceError, text
from xce.model import numbers
from xce.store.reader import logdir

EVENTS = "lsb.events"
_RECORD = '"JOB_NEW" '


def numbers_of(value):
    """The file numbers ``-n`` names (0: lsb.events, n: lsb.events.n) as
    (first, last), last None for no end; None for ``-n 0`` (the whole
    history).  A bad value raises the error bhist prints."""
    first, comma, last = value.partition(",")
    if not comma:
        if not numbers.digits(value):
            raise XceError(text("BHIST_LOGFILES"))
        count = int(value)
        return None if count == 0 else (0, count - 1)
    if not (numbers.digits(first) and numbers.digits(last)) or \
            not 1 <= int(first) <= int(last):
        raise XceError(text("BHIST_LOGRANGE", range=value))
    return int(first), int(last)


def select(rows, files, site, reader, path=None):
    """*rows* narrowed to the jobs submitted in *files* (numbers_of()),
    read from the log directory of *site*'s cluster, or in the file
    *path* (``-f``)."""
    if path is not None:
        return in_files(rows, file_submissions(path))
    if files is None:
        return rows
    cluster = reader.meta().get("cluster")
    return in_files(rows, submissions(logdir(site.spool_dir, cluster),
                                      *files))


def submissions(directory, first, last):
    """{(job id, submission time in whole seconds)} of the JOB_NEW records
    of files *first* to *last* of *directory*.  The current file must be
    there when it is asked for; missing archives are skipped (LSF
    searches the files there are)."""
    try:
        there = set(oslite.listdir(directory))
    except OSError as e:
        raise XceError(text("BHIST_NO_LOG", path=directory,
                            reason=e.strerror))
    if first == 0 and EVENTS not in there:
        raise XceError(text("BHIST_NO_LOG", path=oslite.join(
            directory, EVENTS), reason="No such file or directory"))
    found = set()
    for name in sorted(there):
        n = _number(name)
        if n is not None and first <= n <= last:
            found |= file_submissions(oslite.join(directory, name))
    return found


def file_submissions(path):
    """``bhist -f``: {(job id, submission time)} of the JOB_NEW records of
    the event log file *path*; a file that cannot be read is bhist's
    error."""
    found = set()
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(_RECORD):
                    _add(found, line)
    except OSError as e:
        raise XceError(text("BHIST_NO_LOG", path=path, reason=e.strerror))
    return found


def _number(name):
    """0 for lsb.events, n for lsb.events.n, None for another file."""
    if name == EVENTS:
        return 0
    head, dot, tail = name.rpartition(".")
    return int(tail) if head == EVENTS and numbers.digits(tail) else None


def _add(found, line):
    # "JOB_NEW" "10.1" time jobId userId options numProcessors submitTime
    parts = line.split(" ", 8)
    try:
        found.add((int(parts[3]), int(parts[7])))
    except (IndexError, ValueError):
        pass


def in_files(rows, found):
    """The rows of jobs submitted in the files (*found*: submissions())."""
    return [r for r in rows
            if (r["jobid"], int(r["submit_time"] or 0)) in found]
