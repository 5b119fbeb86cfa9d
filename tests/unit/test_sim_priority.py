"""User-assigned job priority in the simulator, the same code as the
controller on the virtual clock: -sp orders a queue's pending jobs, and
JOB_PRIORITY_OVER_TIME raises a job's priority the longer it pends, so an
old low-priority job overtakes a newer higher one."""

from xce.sim import engine, site, swf
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site as write_site


def _starts(tmp_path, params, priorities):
    """Job 1 holds the one slot for 1200 s; job 2 (-sp 1) comes at 0 and
    job 3 (-sp 3) at 600: {job: start}."""
    etc = tmp_path / "etc"
    etc.mkdir(parents=True)
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               "parameters:\n  DEFAULT_QUEUE: normal\n" + params +
               "queues:\n  normal:\n    PRIORITY: 30\n")
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} {submit} -1 {run} 1 -1 -1 1 {run} -1 1 1 1 -1 -1 -1 -1 -1\n"
        for n, submit, run in [(1, 0, 1200), (2, 0, 60), (3, 600, 60)]))
    jobs = swf.read(path).jobs
    for tj in jobs:
        tj.spec = {"command": "x", "name": None, "queue": "normal",
                   "nslots": [1, 1], "resreq": [], "depend": None,
                   "from_host": "", "runlimit": 60, "cwd": "/",
                   "subcwd": "/", "user_priority": priorities.get(tj.number)}
    replay = engine.Replay(VirtualCluster(site.load(etc, "1x1")), jobs).run()
    return {r.number: r.start for r in replay.records.values()}


def test_priority_orders_the_queue_and_rises_while_a_job_pends(tmp_path):
    top = "  MAX_USER_PRIORITY: 10\n"
    plain = _starts(tmp_path / "a", top, {2: 1, 3: 3})
    assert plain == {1: 0, 3: 1200, 2: 1260}
    # 1 a minute: at 1200 s job 2 has 1 + 20, job 3 has 3 + 10.
    rising = _starts(tmp_path / "b", top + "  JOB_PRIORITY_OVER_TIME: 1/1\n",
                     {2: 1, 3: 3})
    assert rising == {1: 0, 2: 1200, 3: 1260}


def test_a_job_without_sp_has_half_the_maximum(tmp_path):
    assert _starts(tmp_path, "  MAX_USER_PRIORITY: 10\n",
                   {2: 4, 3: None}) == {1: 0, 3: 1200, 2: 1260}
