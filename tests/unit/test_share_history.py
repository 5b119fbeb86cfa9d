"""Finished jobs' fairshare use (xce.controller.sharehist): kept after the
jobs leave the controller's unfinished jobs, decayed by HIST_HOURS to a
tenth, per (user, bsub -G group), and read back from the store at a
controller start; the same code runs in the simulator."""

import json
from types import SimpleNamespace

import pytest

from xce.controller import dispatch, sharehist
from xce.model.fairshare import NO_USAGE
from xce.sim import site
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site as write_site

YAML = """\
cluster: {name: sim, spool: ../spool}
parameters:
  DEFAULT_QUEUE: fair
  HIST_HOURS: 5
queues:
  fair:
    PRIORITY: 30
    FAIRSHARE: USER_SHARES[[default, 1]]
  plain:
    PRIORITY: 10
"""
H = 3600.0


@pytest.fixture
def cluster(tmp_path):
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, YAML)
    return VirtualCluster(site.load(etc, "1x1"))


T0 = 1000 * H      # the clock at time "0" of the cases below


def _job(end, hours, user="u", group=None, queue="fair", cpu=0.0, slots=1):
    end += T0
    return {"queue": queue, "user": user, "stat": "DONE",
            "start_time": end - hours * H, "end_time": end, "nslots": slots,
            "cpu_time": cpu, "spec": {"user_group": group}}


def _use(cl, now):
    cl.now = T0 + now
    qv = SimpleNamespace(fairshare=dispatch.limitconf.policy(
        cl.cfg, cl.cfg.queues["fair"]), fair_usage={})
    sharehist.charge(cl, {"fair": qv})
    return qv.fair_usage


@pytest.mark.parametrize("jobs, now, key, hist, cpu", [
    # read at its end: all of it; 2 slots count twice.
    ([_job(0, 2, slots=2)], 0, ("u", None), 4.0, 0.0),
    # HIST_HOURS (5) later a tenth, 10 hours later a hundredth.
    ([_job(0, 5, cpu=H)], 5 * H, ("u", None), 0.5, 0.1),
    ([_job(0, 5)], 10 * H, ("u", None), 0.05, 0.0),
    # two jobs of one account, added at their ends, each decays from it.
    ([_job(0, 2), _job(5 * H, 1)], 10 * H, ("u", None), 0.02 + 0.1, 0.0),
    # a -G job is its group's account's.
    ([_job(0, 1, group="g"), _job(0, 3)], 0, ("u", "g"), 1.0, 0.0),
])
def test_finished_hours_decay_by_hist_hours(cluster, jobs, now, key, hist,
                                            cpu):
    for job in jobs:
        cluster.now = job["end_time"]
        sharehist.noted(cluster, job, True)
    got = _use(cluster, now).get(key, NO_USAGE)
    assert got.hist_hours == pytest.approx(hist)
    assert got.cpu_hours == pytest.approx(cpu)
    assert got.run_hours == 0.0


def test_only_a_job_that_just_finished_in_a_fairshare_queue_counts(cluster):
    cluster.now = T0
    sharehist.noted(cluster, _job(0, 1), False)    # finished before
    sharehist.noted(cluster, _job(0, 1, queue="plain"), True)
    sharehist.noted(cluster, dict(_job(0, 1), start_time=None), True)
    sharehist.noted(cluster, dict(_job(0, 1), stat="RUN"), True)
    assert _use(cluster, 0) == {}


def test_a_restart_reads_the_finished_jobs_from_the_store(cluster):
    cluster.store = SimpleNamespace(finished_jobs=lambda since: [
        _job(0, 5), _job(0, 1, group="g"), _job(0, 1, queue="plain")])
    cluster.now = T0 + 5 * H
    sharehist.load(cluster)
    got = _use(cluster, 5 * H)
    assert got[("u", None)].hist_hours == pytest.approx(0.5)
    assert got[("u", "g")].hist_hours == pytest.approx(0.1)
    assert len(got) == 2


_SITE = ("cluster: {name: fs, spool: ../spool}\n"
         "parameters: {DEFAULT_QUEUE: fair, MBD_SLEEP_TIME: 10, "
         "ENABLE_HIST_RUN_TIME: Y, CLEAN_PERIOD: 86400}\n"
         "hosts:\n  h1: {MXJ: 1}\n"
         "queues:\n  fair:\n    PRIORITY: 30\n"
         "    FAIRSHARE: USER_SHARES[[default, 1]]\n")


def _controller(etc, now):
    from tests.lib.fake_controller import started_controller
    return started_controller(write_site(etc, _SITE), etc, now)


def _controller_use(ctl):
    queues = {q.name: q for q in dispatch.snapshot(ctl)[0]}
    return queues["fair"].fair_usage


def test_the_controller_keeps_finished_hours_across_a_restart(tmp_path):
    from tests.lib.builders import hello, submission
    etc = tmp_path / "etc"
    ctl = _controller(etc, T0)
    ctl.spool.put("submit", {"spec": submission("true")})
    ctl.run_once(T0, inbox=[("h1", [hello("h1", ncpus=1)])])
    (job,) = ctl.store.load_jobs(False)
    assert job["stat"] == "RUN"
    ctl.run_once(T0 + H, inbox=[("h1", [
        {"op": "finished", "job": job["jobid"], "idx": 0, "attempt": 1,
         "stat": "DONE", "exit_code": 0, "end_time": T0 + H}])])
    assert ctl.jobs == {}       # no longer among the unfinished jobs
    key = (job["user"], None)
    assert _controller_use(ctl)[key].hist_hours == pytest.approx(1.0)
    ctl.store.close()
    again = _controller(etc, T0 + 6 * H)    # HIST_HOURS (5) after its end
    assert _controller_use(again)[key].hist_hours == pytest.approx(0.1)
    again.store.close()


def test_a_restart_reads_back_only_what_has_not_decayed_away(cluster):
    seen = []
    cluster.store = SimpleNamespace(finished_jobs=lambda since: seen.append(
        since) or [])
    cluster.now = T0
    sharehist.load(cluster)
    assert seen == [T0 - 10 * 5 * H]        # ten HIST_HOURS of 5 hours


def test_a_job_without_G_stays_in_the_account_chosen_across_a_restart(
        tmp_path):
    """A user in two groups of the tree, gb listed first: her job without
    -G starts in the higher priority account (a tie: ga by name, not gb
    the first listed), keeps it in its spec, and a restarted controller
    charges it there."""
    import pwd
    import os
    from tests.lib.builders import hello, submission
    from tests.lib.fake_controller import started_controller
    me = pwd.getpwuid(os.getuid()).pw_name
    etc = tmp_path / "etc"
    text = _SITE.replace("USER_SHARES[[default, 1]]",
                         "USER_SHARES[[gb, 1] [ga, 1]]") + (
        f"user_groups:\n  ga: {{members: [{me}]}}\n"
        f"  gb: {{members: [{me}]}}\n")
    ctl = started_controller(write_site(etc, text), etc, T0)
    ctl.spool.put("submit", {"spec": submission("sleep 100")})
    ctl.run_once(T0, inbox=[("h1", [hello("h1", ncpus=1)])])
    (job,) = ctl.store.load_jobs(False)
    assert job["stat"] == "RUN" and \
        json.loads(job["spec"])["share_group"] == "ga"
    assert (me, "ga") in _controller_use(ctl)
    ctl.store.close()
    again = started_controller(write_site(etc, text), etc, T0 + H)
    assert set(_controller_use(again)) == {(me, "ga")}
    again.store.close()
