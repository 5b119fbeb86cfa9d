"""Job ids as users write them: ``123`` or ``123[7]``."""

from xce.model.numbers import digits


class BadJobId(ValueError):
    pass


def parse(text):
    """``"123"`` -> (123, None); ``"123[7]"`` -> (123, 7).  Whitespace
    around it is allowed; ASCII digits only (``int`` would also read "３",
    a full-width digit, as 3)."""
    jobid, bracket, rest = text.strip().partition("[")
    idx = rest[:-1] if bracket and rest.endswith("]") else None
    if not digits(jobid) or bracket and not digits(idx):
        raise BadJobId(text)
    return int(jobid), (int(idx) if bracket else None)


def show(jobid, idx=0):
    """How LSF prints a job or array element id."""
    return f"{jobid}[{idx}]" if idx else str(jobid)


# lsb.params MAX_JOBID when not set, and the least it may be (LSF's).
DEFAULT_MAX_JOBID = 999999


def allocate(counter, max_jobid, in_use):
    """The id a new job gets, as mbatchd gives it, or None when none is free.

    *counter* is the next id in sequence; past *max_jobid* (the last id
    given was the largest, or MAX_JOBID was lowered since) the sequence
    starts again at 1.  Ids in *in_use* (jobs the controller still knows:
    unfinished, or finished within CLEAN_PERIOD) are skipped.
    """
    held = len(in_use)
    if held >= max_jobid and all(i in in_use
                                 for i in range(1, max_jobid + 1)):
        return None
    jobid = counter if 1 <= counter <= max_jobid else 1
    # At most len(in_use) + 1 steps: some id in 1..max_jobid is free.
    while jobid in in_use:
        jobid = jobid + 1 if jobid < max_jobid else 1
    return jobid


def submitted_by(candidates, when, submitted):
    """Of *candidates* of one job id (and index), oldest first, the job
    submitted last at or before *when* (else the first): the job an event
    or a row of that time belongs to, when MAX_JOBID wrapped and the id
    served several jobs.  *submitted* gives a candidate's submit time."""
    chosen = candidates[0]
    for candidate in candidates[1:]:
        at = submitted(candidate)
        if at is not None and at <= when:
            chosen = candidate
    return chosen
