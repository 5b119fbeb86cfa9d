"""xce sim places jobs by a queue's HOSTS preference levels, with the
controller's own pass (a host group's +N too)."""

from xce.sim import engine, swf

from tests.lib.simsite import sim_cluster


def test_the_preferred_host_is_used_first(tmp_path):
    cl = sim_cluster(tmp_path, "hosts:\n  h0001: {}\n  h0002: {}\n"
                     "host_groups:\n  fast: [h0002]\n"
                     "queues:\n  normal:\n    PRIORITY: 30\n"
                     "    HOSTS: h0001 fast+2\n", "2x1")
    path = tmp_path / "t.swf"
    path.write_text("1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                    "2 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
    replay = engine.Replay(cl, swf.read(path).jobs)
    started = []
    while replay.step():
        started += replay.last.started
    # Both start at once: the first on the preferred host.
    assert [hosts for _, hosts in started] == ["h0002", "h0001"]
