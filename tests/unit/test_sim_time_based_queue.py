"""A queue's time-based PRIORITY in the simulator, the same code as the
controller on the virtual clock: the queue's jobs go before another
queue's only while its higher value is in force, and the replay switches
at the window edge by itself."""

import time

import pytest

from xce.sim import engine, site, swf
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site as write_site


@pytest.fixture
def utc(monkeypatch):
    """Virtual time 0 is Thursday 00:00 in UTC, the windows' local time."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _starts(tmp_path, priority):
    """One slot; job 1 (normal) holds it until 1000; jobs 2 (normal) and
    3 (night) come at 10, job 3 runs until 3700; jobs 4 (normal) and 5
    (night) come at 3650: {job: start}."""
    etc = tmp_path / "etc"
    etc.mkdir(parents=True)
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               "parameters: {DEFAULT_QUEUE: normal}\n"
               "queues:\n  normal:\n    PRIORITY: 30\n"
               f"  night:\n    PRIORITY: \"{priority}\"\n")
    lines = [(1, 0, 1000, "normal"), (2, 10, 100, "normal"),
             (3, 10, 2600, "night"), (4, 3650, 100, "normal"),
             (5, 3650, 100, "night")]
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} {submit} -1 {run} 1 -1 -1 1 {run} -1 1 1 1 -1 -1 -1 -1 -1\n"
        for n, submit, run, _ in lines))
    jobs = swf.read(path).jobs
    queues = {n: q for n, _, _, q in lines}
    for tj in jobs:
        tj.spec = {"command": "x", "name": None, "queue": queues[tj.number],
                   "nslots": [1, 1], "resreq": [], "depend": None,
                   "from_host": "", "cwd": "/", "subcwd": "/"}
    replay = engine.Replay(VirtualCluster(site.load(etc, "1x1")), jobs).run()
    return {r.number: r.start for r in replay.records.values()}


def test_a_priority_that_switches_changes_the_dispatch_order(tmp_path,
                                                             utc):
    # night is 10 until 01:00 (3600 s), 50 from then until 02:00.
    switched = _starts(tmp_path / "a", "[50 1:00-2:00] [10 ()]")
    assert switched == {1: 0, 2: 1000, 3: 1100, 5: 3700, 4: 3800}
    # With 10 at all times, normal's job goes first both times.
    assert _starts(tmp_path / "b", "[10 ()]") == {
        1: 0, 2: 1000, 3: 1100, 4: 3700, 5: 3800}
