"""When a running job's rusage[] reservation next frees something by
itself (xce.controller.rusagewake.frees_at): the end of its duration, or
the next whole unit a decaying one gives back, no sooner than the least
gap between such passes."""

import pytest

from xce.controller.rusagewake import frees_at, load_pass_every


def test_a_term_with_a_duration_frees_everything_at_its_end():
    assert frees_at(100.0, 3, 60, False, 120.0, 5.0) == 160.0
    # Its end is waited for exactly, even within the gap.
    assert frees_at(100.0, 3, 60, True, 158.0, 5.0) == 160.0


def test_a_decaying_term_frees_one_whole_unit_at_a_time():
    # 4 tokens over 400 s: 3 held at 200, 2 at 300, 1 at 400... from 100.
    assert frees_at(100.0, 4, 400, True, 100.0, 0.0) == pytest.approx(200)
    assert frees_at(100.0, 4, 400, True, 200.0, 0.0) == pytest.approx(300)
    assert frees_at(100.0, 4, 400, True, 250.0, 0.0) == pytest.approx(300)
    assert frees_at(100.0, 4, 400, True, 450.0, 0.0) == pytest.approx(500)


def test_decay_steps_come_no_sooner_than_the_gap():
    # 1000 MB over 100 s frees a MB every 0.1 s: a pass 5 s on at most.
    at = frees_at(0.0, 1000, 100, True, 10.0, 5.0)
    assert 15.0 <= at <= 15.1


def test_what_frees_nothing_more_needs_no_wake_up():
    assert frees_at(100.0, 3, 0, False, 120.0, 5.0) is None    # no duration
    assert frees_at(100.0, 3, 60, True, 160.0, 5.0) is None    # over
    assert frees_at(100.0, 0, 60, True, 120.0, 5.0) is None    # nothing held


def test_the_gap_is_the_load_pass_interval():
    assert load_pass_every({}) == 5.0
    assert load_pass_every({"XCE_LOAD_PASS_INTERVAL": "0.5"}) == 0.5


def test_the_simulator_starts_a_job_when_decay_frees_its_token(tmp_path):
    """Same code, simulated clock: a job waiting for a licence token
    starts when the decaying reservation of the running one has given a
    whole token back (half-way through its 600 s), not at its end."""
    import getpass

    from xce.sim import engine, site
    from xce.sim.cluster import VirtualCluster
    from xce.sim.swf import TraceJob

    from tests.lib.builders import site as write_site, submission
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               "parameters: {DEFAULT_QUEUE: normal}\n"
               "queues:\n  normal:\n    PRIORITY: 30\n"
               "resources:\n  lic: {TYPE: Numeric, LOCATION: '(2@[all])'}\n")
    user = getpass.getuser()

    def job(n, submit, run, rusage):
        return TraceJob(n, submit, run, 1, run + 60, user, user, -1, n,
                        spec=submission(resreq=[rusage]))
    jobs = [job(1, 0, 1000, "rusage[lic=2:duration=10:decay=1]"),
            job(2, 1, 10, "rusage[lic=1]")]
    replay = engine.Replay(VirtualCluster(site.load(etc, "1x4")),
                           jobs).run()
    starts = {r.number: r.start for r in replay.records.values()}
    assert starts[1] == 0 and starts[2] == pytest.approx(300)
