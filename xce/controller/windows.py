"""Time windows and load thresholds in the controller (and the simulator,
which calls the same functions with its virtual clock).

- A queue whose DISPATCH_WINDOW or RUN_WINDOW is closed dispatches
  nothing (bqueues: ``Inact_Win``; pend reason "The queue is inactivated
  by its time windows").
- A host out of its DISPATCH_WINDOW is ``closed_Wind``; one whose load
  is beyond a scheduling threshold (lsb.hosts loadSched) ``closed_Busy``;
  a queue's own thresholds keep its jobs off a host too (host_status,
  and xce.scheduler.hostfit for the queue's).
- Running jobs are suspended and resumed by run windows and stopping
  thresholds (xce.scheduler.suspending decides; here it is carried out
  like preemption: an SSUSP or RUN status event, then SIGSTOP or SIGCONT).

The controller wakes up when a window opens or closes (``wait``), not by
polling; loads are looked at when an agent reports them.
"""

from dataclasses import dataclass, field

from xce.config import queuetime
from xce.controller import jobactions, limitconf
from xce.lang import jobcontrols, loadthresh, timewindow
from xce.model import states
from xce.model.suspreasons import USER_RESUME
from xce.scheduler import suspending


@dataclass
class State:
    """What lasts between turns (``ctl.windows``)."""
    next_at: float = None       # the next open or close of any window
    epoch: int = None           # the configuration next_at was worked from
    used: bool = False          # some window or threshold is configured
    # Jobs sent the TERMINATE action by TERMINATE_WHEN (until they end).
    terminating: set = field(default_factory=set)
    # host -> keys of the started jobs (RUN, SSUSP) there, so that a look
    # costs per host with jobs, not per unfinished job; built from
    # ctl.jobs at the first look (after a start), then kept by ``noted``.
    on_host: dict = None
    hosts_of: dict = field(default_factory=dict)    # key -> its hosts
    # key -> the queue of a started job, so that a job switched (bswitch)
    # to a queue whose run window is closed or whose thresholds its host
    # is beyond is looked at then, not at the next load report.
    queue_of: dict = field(default_factory=dict)
    # A job started or left a host since the last look: look again (a
    # new job may be the one a stopping condition suspends).
    changed: bool = False
    # key -> when its user resumed it (bresume of a USUSP job: SSUSP,
    # USER_RESUME): the system resumes it at a later look, not in the
    # turn of the bresume, so that bjobs shows it SSUSP in between.
    resumed: dict = field(default_factory=dict)


def queue_open(ctl, q):
    """Are the queue's dispatch and run windows open at ctl.now?"""
    return timewindow.is_open(q.dispatch_window, ctl.now) and \
        timewindow.is_open(q.run_window, ctl.now)


def host_closed(ctl, hc, facts):
    """(closed_Wind or closed_Busy, the index beyond its threshold or
    None) of a host that is up; (None, None) when neither applies."""
    if not timewindow.is_open(hc.dispatch_window, ctl.now):
        return states.HOST_CLOSED_WIND, None
    index = loadthresh.beyond(hc.thresholds, facts.get("load"))
    if index is not None:
        return states.HOST_CLOSED_BUSY, index
    return None, None


def turn(ctl):
    """At a window's opening or closing, or after a load report: schedule
    again, and suspend or resume what the windows and loads ask for."""
    st = ctl.windows
    if st.epoch != ctl.view_epoch:
        st.epoch = ctl.view_epoch
        st.used = _used(ctl.cfg)
        st.next_at = _next_change(ctl)
        due = True
    else:
        due = st.next_at is not None and ctl.now >= st.next_at
        if due:
            st.next_at = _next_change(ctl)
            ctl.dirty = True
    if due:
        # Time-based queue values (PRIORITY = [60 8:00-18:00] [20 ()]):
        # the one in force from now, shown by bqueues.  configure is
        # imported here: it imports the pass, which imports this module.
        changed = queuetime.apply(ctl.cfg, ctl.now)
        if changed:
            from xce.controller import configure
            for name in changed:
                configure.save_queue(ctl, name)
    # A bresume or a reconfig may have woken a job its window keeps
    # stopped: looked at whenever something changed (ctl.dirty) too.
    # A reconfig that lifts the last threshold or run window still frees
    # the jobs they held: every due look enforces.
    if due or st.used and (ctl.dirty or st.changed or
                           getattr(ctl, "load_changed", False)) or \
            any(at < ctl.now for at in st.resumed.values()):
        enforce(ctl)


def wait(ctl, timeout):
    """*timeout*, cut to the next opening or closing of a window."""
    at = ctl.windows.next_at
    if at is None:
        return timeout
    return max(0.0, min(timeout, at - ctl.now))


def _used(cfg):
    return any(q.run_window is not None or q.thresholds or q.stop_cond or
               q.resume_cond for q in cfg.queues.values()) or \
        any(hc.thresholds for hc in cfg.hosts.values())


def _next_change(ctl):
    times = [timewindow.next_change(w, ctl.now) for w in _windows(ctl.cfg)]
    times = [t for t in times if t is not None]
    return min(times) if times else None


def _windows(cfg):
    for q in cfg.queues.values():
        yield q.dispatch_window
        yield q.run_window
    for hc in cfg.hosts.values():
        yield hc.dispatch_window
    # lsb.resources values such as SLOTS = [200 8:00-18:00] [400 18:00-8:00]
    yield from limitconf.time_windows(cfg)
    yield from queuetime.windows(cfg)


def situation(ctl):
    """What xce.scheduler.suspending decides from, at ctl.now."""
    sit = suspending.Situation()
    pg_susp_it = ctl.cfg.params.get("PG_SUSP_IT")
    if pg_susp_it is not None:      # a whole number (config.ranges)
        sit.pg_susp_it = float(pg_susp_it)
    for name, q in ctl.cfg.queues.items():
        sit.queue_priority[name] = q.priority
        sit.run_open[name] = timewindow.is_open(q.run_window, ctl.now)
        if q.thresholds:
            sit.queue_thresholds[name] = q.thresholds
        unit = ctl.cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB")
        for cond, found in ((q.stop_cond, sit.stop_cond),
                            (q.resume_cond, sit.resume_cond)):
            if cond:
                found[name] = jobcontrols.condition(cond, unit)
    for name, h in ctl.hosts.items():
        sit.host_load[name] = h["facts"].get("load") or {}
        if h["conf"].thresholds:
            sit.host_thresholds[name] = h["conf"].thresholds
    return sit


def _running(ctl):
    out = []
    for key in _started(ctl):
        job = ctl.jobs.get(key)
        if job is None or key in ctl.windows.terminating:
            continue
        why = held(job)
        if ctl.windows.resumed.get(key) == ctl.now:
            continue        # resumed by its user in this very turn
        if job["stat"] == states.RUN or (job["stat"] == states.SSUSP and
                                         why is not None):
            out.append(suspending.Running(
                key, job["queue"], (job["exec_hosts"] or "").split(),
                why if job["stat"] == states.SSUSP else None,
                job["start_time"] or 0.0))
    return out


def _started(ctl):
    """Keys of the started jobs, host by host (each once)."""
    st = ctl.windows
    if st.on_host is None:
        st.on_host, st.hosts_of, st.queue_of = {}, {}, {}
        for job in ctl.jobs.values():
            noted(ctl, job)
    seen = set()
    for keys in st.on_host.values():
        for key in keys:
            if key not in seen:
                seen.add(key)
                yield key


def noted(ctl, job):
    """Keep the per-host index of started jobs after an event."""
    jobactions.noted(ctl, job)
    st = ctl.windows
    key = (job["jobid"], job["idx"])
    if job["stat"] == states.SSUSP and held(job) == USER_RESUME:
        # bresume made it SSUSP (or its host came back): looked at from
        # the next turn on, which comes at most RESCAN seconds later.
        st.resumed.setdefault(key, ctl.now)
    else:
        st.resumed.pop(key, None)
    if st.on_host is None:
        return          # built at the first look
    was = st.hosts_of.pop(key, ())
    was_queue = st.queue_of.pop(key, None)
    for host in was:
        keys = st.on_host.get(host)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del st.on_host[host]
    if job["stat"] in (states.RUN, states.SSUSP) and job.get("exec_hosts"):
        hosts = tuple(dict.fromkeys(job["exec_hosts"].split()))
        st.hosts_of[key] = hosts
        st.queue_of[key] = job["queue"]
        for host in hosts:
            st.on_host.setdefault(host, set()).add(key)
    if was != st.hosts_of.get(key, ()) or \
            was_queue != st.queue_of.get(key):
        st.changed = True


def held(job):
    """Why the system suspended *job* (a suspending reason), or None."""
    return (job.get("spec") or {}).get("sys_susp")


def enforce(ctl):
    """Suspend and resume as the run windows and loads ask, with the
    job's queue's JOB_CONTROLS (TERMINATE_WHEN ends it instead)."""
    ctl.windows.changed = False
    stop, cont = suspending.decide(_running(ctl), situation(ctl))
    for key, why in stop:
        job = ctl.jobs[key]
        if job["stat"] == states.SSUSP:
            # Resumed by its user, held by its closed run window: stopped
            # already, it is the window's now (LSF's reason).
            ctl.emit("STATUS", job, stat=states.SSUSP, reason=why)
            continue
        jobactions.suspend(ctl, job, "WINDOW" if why == suspending.WINDOW
                           else "LOAD", why)
    for key in cont:
        job = ctl.jobs[key]
        jobactions.resume(ctl, job, reason=held(job))
