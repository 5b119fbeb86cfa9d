"""lsb.events records of pre- and post-execution (LSF 10.1's layout).

The post-exec outcome is a JOB_STATUS whose jStatus is the job's finished
state or'ed with JOB_STAT_PDONE (0x80) or JOB_STAT_PERR (0x100), as LSF
logs it; a requeue after a failed pre-exec gives its JOB_STATUS the
pending reason PEND_JOB_PRE_EXEC (6).
"""

from xce.model.states import CODES
from xce.store import lsbchanges
from xce.store.lsbfields import status_record, with_reason

JOB_STAT_PDONE = 0x80
JOB_STAT_PERR = 0x100
PEND_JOB_PRE_EXEC = 6


def job_post(job, data, jobid, idx, db):
    if data.get("post") == "RUN":   # one host's part: LSF logs the whole
        return []
    stat = job.get("stat") or "DONE"
    name, fields = status_record(jobid, idx, stat, job, True)
    words = fields.split(" ")
    words[1] = words[-1] = str(CODES.get(stat, 0) | (     # and masked
        JOB_STAT_PDONE if data.get("post") == "POST_DONE" else JOB_STAT_PERR))
    return [(name, " ".join(words))]


def job_requeue(job, data, jobid, idx, db):
    out = lsbchanges.job_requeue(job, data, jobid, idx, db)
    if data.get("pre_failed") is None:
        return out
    return [with_reason(r, PEND_JOB_PRE_EXEC) if r[0] == "JOB_STATUS" else r
            for r in out]


RECORDS = {"POST": job_post, "REQUEUE": job_requeue}
