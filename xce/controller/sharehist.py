"""The fairshare use of finished jobs (their run time, counted with
ENABLE_HIST_RUN_TIME, and their CPU time), kept after the jobs themselves
leave the controller's unfinished jobs.

Each share account of a fairshare queue, by (queue, user, bsub -G group),
keeps its finished jobs' hours as they stood at one moment; both decay
as LSF's do, to a tenth after HIST_HOURS, so the sum is brought forward
to `now` whenever it is added to or read.  noted() runs after every job
event (schedpass.noted), in the controller and in `xce sim` alike; at a
controller start, load() reads the finished jobs the store still holds.
"""

from xce.controller import limitconf
from xce.model import fairshare, states


class State:
    def __init__(self):
        # (queue, user, group) -> [hist hours, CPU hours, as of when]
        self.acc = {}


def _hist_hours(ctl, queue):
    """The queue's fairshare policy's HIST_HOURS, or None: no fairshare."""
    q = ctl.cfg.queues.get(queue)
    policy = limitconf.policy(ctl.cfg, q) if q is not None else None
    return policy.factors.hist_hours if policy is not None else None


def _add(ctl, job, now):
    hist_hours = _hist_hours(ctl, job["queue"])
    if hist_hours is None:
        return
    use = fairshare.job_usage(job["stat"], job.get("start_time"),
                              job.get("end_time"), job["nslots"],
                              job.get("cpu_time"), now, hist_hours)
    if use is None:
        return
    key = (job["queue"], job["user"],
           fairshare.account_group(job.get("spec")))
    acc = ctl.passes.history.acc
    old = acc.get(key)
    if old is not None:
        weight = fairshare.decay(now - old[2], hist_hours)
        use = fairshare.Usage(0.0, use.hist_hours + old[0] * weight,
                              use.cpu_hours + old[1] * weight)
    acc[key] = [use.hist_hours, use.cpu_hours, now]


def noted(ctl, job, was_unfinished):
    """After an event: a job that just finished adds its hours."""
    if was_unfinished and job["stat"] in states.FINISHED:
        _add(ctl, job, ctl.now)


def load(ctl):
    """At start-up: the hours of the finished jobs the store holds, as
    far back as they still count (fairshare.history_since) in the queue
    with the longest HIST_HOURS."""
    hours = [h for h in (_hist_hours(ctl, name) for name in ctl.cfg.queues)
             if h is not None]
    if not hours:
        return
    since = None if 0 in hours else \
        fairshare.history_since(ctl.now, max(hours))
    for job in ctl.store.finished_jobs(since):
        _add(ctl, job, ctl.now)


def charge(ctl, queues):
    """Add each fairshare queue's finished jobs' hours, decayed to now,
    to its view's use (fair_usage, by (user, group))."""
    for (queue, user, group), (hist, cpu, at) in \
            ctl.passes.history.acc.items():
        qv = queues.get(queue)
        if qv is None or qv.fairshare is None:
            continue
        weight = fairshare.decay(ctl.now - at,
                                 qv.fairshare.factors.hist_hours)
        key = (user, group)
        qv.fair_usage[key] = fairshare.add(
            qv.fair_usage.get(key, fairshare.NO_USAGE),
            fairshare.Usage(0.0, hist * weight, cpu * weight))
