"""The simulator sends a trace job without a queue where bsub without -q
sends it: lsf.conf's LSB_DEFAULTQUEUE (xce.yaml parameters), else the
default queue."""

from xce.sim import engine, swf

from tests.lib.simsite import sim_cluster


def _queues(tmp_path, params):
    cl = sim_cluster(tmp_path, f"parameters: {params}\n"
                     "queues:\n  normal:\n    PRIORITY: 30\n"
                     "  short:\n    PRIORITY: 40\n"
                     "  '7':\n    PRIORITY: 20\n", "1x2")
    path = tmp_path / "t.swf"
    path.write_text("1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "2 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 7 -1 -1 -1\n")
    replay = engine.Replay(cl, swf.read(path).jobs).run()
    return {r.number: r.queue for r in replay.records.values()}


def test_lsb_defaultqueue_is_the_queue_of_jobs_without_one(tmp_path):
    assert _queues(tmp_path, "{DEFAULT_QUEUE: normal, "
                   "LSB_DEFAULTQUEUE: short}") == {1: "short", 2: "7"}


def test_without_it_the_default_queue(tmp_path):
    assert _queues(tmp_path, "{DEFAULT_QUEUE: normal}") == \
        {1: "normal", 2: "7"}
