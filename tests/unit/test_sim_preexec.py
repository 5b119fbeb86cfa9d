"""A failed pre-exec in the simulator: the controller's own code
(xce.controller.prepost) requeues the job and the pass holds it back
until LSF's next session, on the virtual clock; the replay wakes up for
it by itself."""

from xce.controller import prepost, schedpass
from xce.model import states
from xce.sim import engine, site
from xce.sim.cluster import VirtualCluster
from xce.sim.swf import TraceJob

SPEC = {"command": "true", "name": None, "queue": None, "nslots": [1, 1],
        "resreq": [], "depend": None, "from_host": "", "runlimit": None,
        "cwd": "/", "subcwd": "/"}


def _pass(cl):
    decisions = schedpass.run(cl)
    return [] if decisions is None else schedpass.settle(cl, decisions)


def test_a_job_whose_pre_exec_failed_waits_for_the_next_session():
    cl = VirtualCluster(site.load(None, "1x1"))
    job = cl.submit(dict(SPEC), "u1")
    assert _pass(cl) == [job]
    prepost.pre_failed(cl, job, 1)
    assert job["stat"] == states.PEND
    again = job["spec"]["preexec_retry_at"]
    assert again == cl.now + 10     # MBD_SLEEP_TIME
    cl.now += 5
    assert _pass(cl) == []
    assert cl.retry_waiting == {(job["jobid"], 0): again}
    cl.now = again
    prepost.wake(cl)
    assert cl.dirty and cl.retry_waiting == {}
    assert _pass(cl) == [job]


def test_the_replay_wakes_up_when_a_held_job_may_start():
    cl = VirtualCluster(site.load(None, "1x1"))
    spec = dict(SPEC, preexec_retry_at=100.0)
    replay = engine.Replay(cl, [TraceJob(1, 0.0, 30.0, 1, 60.0, "u1", "",
                                         -1, 1, spec)]).run()
    rec = next(iter(replay.records.values()))
    assert (rec.start, rec.end) == (100.0, 130.0)
