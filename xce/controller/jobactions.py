"""The SUSPEND, RESUME and TERMINATE actions of a job, as its queue's
JOB_CONTROLS and TERMINATE_WHEN configure them (LSF's defaults: SIGSTOP,
SIGCONT, and the SIGINT, SIGTERM, SIGKILL sequence).

The system's suspensions (run window, load, preemption) and resumptions,
and bstop, bresume and bkill, go through here: a situation named in
TERMINATE_WHEN (WINDOW, LOAD, PREEMPT) ends the job with the TERMINATE
action instead of suspending it.  The events are recorded in the open
batch; the signals reach the agents after the commit.
"""

import signal

from xce.lang import jobcontrols
from xce.model import states

_DEFAULTS = {"SUSPEND": int(signal.SIGSTOP), "RESUME": int(signal.SIGCONT)}


def _queue(ctl, job):
    return ctl.cfg.queues.get(job.get("queue"))


def signal_of(ctl, job, action):
    """The signal of *action* for *job* (its number), or "KILLSEQ" for a
    TERMINATE its queue leaves to LSF's default sequence."""
    q = _queue(ctl, job)
    name = (q.job_controls if q is not None else {}).get(action)
    # The profile's SUSPEND_CONTROL ... win over the queue's (LSF 10.1).
    app = ctl.cfg.apps.get((job.get("spec") or {}).get("app") or "")
    if app is not None and action in app.job_controls:
        name = app.job_controls[action]
    if name is not None:
        return jobcontrols.signal_number(name)
    return _DEFAULTS.get(action, "KILLSEQ")


def terminates(ctl, job, situation):
    """Does the job's queue end it, rather than suspend it, in
    *situation* (TERMINATE_WHEN)?"""
    q = _queue(ctl, job)
    return q is not None and situation in (q.terminate_when or ())


def suspend(ctl, job, situation, reason, **data):
    """Suspend *job* (SSUSP, *reason*) by the system in *situation*, or
    end it when its queue says TERMINATE_WHEN = *situation*.  True when
    it was suspended."""
    if terminates(ctl, job, situation):
        terminate(ctl, job, jobcontrols.TERM_REASONS[situation])
        return False
    ctl.emit("STATUS", job, stat=states.SSUSP, reason=reason, **data)
    ctl.send_signal(job, signal_of(ctl, job, "SUSPEND"), None)
    return True


def resume(ctl, job, reason=None, **data):
    """Resume *job* (RUN) with its queue's RESUME action."""
    ctl.emit("STATUS", job, stat=states.RUN, reason=reason, **data)
    ctl.send_signal(job, signal_of(ctl, job, "RESUME"), None)


def terminate(ctl, job, reason):
    """Send the TERMINATE action, once: the job stays as it is until its
    agent reports its end, which carries *reason*."""
    key = (job["jobid"], job["idx"])
    if key in ctl.windows.terminating:
        return
    ctl.windows.terminating.add(key)
    ctl.send_signal(job, signal_of(ctl, job, "TERMINATE"), reason)


def noted(ctl, job):
    """A finished or requeued job is no longer being terminated."""
    if job["stat"] not in states.RUNNING:
        ctl.windows.terminating.discard((job["jobid"], job["idx"]))
