"""A job's times: bsub -b (begin), -t (termination) and the run-time
estimate (bsub -We, queue ESTIMATED_RUNTIME).

LSF's rules, as pure functions of the job's times and ``now`` so that the
controller and the simulator decide alike:

- a job with a begin time is not dispatched before it (pend reason
  R_BEGIN_TIME);
- a pending job whose termination time has come is ended without running
  (mbatchd's "Job termination deadline reached"), and so is one whose run
  limit would take it past its termination time if it started now (unless
  the queue has IGNORE_DEADLINE=Y: then the caller gives no run limit);
- a running job is sent SIGUSR2 at its termination time and killed
  WARN_TIME later if it still runs; it ends with TERM_DEADLINE;
- reservation and backfill take a job's duration from its run limit, or
  from its estimate when it has one (an estimate is not enforced: a job
  that outruns it goes on running);
- both are normalised times, as LSF has them: the job's seconds on a host
  of CPU factor 1.0 (the given time times its normalising host's factor),
  which on a candidate host take that over the host's CPU factor -- unless
  ABS_RUNLIMIT=Y makes them wall-clock (on_host).
"""

# LSF: "is killed if it does not terminate within ten minutes".
WARN_TIME = 600.0

NOTHING, ELIGIBLE, ABORT, WARN, KILL = (None, "eligible", "abort", "warn",
                                        "kill")


def waiting(job, now):
    """Does the pending job wait for its begin time?"""
    return job.begin_time is not None and (now is None or
                                           now < job.begin_time)


def expected(runlimit, estimate):
    """Seconds a job is expected to run (None: unknown, no end): the
    estimate, never beyond the run limit; else the run limit."""
    if estimate and runlimit:
        return min(estimate, runlimit)
    return estimate or runlimit or None


def on_host(seconds, factor, absolute=False):
    """Wall-clock seconds on a host of CPU *factor* of a normalised time
    (*seconds* on a host of factor 1.0); *absolute* (ABS_RUNLIMIT=Y):
    *seconds* are wall-clock already.  None stays None."""
    if not seconds or absolute or not factor:
        return seconds or None
    return seconds / factor


def duration(job, factor):
    """Seconds the job (a views.PendingJob) is expected to run on a host
    of CPU *factor*: expected() of its normalised run limit and estimate
    there; None: unknown."""
    return expected(on_host(job.runlimit, factor, job.abs_runlimit),
                    on_host(job.estimate, factor, job.abs_runlimit))


def due(now, pending, begin, term, warned, runlimit=None):
    """What a job's times ask for at *now*: NOTHING, ELIGIBLE (its begin
    time came: schedule), ABORT (pending at its termination time, or too
    late to run for its *runlimit* seconds before it), WARN (running at
    its termination time: SIGUSR2) or KILL (WARN_TIME after).  *warned*:
    the job was sent its SIGUSR2 already."""
    if pending and term is not None and runlimit and now + runlimit > term:
        return ABORT
    if term is not None and now >= term:
        if pending:
            return ABORT
        if now >= term + WARN_TIME:
            return KILL
        return NOTHING if warned else WARN
    if pending and begin is not None and now >= begin:
        return ELIGIBLE
    return NOTHING


def next_due(now, pending, begin, term, warned, runlimit=None):
    """The next time at which due() gives something new; None: never."""
    times = []
    if pending:
        if begin is not None and begin > now:
            times.append(begin)
        if term is not None:
            # due() aborts once now + runlimit passes term: just after.
            times.append(term - runlimit + 1e-3 if runlimit else term)
    elif term is not None:
        times.append(term + WARN_TIME if warned or now >= term else term)
    later = [t for t in times if t > now]
    return min(later) if later else (min(times) if times else None)
