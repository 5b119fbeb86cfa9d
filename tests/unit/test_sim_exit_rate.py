"""Host exceptions in the simulator: a trace's failed jobs (SWF status 0)
exit, and a host whose jobs exit faster than its EXIT_RATE is closed by
the controller's own rule (xce.controller.exitclose), so the jobs after
them pend as they would live."""

from xce.sim import engine, site, swf
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site as write_site

PARAMS = "{DEFAULT_QUEUE: normal, GLOBAL_EXIT_RATE: 1, " \
    "JOB_EXIT_RATE_DURATION: 1}"


def _replay(tmp_path, statuses, params=PARAMS):
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               f"parameters: {params}\n"
               "queues:\n  normal:\n    PRIORITY: 30\n")
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} 0 -1 10 1 -1 -1 1 10 -1 {status} 1 1 -1 -1 -1 -1 -1\n"
        for n, status in enumerate(statuses, 1)))
    cl = VirtualCluster(site.load(etc, "1x1"))
    return cl, engine.Replay(cl, swf.read(path).jobs).run()


def test_a_host_whose_jobs_fail_fast_is_closed_and_the_rest_pend(tmp_path):
    cl, replay = _replay(tmp_path, [0, 0, 0, 1])
    host = next(iter(cl.hosts))
    # Two exits within a minute (2/min > 1): closed at the second.
    assert replay.closed == [(20.0, host)]
    assert cl.hosts[host]["adm_closed"]
    assert cl.hosts[host]["adm_comment"] == \
        "eadmin: JOB EXIT THRESHOLD EXCEEDED"
    assert sorted(r.number for r in replay.unfinished()) == [3, 4]


def test_completed_and_cancelled_jobs_do_not_count(tmp_path):
    cl, replay = _replay(tmp_path, [1, 5, 1, 0])
    assert replay.closed == [] and replay.unfinished() == []
    assert not next(iter(cl.hosts.values()))["adm_closed"]


def test_without_a_threshold_failed_jobs_close_nothing(tmp_path):
    cl, replay = _replay(tmp_path, [0, 0, 0, 0],
                         params="{DEFAULT_QUEUE: normal}")
    assert replay.closed == [] and replay.unfinished() == []
    assert [t.failed for t in swf.read(tmp_path / "t.swf").jobs] == \
        [True] * 4
