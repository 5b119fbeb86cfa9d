"""Exclusive jobs (bsub -x): such a job starts only on hosts that run no
other job, and a host running one takes no other job (LSF's closed_Excl).

The caller marks the hosts that run an exclusive job with STATUS in the
snapshot; within a pass, the hosts an exclusive job is given are marked
the same way, so the jobs after it see them taken.
"""

from xce.model import states

STATUS = states.HOST_CLOSED_EXCL
R_RUNNING = "Running an exclusive job"
R_BUSY = "Job's requirement for exclusive execution not satisfied"


def host_reason(h, job):
    """Why host H cannot take JOB because of exclusivity, or None."""
    if h.status == STATUS:
        return R_RUNNING
    if job.exclusive and h.used > 0:
        return R_BUSY
    return None


def take_hosts(hosts, names):
    """An exclusive job was placed on NAMES: nothing else goes there (they
    count as full, so the shortcuts that look for room skip them too)."""
    for name in names:
        h = hosts[name]
        h.status = STATUS
        h.used = max(h.used, h.max_slots)
        h.resources["slots"] = 0
