"""How long a finished job stays known: CLEAN_PERIOD and CLEAN_PERIOD_DONE.

LSF 10.1 (lsb.params): CLEAN_PERIOD is the time finished jobs stay in
mbatchd's memory (default 3600 s); CLEAN_PERIOD_DONE, when defined, is
the time for the successfully finished ones (DONE, whatever their
post-exec status, PDONE included) and CLEAN_PERIOD then applies to EXIT
jobs.  CLEAN_PERIOD_DONE must be less than CLEAN_PERIOD (LSF ignores it
otherwise, with a warning) and is limited to one week.  xce's loader
refuses such a value (``problem``) and the migrator leaves it out, so
that what runs is what LSF would do.

Stdlib only: the controller, the commands and the config loader use it.
"""

DEFAULT = 3600          # CLEAN_PERIOD's default (seconds)
DONE_MAX = 604800       # CLEAN_PERIOD_DONE is limited to one week


def _seconds(value, default):
    if value is None or isinstance(value, bool) or \
            str(value).strip() in ("", "-"):
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        return default


def periods(params):
    """(done, exit): the seconds a DONE and an EXIT job stay known, from
    a mapping of lsb.params values (xce.yaml's parameters, or the
    store's params table).  A CLEAN_PERIOD_DONE that is not less than
    CLEAN_PERIOD is ignored, as LSF ignores it."""
    clean = _seconds(params.get("CLEAN_PERIOD"), DEFAULT)
    done = _seconds(params.get("CLEAN_PERIOD_DONE"), None)
    if done is None or done >= clean:
        done = clean
    return done, clean


def cutoffs(params, now):
    """(done, exit): the end times before which a DONE and an EXIT job
    are forgotten at *now*."""
    done, clean = periods(params)
    return now - done, now - clean


def margin(stat, end_time, cutoffs):
    """How long after the *cutoffs* of now a job of state *stat* that
    ended at *end_time* is still known (negative: forgotten); None for a
    job that has not finished.  The controller's dependency lookups and
    bjdepinfo apply this one rule, to the second."""
    if stat not in ("DONE", "EXIT"):
        return None
    return (end_time or 0) - cutoffs[0 if stat == "DONE" else 1]


def problem(params):
    """The (CLEAN_PERIOD_DONE, CLEAN_PERIOD) pair when CLEAN_PERIOD_DONE
    is set but not less than CLEAN_PERIOD (its own range is checked with
    the other keys', xce.config.ranges), else None."""
    done = _seconds(params.get("CLEAN_PERIOD_DONE"), None)
    clean = _seconds(params.get("CLEAN_PERIOD"), DEFAULT)
    if done is not None and done >= clean:
        return done, clean
    return None
