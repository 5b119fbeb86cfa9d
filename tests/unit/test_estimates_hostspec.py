"""Scheduler estimates with CPU factors: a job's run limit and run-time
estimate are normalised times, as LSF has them, so reservation, backfill
and the -t deadline check take the time on the candidate host (the time
times the normalising host's CPU factor over the host's), like the run
limit the agent enforces."""

from functools import partial
from types import SimpleNamespace

import pytest

from xce.controller import jobclock, reserve
from xce.scheduler import jobtimes
from xce.scheduler.backfill import Context
from xce.scheduler.core import QueueView, schedule

from tests.lib.builders import host, pending
from tests.unit.test_runlimit_hostspec import _cfg, _queue

NOW = 10_000.0
HOUR = 3600.0
_job = partial(pending, queue="resv")


def _host(name, factor, used=2):
    h = host(name, 4, used=used)
    h.cpu_factor = factor
    return h


@pytest.mark.parametrize("factor, absolute, backfills", [
    (4.0, False, True),     # 2 h of factor 1.0 is 30 min here: ends first
    (1.0, False, False),    # 2 h here: past the wide job's start (+1 h)
    (4.0, True, False),     # ABS_RUNLIMIT=Y: 2 h of wall-clock anywhere
])
def test_backfill_fits_a_fast_host_and_not_a_slow_one(factor, absolute,
                                                      backfills):
    # The wide job (-n 4) holds the 2 free slots until the 2 running
    # ones end in an hour; job 2 asks for a 2 h normalised run limit.
    ctx = Context(NOW, {}, {"a": [(NOW + HOUR, 2)]})
    jobs = [_job(1, lo=4), _job(2, runlimit=2 * HOUR,
                                abs_runlimit=absolute)]
    out = schedule([QueueView("resv", 30, reserve_time=600.0,
                              backfill=True)],
                   [_host("a", factor)], jobs, reserve=ctx)
    started = {key[0] for key, _ in out.dispatch}
    assert started == ({2} if backfills else set())


def test_an_estimate_is_normalised_as_the_run_limit():
    job = _job(1, runlimit=4 * HOUR, estimate=2 * HOUR)
    assert jobtimes.duration(job, 4.0) == HOUR / 2
    assert jobtimes.duration(job, 1.0) == 2 * HOUR
    assert jobtimes.duration(_job(2), 4.0) is None
    assert jobtimes.on_host(600, 2.0, absolute=True) == 600


def _ctl(q, params=None, apps=None):
    cfg = _cfg(params, apps)
    cfg.queues = {"normal": q}
    return SimpleNamespace(cfg=cfg, now=NOW)


def test_the_deadline_check_takes_the_fastest_hosts_time():
    """-t: a pending job is given up only when its run limit would pass
    the termination time even on the fastest host."""
    q = _queue()
    q.ignore_deadline = False
    ctl = _ctl(q)
    slow = {"queue": "normal", "spec": {"runlimit": 10,
                                        "runlimit_host": "slow"}}
    # 10 min of a factor 1.0 host: 2.5 min on the factor 4.0 host.
    assert jobclock._runlimit(ctl, slow) == 150
    term = NOW + 300
    assert jobtimes.due(NOW, True, None, term, False, 150) is None
    # No host spec: the fastest host normalises, 10 min there.
    plain = {"queue": "normal", "spec": {"runlimit": 10}}
    assert jobclock._runlimit(ctl, plain) == 600
    assert jobtimes.due(NOW, True, None, term, False, 600) == \
        jobtimes.ABORT
    # ABS_RUNLIMIT=Y: wall-clock minutes.
    assert jobclock._runlimit(_ctl(q, {"ABS_RUNLIMIT": "Y"}), slow) == 600


def test_estimates_of_the_job_and_the_queue_are_normalised():
    q = _queue(DEFAULT_HOST_SPEC="slow")
    q.estimated_runtime = 20
    ctl = _ctl(q)
    job = {"queue": "normal", "spec": {"runlimit": 30, "estimate": 10}}
    # The queue's DEFAULT_HOST_SPEC (factor 1.0) normalises both.
    assert reserve.normal_times(ctl, job) == (1800.0, 600.0, False)
    job = {"queue": "normal", "spec": {"runlimit": 30,
                                       "runlimit_host": "fast"}}
    assert reserve.normal_times(ctl, job) == (7200.0, 1200.0, False)


def test_a_running_job_ends_by_its_first_hosts_factor():
    """Reservation predicts a running job's end by the run limit its
    agent enforces: normalised over its first host's CPU factor."""
    q = _queue(DEFAULT_HOST_SPEC="slow")
    q.estimated_runtime, q.reserve_time, q.backfill = None, 600.0, True
    ctl = _ctl(q)
    ctl.passes = SimpleNamespace(started={(1, 0)})
    ctl.reservations = reserve.State()
    ctl.jobs = {(1, 0): {"queue": "normal", "stat": "RUN",
                         "start_time": NOW, "exec_hosts": "a a",
                         "spec": {"runlimit": 60}}}
    ctx = reserve.context(ctl, [q])
    assert ctx.ends == {"a": [(NOW + 900.0, 2)]}     # 60 min / 4.0


def test_bsub_we_reads_a_host_spec():
    from xce.client.submit.execution import _estimate
    from xce.client.submit.options import SubmitError
    assert _estimate("1:30/hostA") == {"estimate": 90.0,
                                       "estimate_host": "hostA"}
    assert _estimate("10") == {"estimate": 10.0}
    with pytest.raises(SubmitError, match="10/"):
        _estimate("10/")


def test_an_unknown_estimate_host_is_refused_at_submit():
    from tests.unit.test_runlimit_hostspec import Refused
    from xce.controller import rlimits
    with pytest.raises(Refused, match="nohost: Bad host specification"):
        rlimits.check(_cfg(), _queue(), {"estimate": 5,
                                         "estimate_host": "nohost"}, Refused)


_APP = ("hosts:\n  h1: {model: fast}\nhost_models: {fast: 4.0}\n"
        "queues:\n  normal: {}\napplications:\n  a:\n    RUNTIME: %s\n")


def test_a_profiles_runtime_takes_a_host_spec(tmp_path):
    from xce.lang import appmerge
    from tests.lib.builders import site
    app = site(tmp_path, _APP % "30/fast").apps["a"]
    spec = {}
    appmerge.fill(app, spec)
    assert (spec["estimate"], spec["estimate_host"]) == (30.0, "fast")
    # The job's own -We (without a host) wins, with no host of the profile.
    spec = {"estimate": 5.0}
    appmerge.fill(app, spec)
    assert "estimate_host" not in spec


def test_a_profiles_runtime_of_an_unknown_host_is_refused(tmp_path):
    from xce.config.load import ConfigError
    from tests.lib.builders import site
    with pytest.raises(ConfigError, match="RUNTIME: nohost: Bad host spec"):
        site(tmp_path, _APP % "30/nohost")


@pytest.mark.parametrize("factor, runlimit, starts", [
    (1.0, HOUR / 2, True),          # ends before the window closes
    (1.0, 2 * HOUR, False),         # would run past it
    (4.0, 2 * HOUR, True),          # 30 min on the fastest host
])
def test_a_job_that_would_outrun_its_queues_run_window_pends(
        factor, runlimit, starts):
    q = QueueView("resv", 30, window_closes=NOW + HOUR, window_factor=factor)
    out = schedule([q], [_host("a", factor, used=0)],
                   [_job(1, runlimit=runlimit), _job(2)], now=NOW)
    started = {key[0] for key, _ in out.dispatch}
    assert started == ({1, 2} if starts else {2})   # no run limit: starts
    if not starts:
        assert "Job will not finish before queue's run window is closed" \
            in str(out.reasons[(1, 0)])
