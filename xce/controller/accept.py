"""JOB_ACCEPT_INTERVAL (lsb.params; a queue's own value wins for its jobs):
after a host is given a job, LSF dispatches no other job there for that
many MBD_SLEEP_TIME periods, and such a host is shown to the jobs that
wait as "Just started a job recently".  0, xce's default, lets a host take
several jobs in one pass.

The pure scheduler decides (a host's HostView.accepted_at against the
queue's QueueView.accept_interval, a job placed in the pass counting at
once); this module keeps, between passes, when each host was last given
a job -- found again at a controller restart from the start times the
jobs record, so that a restart does not let a host take more jobs at
once than configured -- and wakes the controller -- and the simulator's clock -- when the
earliest wait that holds a pending job back is over, since nothing else
changes then.  Shared by the live controller and xce sim through
schedpass and dispatch.snapshot.
"""

from dataclasses import dataclass, field

from xce.config.model import MBD_SLEEP_TIME


@dataclass
class State:
    # host -> when it was last given a job (only while a wait can run)
    at: dict = field(default_factory=dict)
    next_at: float = None       # the earliest wait still running ends


def interval(cfg, q):
    """Seconds queue config *q*'s jobs keep off a host after it was given
    a job: its JOB_ACCEPT_INTERVAL, else lsb.params's, times
    MBD_SLEEP_TIME (0: no wait)."""
    periods = q.raw.get("JOB_ACCEPT_INTERVAL") if q is not None else None
    if periods is None:
        periods = cfg.params.get("JOB_ACCEPT_INTERVAL")
    try:
        periods = int(periods or 0)
    except (TypeError, ValueError):
        return 0        # the loader refused it; nothing to wait for
    return max(periods, 0) * cfg.param_int("MBD_SLEEP_TIME", MBD_SLEEP_TIME)


def _intervals(cfg):
    """The distinct non-zero waits of the queues (few)."""
    return {s for s in (interval(cfg, q) for q in cfg.queues.values()) if s}


def started(ctl, placement):
    """A job was dispatched to the hosts of *placement* now."""
    if _intervals(ctl.cfg):
        for name in set(placement):
            ctl.passes.accepted.at[name] = ctl.now


def load(ctl):
    """At start-up: when each host was last given a job, from the start
    times of the jobs (finished or not) within the longest interval; the
    waits still running go on."""
    longest = max(_intervals(ctl.cfg), default=0)
    if not longest:
        return
    at = ctl.passes.accepted.at
    for hosts, start in ctl.store.starts_since(ctl.now - longest):
        for name in set((hosts or "").split()):
            if start > at.get(name, start - 1):
                at[name] = start
    after_pass(ctl)


def after_pass(ctl):
    """Forget waits that are over, and note when the next one ends (the
    controller and the simulator run a pass then)."""
    st = ctl.passes.accepted
    waits = _intervals(ctl.cfg)
    longest = max(waits, default=0)
    st.at = {name: at for name, at in st.at.items()
             if ctl.now < at + longest}
    ends = [at + w for at in st.at.values() for w in waits
            if at + w > ctl.now]
    st.next_at = min(ends) if ends else None


def turn(ctl):
    """A pass is due: a wait is over."""
    st = ctl.passes.accepted
    if st.next_at is not None and ctl.now >= st.next_at:
        st.next_at = None
        ctl.dirty = True


def wait(ctl, timeout):
    """*timeout*, cut to the end of the next wait."""
    at = ctl.passes.accepted.next_at
    if at is None:
        return timeout
    return max(0.0, min(timeout, at - ctl.now))
