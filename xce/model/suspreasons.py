"""Why a job is held or suspended by a person (bstop, bresume), as LSF
keeps it: who stopped the job, and a job the user resumed that waits for
the system to resume it.  Pure: the controller records it, the commands
show it and the lsb.events writer numbers it.

- A job stopped (bstop, bkill -s STOP) by another user than its owner,
  that is by one of its administrators (root, a cluster admin, or an
  administrator of its queue, user group or project), carries
  ``ADMIN_STOP`` in its spec: its owner may not resume it unless
  lsb.params ENABLE_USER_RESUME=Y.
- bresume of a USUSP job makes it SSUSP with the system reason
  ``USER_RESUME``; the system resumes it (xce.scheduler.suspending) when
  its hosts' loads and its queue's run window allow.
"""

ADMIN_STOP = "admin_stop"       # spec key: stopped by an administrator
USER_RESUME = "USER_RESUME"     # sys_susp of a job resumed by its user

# lsbatch.h suspending reason bits (JOB_STATUS reason field)
SUSP_USER_RESUME = 0x1
SUSP_USER_STOP = 0x2
SUSP_QUEUE_WINDOW = 0x8
SUSP_LOAD_REASON = 0x40
SUSP_MBD_PREEMPT = 0x80
SUSP_QUE_STOP_COND = 0x200
SUSP_ADMIN_STOP = 0x4000
SUSP_MBD_LOCK = 0x10000         # mbatchd holds the job: a person stopped it
# lsbatch.h pending reasons of a held job (PSUSP) and of one resumed
PEND_USER_RESUME = 605
PEND_USER_STOP = 607
PEND_ADMIN_STOP = 610

# bjobs -l SUSPENDING REASONS and PENDING REASONS lines (LSF's words)
USER_STOPPED = "The job was suspended by user"
ADMIN_STOPPED = "The job was suspended by LSF admin or root"
RESUMED_WAITING = "Waiting for re-scheduling after being resumed by user"
USER_HELD = "The job was suspended by the user while pending"
ADMIN_HELD = "Job was suspended by LSF admin or root while pending"


def admin_stopped(spec):
    return bool((spec or {}).get(ADMIN_STOP))


def may_resume(admin_stop, as_admin, user_resume):
    """May a requester resume a job (bresume, bkill -s CONT)?  *as_admin*:
    the requester is an administrator of the job (not only its owner);
    *user_resume*: lsb.params ENABLE_USER_RESUME=Y."""
    return not admin_stop or as_admin or user_resume


def status_reason(stat, data):
    """The reason field LSF writes in a JOB_STATUS record for a status
    change whose event data is *data*; 0 when LSF names none."""
    why = str(data.get("reason") or "")
    if stat == "USUSP":
        return SUSP_MBD_LOCK | (SUSP_ADMIN_STOP if data.get(ADMIN_STOP)
                                else SUSP_USER_STOP)
    if stat == "PSUSP" and data.get("by"):
        return PEND_ADMIN_STOP if data.get(ADMIN_STOP) else PEND_USER_STOP
    if stat == "PEND" and data.get("by"):
        return PEND_USER_RESUME
    if stat != "SSUSP":
        return 0
    if why == USER_RESUME:
        return SUSP_MBD_LOCK | SUSP_USER_RESUME
    if why == "WINDOW":
        return SUSP_QUEUE_WINDOW
    if why == "LOAD:STOP_COND":
        return SUSP_QUE_STOP_COND
    if why.startswith("LOAD:"):
        return SUSP_LOAD_REASON
    return SUSP_MBD_PREEMPT if why == "PREEMPTED" else 0
