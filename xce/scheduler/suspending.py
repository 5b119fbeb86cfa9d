"""Which running jobs the system suspends (SSUSP) and resumes, by the
queues' run windows and the load thresholds of hosts and queues: LSF's
rules as one pure function, which the controller and the simulator call
with their own clocks and loads.

- A running job whose queue's RUN_WINDOW is closed is suspended; it is
  resumed when the window opens (and its hosts' loads allow it).
- On a host whose load is beyond a stopping threshold (loadStop) of the
  host or of a job's queue, one job is suspended per look: the most
  recently started job of the lowest-priority queue concerned.  LSF does
  not suspend the only batch job of a host that nobody uses
  interactively (idle time ``it`` above 0).
- A job suspended by load is resumed once the load of each of its hosts
  is within the scheduling thresholds (loadSched) of the host and of its
  queue; one job per host per look, highest queue priority first.
- A job suspended by the paging rate (pg) is resumed only once each of
  its hosts has also been idle (no interactive use, ``it``) for
  PG_SUSP_IT seconds (LSF's default 180), so that it does not go on
  being stopped and started by the paging it causes itself.
- A queue's STOP_COND, when set, is used instead of its loadStop
  thresholds (a job is suspended when it is true of a host's load), and
  its RESUME_COND instead of its loadSched thresholds (resumed when true).
- A job its user resumed (bresume of a USUSP job: SSUSP, USER_RESUME) is
  resumed as a job suspended by load is: when its run window is open and
  its hosts' loads are within loadSched (or RESUME_COND holds), one job
  per host per look.  While its queue's run window is closed it is held
  by the window, as a job the window suspended is (LSF's reason is the
  run window's then, not the user's resumption): it is stopped already,
  so only its reason changes.
"""

from dataclasses import dataclass, field

from xce.lang import loadthresh
from xce.model.suspreasons import USER_RESUME

WINDOW = "WINDOW"           # suspended: the queue's run window closed
LOAD = "LOAD"               # "LOAD:<index>": a host's load beyond loadStop
STOP_COND = "STOP_COND"     # "LOAD:STOP_COND": the queue's STOP_COND held
DEFAULT_PG_SUSP_IT = 180.0  # seconds (lsb.params PG_SUSP_IT)


@dataclass
class Running:
    key: tuple
    queue: str
    hosts: list                 # execution hosts, one per slot
    suspended: str = None       # None (RUN), or why the system suspended it
    start_time: float = 0.0


@dataclass
class Situation:
    """What the decision reads: per queue its priority, whether its run
    window is open and its thresholds; per host its load and thresholds."""
    queue_priority: dict = field(default_factory=dict)
    run_open: dict = field(default_factory=dict)        # queue -> bool
    queue_thresholds: dict = field(default_factory=dict)
    host_load: dict = field(default_factory=dict)       # host -> indices
    host_thresholds: dict = field(default_factory=dict)
    # queue -> its STOP_COND / RESUME_COND (a compiled select: .matches)
    stop_cond: dict = field(default_factory=dict)
    resume_cond: dict = field(default_factory=dict)
    # PG_SUSP_IT: seconds a host must be idle before a job suspended by
    # its paging rate resumes
    pg_susp_it: float = DEFAULT_PG_SUSP_IT


def load_reason(index):
    return f"{LOAD}:{index}"


def reason_index(reason):
    """The load index of a LOAD reason, else None."""
    if reason and reason.startswith(LOAD + ":"):
        return reason.split(":", 1)[1]
    return None


def decide(jobs, sit):
    """([(key, reason)] to suspend, [key] to resume) for *jobs*
    (Running) in situation *sit*.  A job its user resumed that its
    closed run window holds is among those to suspend (WINDOW): the
    caller gives it that reason, it is stopped already."""
    suspend, resume = [], []
    running = [j for j in jobs if j.suspended is None]
    for job in jobs:
        if (job.suspended is None or job.suspended == USER_RESUME) and \
                not sit.run_open.get(job.queue, True):
            suspend.append((job.key, WINDOW))
    taken = {key for key, _ in suspend}
    suspend += _by_load([j for j in running if j.key not in taken], sit)
    resume = _resumable([j for j in jobs if j.suspended is not None], sit)
    return suspend, resume


def _stop_index(job, host, sit):
    load = sit.host_load.get(host)
    index = loadthresh.beyond(sit.host_thresholds.get(host), load,
                              loadthresh.STOP)
    if index is not None:
        return index
    cond = sit.stop_cond.get(job.queue)
    if cond is not None:
        return STOP_COND if load and cond.matches(load) else None
    return loadthresh.beyond(sit.queue_thresholds.get(job.queue), load,
                             loadthresh.STOP)


def _by_load(running, sit):
    per_host = {}
    for job in running:
        for host in dict.fromkeys(job.hosts):
            per_host.setdefault(host, []).append(job)
    out, done = [], set()
    for host in sorted(per_host):
        on_host = per_host[host]
        over = [(j, _stop_index(j, host, sit)) for j in on_host
                if j.key not in done]
        over = [(j, idx) for j, idx in over if idx is not None]
        if not over:
            continue
        if len(on_host) == 1 and \
                (sit.host_load.get(host) or {}).get("it", 0) > 0:
            continue        # LSF leaves a lone job of an idle host alone
        job, index = min(over, key=lambda p: (
            sit.queue_priority.get(p[0].queue, 0), -p[0].start_time,
            p[0].key))
        done.add(job.key)
        out.append((job.key, load_reason(index)))
    return out


def _sched_ok(job, host, sit):
    load = sit.host_load.get(host)
    if loadthresh.beyond(sit.host_thresholds.get(host), load) is not None:
        return False
    cond = sit.resume_cond.get(job.queue)
    if cond is not None:
        return bool(load) and cond.matches(load)
    return loadthresh.beyond(sit.queue_thresholds.get(job.queue),
                             load) is None


def _resumable(suspended, sit):
    out, hosts_used = [], set()
    ranked = sorted(suspended, key=lambda j: (
        -sit.queue_priority.get(j.queue, 0), j.start_time, j.key))
    for job in ranked:
        if not sit.run_open.get(job.queue, True):
            continue
        hosts = list(dict.fromkeys(job.hosts))
        if not all(_sched_ok(job, h, sit) for h in hosts):
            continue
        if reason_index(job.suspended) == "pg" and \
                not all(_idle_for(h, sit.pg_susp_it, sit) for h in hosts):
            continue
        if job.suspended != WINDOW and hosts_used.intersection(hosts):
            continue        # one load resumption per host per look
        hosts_used.update(hosts)
        out.append(job.key)
    return out


def _idle_for(host, seconds, sit):
    """Has *host* had no interactive use for *seconds* (``it`` is in
    minutes)?"""
    idle = (sit.host_load.get(host) or {}).get("it")
    try:
        return float(idle) * 60.0 >= seconds
    except (TypeError, ValueError):
        return seconds <= 0
