"""Job ids as users type them to any command, read in one place.

``123`` names a job (every element of an array), ``123[7]`` one element,
and in the commands that take several jobs an index list ``123[1-10:2,15]``
names each of those elements (LSF's ``"job_ID[index_list]"``: an index the
array does not have is reported like any unknown job); anything else gets LSF's ``<word>: Illegal job ID.`` (exit 255) -- as do
numbers past LSF's range (the largest MAX_JOBID and MAX_JOB_ARRAY_SIZE
LSF accepts), which no job can have and which the store's 64-bit
integers could not even hold, and job ids above the cluster's MAX_JOBID,
which the controller never gives.
"""

from xce.errbase import XceError
from xce.model import jobid as jobids
from xce.model.numbers import digits

# The word control commands take for "every job that matches".
ALL_JOBS = "0"
# The largest job id and array index LSF can give (lsb.params MAX_JOBID and
# MAX_JOB_ARRAY_SIZE both stop at 2147483646).
LSF_MAX_JOBID = 2147483646
LSF_MAX_INDEX = 2147483646
# The most elements one index list may name (a request's list of ids holds
# no more: xce.spool.fields LIST_MAX).
MAX_LISTED = 100_000


def illegal(word):
    """LSF's error for a word that is not a job id it accepts."""
    return XceError(f"{word}: Illegal job ID.")


def parse(word):
    """``"123"`` -> (123, None); ``"123[7]"`` -> (123, 7)."""
    try:
        jobid, idx = jobids.parse(word)
    except jobids.BadJobId:
        raise illegal(word)
    if not in_range(jobid, idx):
        raise illegal(word)
    return jobid, idx


def in_range(jobid, idx=None):
    """Whether a job could have this id: within LSF's range and the
    cluster's MAX_JOBID."""
    if jobid > LSF_MAX_JOBID or (idx or 0) > LSF_MAX_INDEX:
        return False
    # MAX_JOBID is never below its default: smaller ids need no look-up.
    return jobid <= jobids.DEFAULT_MAX_JOBID or jobid <= configured_max()


_configured = []        # the cluster's MAX_JOBID, read once per command


def configured_max():
    """lsb.params MAX_JOBID as the controller put it in force (the store's
    params table); LSF's largest when the store cannot be read, so the
    command goes on and reports what it finds."""
    if not _configured:
        import sqlite3
        from xce.client.site import open_store
        try:
            with open_store() as store:
                value = store.params().get("MAX_JOBID")
            limit = int(value) if value else jobids.DEFAULT_MAX_JOBID
        except (XceError, ValueError, sqlite3.Error):
            limit = LSF_MAX_JOBID
        _configured.append(limit)
    return _configured[0]


def expand(word):
    """``"123"`` -> [("123", 123, None)]; ``"123[1-5:2]"`` ->
    [("123[1]", 123, 1), ("123[3]", 123, 3), ("123[5]", 123, 5)]."""
    head, bracket, rest = word.strip().partition("[")
    inside = rest[:-1] if rest.endswith("]") else ""
    if not bracket or not any(c in inside for c in ",-:"):
        return [(word, *parse(word))]
    # Index lists are rare: their parser (and its re) is loaded for them.
    from xce.model import arrayspec
    try:
        indices = arrayspec.parse_index_list(inside, MAX_LISTED)
    except arrayspec.ArraySpecError:
        raise illegal(word)
    if not digits(head) or not in_range(int(head)):
        raise illegal(word)
    return [(jobids.show(int(head), idx), int(head), idx) for idx in indices]


def parse_list(words):
    """``[label, jobid, idx]`` triples, index lists expanded, and whether
    ``0`` (all) was given."""
    out, every = [], False
    for word in words:
        if word == ALL_JOBS:
            every = True
            continue
        out += [list(one) for one in expand(word)]
    return out, every
