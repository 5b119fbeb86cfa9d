"""JOB_ACCEPT_INTERVAL: after a host is given a job, no job of a queue
with an interval goes there until the interval is over ("Just started a
job recently"), within a pass too; the simulator wakes up when it ends,
as the controller does (same code, xce.controller.accept)."""

from xce.scheduler.views import QueueView, R_HOST_ACCEPT, R_HOST_FULL
from xce.sim import engine, site, swf
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import host, one_pass, pending
from tests.lib.builders import site as write_site


def _waiting_queue(seconds):
    return [QueueView("normal", 30, accept_interval=seconds)]


def test_a_host_takes_one_job_per_pass_when_the_queue_has_an_interval():
    out = one_pass([host("a", 4), host("b", 4)],
                   [pending(n) for n in (1, 2, 3)],
                   queues=_waiting_queue(60), now=1000.0)
    assert dict(out.dispatch) == {(1, 0): ["a"], (2, 0): ["b"]}
    assert out.reasons[(3, 0)] == [[R_HOST_ACCEPT, ["a", "b"]]]


def test_without_an_interval_a_host_takes_as_many_jobs_as_it_has_slots():
    out = one_pass([host("a", 4)], [pending(n) for n in (1, 2, 3)],
                   now=1000.0)
    assert [d[1] for d in out.dispatch] == [["a"]] * 3


def test_a_host_given_a_job_lately_waits_out_the_interval():
    recent, old = host("a", 4), host("b", 4)
    recent.accepted_at, old.accepted_at = 990.0, 900.0
    out = one_pass([recent, old], [pending(1), pending(2)],
                   queues=_waiting_queue(60), now=1000.0)
    # b's wait ended at 960; a's lasts until 1050.
    assert dict(out.dispatch) == {(1, 0): ["b"]}
    assert out.reasons[(2, 0)] == [[R_HOST_ACCEPT, ["a", "b"]]]
    later = one_pass([recent], [pending(2)], queues=_waiting_queue(60),
                     now=1050.0)
    assert dict(later.dispatch) == {(2, 0): ["a"]}


def test_a_full_host_is_full_before_it_is_waiting():
    full = host("a", 1, 1)
    full.accepted_at = 990.0
    out = one_pass([full], [pending(1)], queues=_waiting_queue(60),
                   now=1000.0)
    assert out.reasons[(1, 0)] == [[R_HOST_FULL, ["a"]]]


def test_many_hosts_each_take_one_job_and_the_rest_wait():
    hosts = [host(f"h{n:02}", 8) for n in range(40)]
    out = one_pass(hosts, [pending(n) for n in range(1, 101)],
                   queues=_waiting_queue(30), now=5.0)
    placed = [d[1][0] for d in out.dispatch]
    assert sorted(placed) == sorted(h.name for h in hosts)
    assert out.reasons[(100, 0)] == [[R_HOST_ACCEPT, sorted(placed)]]


def _replay(tmp_path, params, lines):
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               "parameters: {DEFAULT_QUEUE: normal, " + params + "}\n"
               "queues:\n  normal:\n    PRIORITY: 30\n")
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} {submit} -1 {run} 1 -1 -1 1 {run} -1 1 1 1 -1 -1 -1 -1 -1\n"
        for n, submit, run in lines))
    cl = VirtualCluster(site.load(etc, "1x4"))
    return engine.Replay(cl, swf.read(path).jobs).run()


def test_the_simulator_dispatches_one_job_per_interval_to_a_host(tmp_path):
    replay = _replay(tmp_path, "JOB_ACCEPT_INTERVAL: 2, MBD_SLEEP_TIME: 5",
                     [(1, 0, 100), (2, 0, 100), (3, 0, 100)])
    starts = sorted(r.start for r in replay.records.values())
    # One host of four slots, a 10 s wait after each dispatch: the
    # replay wakes at each wait's end by itself.
    assert starts == [0, 10, 20]


def test_the_simulator_without_an_interval_starts_them_together(tmp_path):
    replay = _replay(tmp_path, "JOB_ACCEPT_INTERVAL: 0",
                     [(1, 0, 100), (2, 0, 100), (3, 0, 100)])
    assert sorted(r.start for r in replay.records.values()) == [0, 0, 0]


def _controller(etc, now):
    from xce.controller.main import Controller
    from tests.lib.fake_controller import FakeAgentLink, FakeSpool
    ctl = Controller(write_site(etc, _ACCEPT_SITE), etc, spool=FakeSpool(),
                     link_for=FakeAgentLink)
    ctl.now = now
    ctl.start()
    return ctl


_ACCEPT_SITE = ("cluster: {name: acc, spool: ../spool}\n"
                "parameters: {DEFAULT_QUEUE: normal, MBD_SLEEP_TIME: 10, "
                "JOB_ACCEPT_INTERVAL: 3}\n"
                "hosts:\n  h1: {MXJ: 4}\n  h2: {MXJ: 4}\n"
                "queues:\n  normal:\n    PRIORITY: 30\n")


def test_a_controller_restart_keeps_the_waits_from_the_jobs_start_times(
        tmp_path):
    """The hosts' last dispatch times are not written anywhere: a restarted
    controller finds them in the jobs' start times (finished jobs too), so
    a host given a job 10 s before the restart still waits out its 30 s."""
    from tests.lib.builders import hello, submission
    etc = tmp_path / "etc"
    ctl = _controller(etc, 1000.0)
    ctl.spool.put("submit", {"spec": submission("true")})
    ctl.run_once(1000.0, inbox=[("h1", [hello("h1", ncpus=4)])])
    assert ctl.store.load_jobs(False)[0]["exec_hosts"] == "h1"
    ctl.store.close()
    again = _controller(etc, 1010.0)
    assert again.passes.accepted.at == {"h1": 1000.0}
    assert again.passes.accepted.next_at == 1030.0
    again.store.close()
    late = _controller(etc, 1031.0)     # the wait is over: nothing kept
    assert late.passes.accepted.at == {} and \
        late.passes.accepted.next_at is None
    late.store.close()
