"""Time windows in the simulator: the same code as the controller on the
virtual clock -- a dispatch window holds jobs until it opens, a run window
suspends a running job at its close and resumes it at its opening, and the
replay wakes up at those times by itself; a queue's time-based PRIORITY
switches at its window's edge, changing the dispatch order."""

import time

import pytest

from xce.controller import windows
from xce.model.suspreasons import USER_RESUME
from xce.sim import engine, swf

from tests.lib.builders import job_row
from tests.lib.simsite import sim_cluster


@pytest.fixture
def utc(monkeypatch):
    """Virtual time 0 is Thursday 00:00 in UTC, the windows' local time."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _replay(tmp_path, queue_keys, lines, no_limit=()):
    cl = sim_cluster(tmp_path, "parameters: {DEFAULT_QUEUE: normal}\n"
                     "queues:\n  normal:\n    PRIORITY: 30\n" + queue_keys,
                     "2x1")
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} {submit} -1 {run} 1 -1 -1 1 {run} -1 1 1 1 -1 -1 -1 -1 -1\n"
        for n, submit, run in lines))
    jobs = swf.read(path).jobs
    for tj in jobs:
        if tj.number in no_limit:       # a recorded job without -W
            tj.spec = {"command": "x", "name": None, "queue": "normal",
                       "nslots": [1, 1], "resreq": [], "depend": None,
                       "from_host": "", "cwd": "/", "subcwd": "/"}
    return engine.Replay(cl, jobs).run()


def test_a_dispatch_window_holds_jobs_until_it_opens(tmp_path, utc):
    replay = _replay(tmp_path, "    DISPATCH_WINDOW: 1:00-2:00\n",
                     [(1, 0, 60), (2, 4000, 60), (3, 7300, 60)])
    starts = {r.number: r.start for r in replay.records.values()}
    # Job 3 comes after 02:00: it waits for the next day's window.
    assert starts == {1: 3600, 2: 4000, 3: 86400 + 3600}


def test_a_run_window_suspends_at_its_close_and_resumes_at_its_opening(
        tmp_path, utc):
    # No run limit: a job with one longer than the window would pend.
    replay = _replay(tmp_path, "    RUN_WINDOW: 0:00-1:00\n",
                     [(1, 0, 5400)], no_limit=(1,))
    rec = next(iter(replay.records.values()))
    assert rec.start == 0
    # 3600 s run today, the other 1800 s after the window opens again.
    assert rec.end == 86400 + 1800
    assert rec.run == 5400


def test_a_job_that_would_outrun_the_run_window_never_starts(tmp_path,
                                                              utc):
    replay = _replay(tmp_path, "    RUN_WINDOW: 0:00-1:00\n",
                     [(1, 0, 5400), (2, 0, 600)])
    starts = {r.number: r.start for r in replay.records.values()}
    assert starts[2] == 0 and starts.get(1) is None
    assert [r.number for r in replay.unfinished()] == [1]


def _starts(tmp_path, priority):
    """One slot; job 1 (normal) holds it until 1000; jobs 2 (normal) and
    3 (night) come at 10, job 3 runs until 3700; jobs 4 (normal) and 5
    (night) come at 3650: {job: start}."""
    cl = sim_cluster(tmp_path, "parameters: {DEFAULT_QUEUE: normal}\n"
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
    replay = engine.Replay(cl, jobs).run()
    return {r.number: r.start for r in replay.records.values()}


def test_a_priority_that_switches_changes_the_dispatch_order(tmp_path,
                                                             utc):
    # night is 10 until 01:00 (3600 s), 50 from then until 02:00.
    switched = _starts(tmp_path / "a", "[50 1:00-2:00] [10 ()]")
    assert switched == {1: 0, 2: 1000, 3: 1100, 5: 3700, 4: 3800}
    # With 10 at all times, normal's job goes first both times.
    assert _starts(tmp_path / "b", "[10 ()]") == {
        1: 0, 2: 1000, 3: 1100, 4: 3700, 5: 3800}


def test_a_user_resumed_job_is_held_by_a_closed_run_window(tmp_path, utc):
    """The simulator has no bresume, but it carries out the windows with
    the controller's code: a job its user resumed (SSUSP, USER_RESUME)
    takes the run window's reason while the window is closed, without a
    second stop, and is resumed when it opens."""
    cl = sim_cluster(tmp_path, "queues:\n  normal:\n    PRIORITY: 30\n"
                     "    RUN_WINDOW: 0:00-1:00\n")
    host = next(iter(cl.hosts))
    job = job_row(1, "USUSP", exec_hosts=host, start_time=60.0)
    cl.jobs[(1, 0)] = job
    cl.now = 2 * 3600.0         # resumed by its user, the window closed
    cl.emit("STATUS", job, stat="SSUSP", by="ann", reason=USER_RESUME)
    cl.now += 1                 # looked at from the next turn on
    windows.enforce(cl)
    assert (job["stat"], job["spec"]["sys_susp"]) == ("SSUSP", "WINDOW")
    assert cl.signals == []
    cl.now = 86400.0 + 10
    windows.enforce(cl)
    assert job["stat"] == "RUN" and len(cl.signals) == 1
