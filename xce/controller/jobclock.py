"""The controller's side of job times (bsub -b and -t).

Which jobs have a begin or termination time is kept here (a set, so a
turn costs nothing when no job has one); what each time asks for is
decided by the pure xce.scheduler.jobtimes, which the simulator uses too.
Each turn that reaches the earliest time due acts on it:

- a begin time that came makes the controller schedule (the scheduler
  itself keeps the job back until then, with LSF's pend reason);
- a pending job at its termination time, or whose run limit no longer
  fits before it, ends EXIT (TERM_DEADLINE);
- a running job at its termination time gets SIGUSR2, and the kill
  sequence WARN_TIME later, both with reason TERM_DEADLINE.

run_once sleeps no longer than until the next such time.
"""

import signal
from dataclasses import dataclass, field

from xce.controller import rlimits
from xce.model import states
from xce.scheduler import jobtimes


@dataclass
class State:
    """What lasts between turns (``ctl.clock``)."""
    keys: set = field(default_factory=set)      # jobs with -b or -t
    warned: set = field(default_factory=set)    # sent SIGUSR2 at -t
    killed: set = field(default_factory=set)    # and the kill sequence
    next_at: float = None                       # earliest time due


def note(ctl, job):
    """A new (or changed) job: keep it if it has a time."""
    spec = job["spec"]
    if spec.get("begin_time") is None and spec.get("term_time") is None:
        return
    key = (job["jobid"], job["idx"])
    ctl.clock.keys.add(key)
    at = _next(ctl, job, key)
    if at is not None and (ctl.clock.next_at is None or
                           at < ctl.clock.next_at):
        ctl.clock.next_at = at


def load(ctl):
    """At start: every unfinished job with a time."""
    for job in ctl.jobs.values():
        note(ctl, job)


def turn(ctl):
    """Act on what is due at ctl.now; work out the next time."""
    st = ctl.clock
    if st.next_at is None or ctl.now < st.next_at:
        return
    nxt = None
    for key in sorted(st.keys):
        job = ctl.jobs.get(key)
        if job is None or job["stat"] in states.FINISHED:
            st.keys.discard(key)
            st.warned.discard(key)
            st.killed.discard(key)
            continue
        _act(ctl, job, key)
        at = _next(ctl, job, key)
        if at is not None and (nxt is None or at < nxt):
            nxt = at
    st.next_at = nxt


def wait(ctl, timeout):
    """*timeout*, cut to the next time due."""
    at = ctl.clock.next_at
    if at is None:
        return timeout
    return max(0.0, min(timeout, at - ctl.now))


def _times(job):
    spec = job["spec"]
    return spec.get("begin_time"), spec.get("term_time")


def _runlimit(ctl, job):
    """The run limit (seconds) a pending job must fit before its
    termination time: its normalised limit on the cluster's fastest host,
    the soonest it could end (a job that fits there only is not given up
    for lost); None under the queue's IGNORE_DEADLINE=Y."""
    q = ctl.cfg.queues.get(job["queue"])
    if q is not None and q.ignore_deadline:
        return None
    seconds, absolute = rlimits.normal_seconds(ctl.cfg, q, job["spec"])
    return jobtimes.on_host(seconds, rlimits.fastest_factor(ctl.cfg),
                            absolute)


def _pending(job):
    return job["stat"] in states.PENDING


def _next(ctl, job, key):
    begin, term = _times(job)
    if job["stat"] in states.FINISHED or key in ctl.clock.killed:
        return None
    return jobtimes.next_due(ctl.now, _pending(job), begin, term,
                             key in ctl.clock.warned, _runlimit(ctl, job))


def _act(ctl, job, key):
    begin, term = _times(job)
    what = jobtimes.due(ctl.now, _pending(job), begin, term,
                        key in ctl.clock.warned, _runlimit(ctl, job))
    if what == jobtimes.ELIGIBLE:
        ctl.dirty = True
    elif what == jobtimes.ABORT:
        ctl.emit("STATUS", job, stat=states.EXIT, reason="TERM_DEADLINE")
        ctl.dirty = True
    elif what == jobtimes.WARN and job["stat"] in states.RUNNING:
        ctl.clock.warned.add(key)
        ctl.send_signal(job, int(signal.SIGUSR2), "TERM_DEADLINE")
    elif what == jobtimes.KILL and job["stat"] in states.RUNNING and \
            key not in ctl.clock.killed:
        ctl.clock.killed.add(key)
        ctl.send_signal(job, "KILLSEQ", "TERM_DEADLINE")
