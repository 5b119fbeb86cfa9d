"""Host loss: the jobs of a host whose agent is gone.

When the controller loses a host's agent, the jobs started there go UNKWN:
nobody knows whether they still run.  The spec of each keeps where it came
from and since when (``spec["unkwn"]``, written by apply), so a restarted
controller still knows both.  If the host answers again within the grace
period (``XCE_HOST_LOST_GRACE`` seconds), the agent's hello puts every job
back in its true state.  Once the grace period is over, a rerunnable job
(``bsub -r``, or queue ``RERUNNABLE: yes`` without ``bsub -rn``) goes back to
PEND, and its next dispatch is a new attempt; a copy that later reappears
on the host carries the old attempt number and is killed at the hello
(reconcile's fencing).  Any other job stays UNKWN, as in LSF, for as long
as its host is lost: when the host answers again the job is whatever its
agent says (still running, or finished with its real exit status); a job
its returned agent does not know ends EXIT with LSF's ``TERM_ZOMBIE`` (a
rerunnable one is requeued instead); ``bkill -r`` ends it at once.

A job killed with bkill while UNKWN goes ZOMBI, as in LSF: it is killed as
soon as its host answers again, and its exit report ends it; ``bkill -r``
ends it at once (EXIT).  A ZOMBI job waits for its host, past the grace
period too.
"""

import json
import logging
from dataclasses import dataclass, field

from xce.controller import agentctl, dispatch, gangs
from xce.controller.apply import PREEMPTED
from xce.model import states, suspreasons

log = logging.getLogger("xce.controller")

GRACE_PARAM = "XCE_HOST_LOST_GRACE"
GRACE_DEFAULT = 300         # seconds; LSF users expect minutes, not seconds
CHECK_EVERY = 1.0           # seconds between looks at the UNKWN jobs
# After a controller start, a host not heard from in this long (or in the
# grace period, if shorter) is lost: its running jobs go UNKWN.
HELLO_WAIT = 30.0
REQUEUED = "Requeued job is waiting for rescheduling"
LOST_REASON = "TERM_ZOMBIE"
ZOMBIE_GONE = "TERM_ZOMBIE"     # a ZOMBI job its returned host never knew
_LIVE = (states.RUN, states.USUSP, states.SSUSP)


def grace(ctl):
    return max(0, ctl.cfg.param_int(GRACE_PARAM, GRACE_DEFAULT))


def first_host(job):
    hosts = (job["exec_hosts"] or "").split()
    return hosts[0] if hosts else None


@dataclass
class State:
    """What host loss keeps on the controller (``ctl.lost_hosts``)."""
    next_check: float = 0.0     # no look before this time
    since: float = None         # the first look: counted as the start
    marked: set = field(default_factory=set)    # hosts whose jobs went UNKWN
    # The keys of the jobs that may be UNKWN, so that a look costs what is
    # lost, not what the cluster runs: None until the first look fills it
    # from every job.
    unknown: set = None


def _state(ctl, now):
    st = ctl.lost_hosts
    if st.unknown is None:
        st.since = now
        st.unknown = {k for k, j in ctl.jobs.items()
                      if j["stat"] == states.UNKWN}
    return st


def mark_unknown(ctl, name):
    """NAME's agent is gone: its live jobs go UNKWN, remembering their state."""
    unknown = _state(ctl, ctl.now).unknown
    for key, job in list(ctl.jobs.items()):
        if job["stat"] in _LIVE and first_host(job) == name:
            ctl.emit("STATUS", job, stat=states.UNKWN, was=job["stat"])
            unknown.add(key)


def check(ctl, now):
    """One look, at most every CHECK_EVERY seconds, while a host is lost."""
    st = _state(ctl, now)
    if now < st.next_check:
        return
    st.next_check = now + CHECK_EVERY
    lost = {name for name, h in ctl.hosts.items() if not h.get("seen")}
    # A restarting agent has RESTART_WAIT to come back before its jobs are
    # in doubt (badmin hrestart).
    lost -= {name for name in lost if agentctl.restarting(ctl, name, now)}
    if not lost:
        return
    limit = grace(ctl)
    if now - st.since >= min(limit, HELLO_WAIT):
        # Never heard of since this controller started: lost all along.
        for name in lost - st.marked:
            st.marked.add(name)
            mark_unknown(ctl, name)
    for key in list(st.unknown):
        job = ctl.jobs.get(key)
        if job is None or job["stat"] != states.UNKWN:
            st.unknown.discard(key)         # known again, or over
            continue
        if first_host(job) not in lost:
            continue
        since = (job["spec"].get("unkwn") or {}).get("since")
        if since is None:       # UNKWN without a record: count from now
            ctl.emit("STATUS", job, stat=states.UNKWN, was=states.RUN)
        elif now - since >= limit:
            expire(ctl, job)


def expire(ctl, job):
    """The grace period is over and the host still silent."""
    host = first_host(job)
    if rerunnable(ctl, job):
        log.warning("job %s: host %s lost; requeued", ctl.label(job), host)
        ctl.emit("REQUEUE", job, stat=states.PEND, by="", lost_host=host,
                 reason=json.dumps([[REQUEUED, None]]))
        gangs.sent_back(ctl, job)
    # Not rerunnable: UNKWN until its host answers (unknown_to), as LSF.


def back_from_unknown(job):
    """The STATUS data of an UNKWN job whose host answered and still runs
    it: the state it had, and why it had it, as when it first went there
    (the spec kept them through UNKWN), so that lsb.events gives the same
    reason as bjobs: an administrator's stop, a closed run window, a
    host's load, a preemption."""
    spec = job["spec"] or {}
    was = (spec.get("unkwn") or {}).get("was") or states.RUN
    data = {"stat": was}
    if was == states.USUSP and suspreasons.admin_stopped(spec):
        data[suspreasons.ADMIN_STOP] = True
    elif was == states.SSUSP and spec.get("preempted"):
        data.update(reason=PREEMPTED, by=spec["preempted"].get("by"))
    elif was == states.SSUSP and spec.get("sys_susp"):
        data["reason"] = spec["sys_susp"]
    return data


def unknown_to(ctl, host, known):
    """UNKWN jobs of HOST that its returned agent does not have (*known*:
    the (job, idx, attempt) it reported): nothing runs them any more.  A
    rerunnable job runs again; any other ends EXIT, TERM_ZOMBIE (LSF:
    "job exited while LSF is not available")."""
    for job in list(ctl.jobs.values()):
        if job["stat"] != states.UNKWN or first_host(job) != host or \
                (job["jobid"], job["idx"], job["attempt"]) in known:
            continue
        if rerunnable(ctl, job):
            log.warning("job %s: host %s came back without it; requeued",
                        ctl.label(job), host)
            ctl.emit("REQUEUE", job, stat=states.PEND, by="", lost_host=host,
                     reason=json.dumps([[REQUEUED, None]]))
            gangs.sent_back(ctl, job)
        else:
            log.warning("job %s: host %s came back without it; exited",
                        ctl.label(job), host)
            ctl.emit("STATUS", job, stat=states.EXIT, reason=LOST_REASON,
                     lost_host=host)


def rerunnable(ctl, job):
    """bsub -r / -rn win; else the queue's RERUNNABLE (LSF's default: no).
    An interactive job never runs again: its terminal is gone with it."""
    if job["spec"].get("interactive"):
        return False
    own = job["spec"].get("rerunnable")
    if own is not None:
        return bool(own)
    q = ctl.cfg.queues.get(job["queue"])
    value = (q.raw or {}).get("RERUNNABLE") if q is not None else None
    if isinstance(value, bool):
        return value
    return str(value or "").strip().lower() in ("y", "yes", "true")


def kill_zombie(ctl, host, job):
    """A job killed (ZOMBI) while its host was lost still runs there now
    that the host is back: kill it; its exit report ends it (EXIT)."""
    log.info("job %s: host %s is back; killing the ZOMBI job",
             ctl.label(job), host)
    ctl.send_signal(job, "KILLSEQ", job.get("exit_reason"))


def zombies_unknown_to(ctl, host, known):
    """ZOMBI jobs of HOST that its agent does not have (*known*: the
    (job, idx, attempt) it reported): nothing is left to kill, so they
    end now."""
    for job in list(ctl.jobs.values()):
        if job["stat"] == states.ZOMBI and first_host(job) == host and \
                (job["jobid"], job["idx"], job["attempt"]) not in known:
            ctl.emit("STATUS", job, stat=states.EXIT,
                     reason=job.get("exit_reason") or ZOMBIE_GONE)


def reset_after_hello(ctl, name):
    """NAME answered: should it be lost again, its jobs are marked anew."""
    _state(ctl, ctl.now).marked.discard(name)
    ctl.hosts[name].pop("restart_until", None)


def shown_status(ctl, name):
    """(bhosts status, why) of host NAME.  A host that cannot be used is
    ``unreach`` when its sshd answered (the SSH session, or at least its
    handshake, worked) but its agent did not, and ``unavail`` when nothing
    answered at the SSH level; *why* is the link's last failure."""
    status = dispatch.host_status(ctl, name)
    if status != states.HOST_UNAVAIL:
        return status, None
    link = ctl.links.get(name)
    # Shut down by badmin hshutdown: the host is there, its agent is not.
    if getattr(link, "ssh_reached", False) or agentctl.held(ctl, name):
        status = states.HOST_UNREACH
    return status, getattr(link, "reason", None)
