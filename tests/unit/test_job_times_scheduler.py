"""The pure scheduler and job times: a begin time keeps a job back with
LSF's reason until the pass's now reaches it; a run-time estimate (bsub
-We, queue ESTIMATED_RUNTIME) is the duration reservation and backfill
take for a job without a run limit; bsub -hostfile's layout is placed as
written or waits whole."""

from functools import partial

from xce.scheduler import core
from xce.scheduler.backfill import Context
from xce.scheduler.core import QueueView, schedule

from tests.lib.builders import host, one_pass, pending

NOW = 10_000.0
HOUR = 3600.0
_job = partial(pending, queue="resv")


def _resv():
    return [QueueView("resv", 30, reserve_time=600.0, backfill=True)]


def _started(out):
    return {key[0]: hosts for key, hosts in out.dispatch}


def test_a_begin_time_holds_the_job_until_the_pass_reaches_it():
    job = pending(1, begin_time=NOW + 60)
    out = one_pass([host("a", 2)], [job], now=NOW)
    assert out.dispatch == []
    assert out.reasons[(1, 0)] == [[core.R_BEGIN_TIME, None]]
    assert core.R_BEGIN_TIME == "The job has a specified start time"
    out = one_pass([host("a", 2)], [job], now=NOW + 60)
    assert _started(out) == {1: ["a"]}


def test_without_a_clock_a_job_with_a_begin_time_waits():
    out = one_pass([host("a", 2)], [pending(1, begin_time=0)])
    assert out.dispatch == []


def test_an_estimate_lets_a_job_without_run_limit_backfill():
    """Job 1 (-n 4) reserves the 2 free slots, the running job ends in
    an hour: job 2 with -We 10 ends before, job 3 with -We 120 after."""
    ctx = Context(NOW, {}, {"a": [(NOW + HOUR, 2)]})
    jobs = [_job(1, lo=4), _job(2, estimate=600.0),
            _job(3, estimate=2 * HOUR)]
    out = schedule(_resv(), [host("a", 4, used=2)], jobs, reserve=ctx)
    assert _started(out) == {2: ["a"]}


def test_an_estimate_shorter_than_the_run_limit_counts():
    ctx = Context(NOW, {}, {"a": [(NOW + HOUR, 2)]})
    jobs = [_job(1, lo=4), _job(2, runlimit=2 * HOUR, estimate=600.0)]
    out = schedule(_resv(), [host("a", 4, used=2)], jobs, reserve=ctx)
    assert _started(out) == {2: ["a"]}


def test_a_hostfile_layout_is_placed_in_order_or_waits_whole():
    hosts = [host("a", 2), host("b", 2, used=1)]
    job = pending(1, lo=3, layout=("b", "a", "a"), asked=None)
    out = one_pass(hosts, [job])
    assert _started(out) == {1: ["b", "a", "a"]}
    wide = pending(2, lo=3, layout=("b", "b", "a"))
    out = one_pass(hosts, [wide])
    assert out.dispatch == []
    assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["b"]]]
