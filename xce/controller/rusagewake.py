"""A scheduling pass when what running jobs reserve by rusage[] shrinks
with time, not by an event: a term's duration ends, or a decaying term
(``decay=1``) has freed another whole unit (a licence token, a MB).

Nothing else would start a pass then (no job ended, no request came), so
a job waiting for those tokens would wait for the next load report.
After each pass (schedpass.settle) the earliest such time is worked out
from the running jobs' claims (what each started with, and when); the
live controller sleeps no longer than until then and the simulator
pushes a wake-up for it, and turn() makes the pass due.  Decay steps,
like load reports, start a pass at most every XCE_LOAD_PASS_INTERVAL
seconds (a decaying mem reservation frees a MB every few seconds); a
duration's end is waited for exactly.
"""

import math

from xce.model import states

# Passes driven by what changes gradually (load reports, decaying
# reservations) come at most every XCE_LOAD_PASS_INTERVAL seconds (every
# agent reports every 15 s, an elim's resource every INTERVAL).
LOAD_PASS_PARAM = "XCE_LOAD_PASS_INTERVAL"
LOAD_PASS_EVERY = 5.0   # its default


def load_pass_every(params):
    """The least time between two passes driven by gradual change, in
    seconds.  The configuration loader has checked the parameter's
    range (config/ranges.py)."""
    value = params.get(LOAD_PASS_PARAM)
    if value is None or str(value).strip() in ("", "-"):
        return LOAD_PASS_EVERY
    return float(value)


def after_pass(ctl):
    """The next time a running job's reservation shrinks, for turn()."""
    gap = load_pass_every(ctl.cfg.params)
    best = None
    for c in ctl.claims.by_id.values():
        job = ctl.jobs.get(c["job"]) if c["job"] is not None else None
        if job is None or job["stat"] not in states.RUNNING or \
                job["start_time"] is None or not c["parts"]:
            continue
        for _, amount, duration, decay in next(iter(c["parts"].values()))[1]:
            at = frees_at(job["start_time"], amount, duration, decay,
                          ctl.now, gap)
            if at is not None and (best is None or at < best):
                best = at
    ctl.passes.rusage_next = best


def frees_at(start, amount, duration, decay, now, gap):
    """When a term held since *start* next frees something after *now*:
    the end of its duration, or (decaying) the first time, *gap* or more
    after *now*, its amount falls to a whole number below; None when it
    frees nothing more."""
    if not duration or amount <= 0:
        return None
    end = start + duration
    if now >= end:
        return None
    after = now + gap
    if not decay or after >= end:
        return end
    # What it holds at t: amount * (end - t) / duration.
    whole = math.ceil(amount * (end - after) / duration) - 1
    return end - whole * duration / amount if whole > 0 else end


def turn(ctl):
    """A pass is due: a reservation has shrunk."""
    at = ctl.passes.rusage_next
    if at is not None and ctl.now >= at:
        ctl.passes.rusage_next = None
        ctl.dirty = True


def wait(ctl, timeout):
    """*timeout*, cut to the next time a reservation shrinks."""
    at = ctl.passes.rusage_next
    return timeout if at is None else max(0.0, min(timeout, at - ctl.now))
