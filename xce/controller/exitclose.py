"""Host exceptions: a host whose jobs exit faster than its EXIT_RATE
(else GLOBAL_EXIT_RATE) over JOB_EXIT_RATE_DURATION is closed as LSF's
default eadmin closes it: ``badmin hclose`` by the primary administrator
with the comment "eadmin: JOB EXIT THRESHOLD EXCEEDED" -- closed_Adm in
bhosts, the comment in bhosts -l, a HOST_CTRL record in lsb.events --
until ``badmin hopen``.  xce runs no eadmin script: that default action is
what it does (xce.yaml(5)).

The exit times counted are those of the jobs' EXIT records, so a
controller restart finds them again in the store (``load``); the rule of
what counts is xce.model.exitrate.
"""

import logging
from dataclasses import dataclass, field

from xce.model import exitrate

log = logging.getLogger("xce.controller")


@dataclass
class State:
    times: dict = field(default_factory=dict)   # host -> exit times


def _limits(ctl, host):
    """(threshold, span) of *host*, or None when it has no threshold."""
    h = ctl.hosts.get(host)
    if h is None:
        return None
    limit = exitrate.threshold(h["conf"].raw, ctl.cfg.params)
    return None if limit is None else (limit, exitrate.window(ctl.cfg.params))


def load(ctl):
    """The counted exits still inside the window, from the store."""
    span = exitrate.window(ctl.cfg.params)
    st = ctl.exit_rates = State()
    for hosts, end, reason in ctl.store.exits_since(ctl.now - span):
        host = exitrate.host_of(hosts)
        if host and exitrate.counts("EXIT", reason):
            st.times.setdefault(host, []).append(end)


def note_finish(ctl, job, stat, reason):
    """A job ended *stat* for *reason*: count it on its host, and close the
    host when its rate is now above its threshold."""
    found = over_threshold(ctl, job, stat, reason)
    if found is not None:
        close(ctl, *found)


def over_threshold(ctl, job, stat, reason):
    """Count the end of *job* on its host; (host, rate, threshold) when
    that takes the host's rate above its threshold, else None.  The
    controller and the simulator (xce.sim.engine) decide by it."""
    host = exitrate.host_of(job.get("exec_hosts"))
    if not host or not exitrate.counts(stat, reason):
        return None
    found = _limits(ctl, host)
    if found is None:
        return None
    limit, span = found
    st = ctl.exit_rates
    times = [t for t in st.times.get(host, ()) if t > ctl.now - span]
    times.append(ctl.now)
    st.times[host] = times
    if ctl.hosts[host]["adm_closed"] or \
            not exitrate.exceeded(times, ctl.now, span, limit):
        return None
    return host, exitrate.rate(times, ctl.now, span), limit


def mark_closed(ctl, host):
    """The host's state as LSF's default eadmin leaves it: closed_Adm with
    its comment, and a pass due."""
    h = ctl.hosts[host]
    h["adm_closed"] = True
    h["adm_comment"] = exitrate.CLOSE_COMMENT
    ctl.dirty = True


def close(ctl, host, rate, limit):
    # Here, not at the top: the simulator imports this module for the rule
    # above and must not load the controller's configuration and agent code.
    from xce.controller import configure
    mark_closed(ctl, host)
    by = ctl.cfg.admins[0] if ctl.cfg.admins else "root"
    ctl.store.event(ctl.now, "HOST_CTRL", host=host, op="hclose", by=by,
                    comment=exitrate.CLOSE_COMMENT)
    configure.save_host(ctl, host)
    log.warning("host %s closed: %.2f jobs exited per minute, above its "
                "EXIT_RATE %g", host, rate, limit)
