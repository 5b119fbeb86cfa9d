"""xce.sim: SWF traces, virtual time, run limits, queue mapping, policies
from the configuration and the stepper, on small traces whose outcome is
worked out by hand."""

import io
import time

import pytest

from xce.sim import engine, metrics, site, swf
from xce.sim.cluster import VirtualCluster
from xce.sim.stepper import Stepper

from tests.lib.builders import site as write_site


def _line(n, submit, run, procs, estimate, user=1, queue=-1):
    return (f"{n} {submit} -1 {run} {procs} -1 -1 {procs} {estimate} -1 1 "
            f"{user} {user} -1 {queue} -1 -1 -1\n")


def _replay(tmp_path, lines, cfg):
    path = tmp_path / "t.swf"
    path.write_text("".join(lines))
    trace = swf.read(path)
    cl = VirtualCluster(cfg)
    return engine.Replay(cl, trace.jobs).run(), cl


def test_swf_lines_bad_and_good():
    job, why = swf.parse_line(_line(7, 5, 30, 2, -1, user=3, queue=2), 9)
    assert why is None
    assert (job.number, job.submit, job.run, job.procs, job.estimate,
            job.user, job.group, job.queue, job.line) == (
        7, 5.0, 30.0, 2, 30.0, "u3", "g3", 2, 9)
    assert swf.parse_line("1 2 3", 4) == (None, "3 fields, not 18")
    assert swf.parse_line(_line(1, 0, -1, 1, 10), 1)[0] is None
    assert swf.bad_summary([(n, "x") for n in range(1, 13)]) == (
        "12 trace line(s) skipped (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and "
        "2 more): x")


def test_a_year_of_trace_replays_in_virtual_time(tmp_path, monkeypatch):
    def no_clock(*args):
        raise AssertionError("the replay read the clock or slept")
    monkeypatch.setattr(time, "sleep", no_clock)
    monkeypatch.setattr(time, "time", no_clock)
    year = 365 * 86400
    replay, _ = _replay(tmp_path, [_line(1, 0, year, 1, year),
                                   _line(2, 10, 60, 1, 60)],
                        site.load(None, "1x1"))
    recs = sorted(replay.records.values(), key=lambda r: r.number)
    assert [(r.start, r.end) for r in recs] == [(0, year),
                                               (year, year + 60)]


def test_a_job_never_runs_past_its_estimate(tmp_path):
    replay, _ = _replay(tmp_path, [_line(1, 0, 500, 1, 100)],
                        site.load(None, "1x1"))
    rec = next(iter(replay.records.values()))
    assert (rec.end, rec.run, rec.killed) == (100, 100, True)


QUEUES = """\
cluster: {name: sim, spool: ../spool}
parameters: {DEFAULT_QUEUE: normal}
hosts: {a: {MXJ: 1}}
queues:
  normal: {PRIORITY: 30}
  "2": {PRIORITY: 40}
"""


def test_the_trace_queue_number_names_a_queue(tmp_path):
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, QUEUES)
    replay, _ = _replay(tmp_path, [_line(1, 0, 10, 1, 10, queue=2),
                                   _line(2, 0, 10, 1, 10, queue=5)],
                        site.load(etc))
    assert {r.number: r.queue for r in replay.records.values()} == {
        1: "2", 2: "normal"}


def _policy_site(tmp_path, queue):
    etc = tmp_path / "etc"
    etc.mkdir()
    write_site(etc, "cluster: {name: sim, spool: ../spool}\n"
               "parameters: {DEFAULT_QUEUE: normal}\n"
               "queues:\n  normal:\n    PRIORITY: 30\n" + queue)
    return site.load(etc, "4x1")


# A 2-slot job runs; a 4-slot job then waits for it; small jobs follow.
BLOCKED = [_line(1, 0, 100, 2, 100), _line(2, 1, 100, 4, 100),
           _line(3, 2, 50, 1, 50), _line(4, 3, 200, 1, 200),
           _line(5, 4, 200, 2, 200)]


@pytest.mark.parametrize("queue, starts", [
    # Default: whatever fits starts; the 4-slot job waits until the
    # 2-slot job 5 (started at 100 in job 1's place) ends.
    ("", {1: 0, 2: 300, 3: 2, 4: 3, 5: 100}),
    # SLOT_RESERVE: job 2 holds the free slots, nothing passes it.
    ("    SLOT_RESERVE: MAX_RESERVE_TIME[100]\n",
     {1: 0, 2: 100, 3: 200, 4: 200, 5: 200}),
    # + BACKFILL: job 3 ends (by its run limit) before job 2 could start.
    ("    SLOT_RESERVE: MAX_RESERVE_TIME[100]\n    BACKFILL: Y\n",
     {1: 0, 2: 100, 3: 2, 4: 200, 5: 200}),
])
def test_policies_come_from_the_configuration(tmp_path, queue, starts):
    replay, cl = _replay(tmp_path, BLOCKED, _policy_site(tmp_path, queue))
    assert {r.number: r.start for r in replay.records.values()} == starts
    s = metrics.summary(replay, cl.slots)
    assert s["jobs"] == 5 and s["rejected"] == []


def _transcript(tmp_path, commands):
    path = tmp_path / "t.swf"
    path.write_text("".join(BLOCKED))
    cl = VirtualCluster(site.load(None, "4x1"))
    replay = engine.Replay(cl, swf.read(path).jobs)
    out = io.StringIO()
    Stepper(replay, io.StringIO(commands), out).run()
    return out.getvalue(), metrics.summary(replay, cl.slots)


def test_the_stepper_steps_breaks_and_explains(tmp_path):
    out, _ = _transcript(tmp_path, "step 2\nbreak job 5\ncontinue\n"
                         "info job 5\ninfo host h0001\ninfo queue normal\n"
                         "trace on 2\nstep\nbogus\nquit\n")
    lines = out.splitlines()
    assert lines[:5] == [
        "time 0: submit 1; start 1 on h0001 h0002",
        "time 1: submit 2",
        "breakpoint: job 5",
        "break: job 5",
        "time 4: submit 5"]
    assert lines[5] == ("job 5: PEND, user u1, queue normal, 2 slot(s), "
                        "submitted 4")
    assert lines[6] == "host h0001: 1 slot(s), 1 used, jobs: 1"
    assert lines[7] == "queue normal: priority 30, 2 pending, 3 running " \
        "on 4 slot(s)"
    assert lines[9].startswith("Job <2>, User <u1>, Queue <normal>: ")
    assert lines[-2] == "time 52: end 3"
    assert lines[-1].startswith("commands: step [n], continue, break")


def test_the_stepper_changes_no_decision(tmp_path):
    plain, _ = _transcript(tmp_path, "")
    assert plain == ""
    _, quiet = _transcript(tmp_path, "continue\n")
    _, stepped = _transcript(tmp_path, "trace on\nstep 3\ninfo job 2\n"
                             "break event end\ncontinue\ntrace off\n")
    assert quiet == stepped


def test_verify_replays_a_job_id_given_again_as_its_own_job():
    """xce sim --verify: a SUBMIT takes the row of the job submitted
    then, and the seq the controller gave it (on from the highest once
    the ids wrapped; one per submission, an array's elements share it)."""
    from xce.sim import verify
    from xce.sim.cluster import VirtualCluster

    class Replay:
        job_seq = VirtualCluster.job_seq

        def __init__(self):
            self.jobs, self._next_seq, self.now = {}, 1, 0.0

        def emit(self, kind, job, **data):
            self.jobs[(job["jobid"], job["idx"])] = job

    def row(jobid, idx, submitted, name):
        return {"jobid": jobid, "idx": idx, "user": "u", "uid": 1,
                "name": name, "command": "true", "from_host": "h",
                "outfile": None, "errfile": None, "queue": "normal",
                "submit_time": submitted, "spec": {}}

    rows = {(1, 0): [row(1, 0, 10.0, "old"), row(1, 0, 50.0, "new")],
            (999999, 1): [row(999999, 1, 40.0, "a[1]")],
            (999999, 2): [row(999999, 2, 40.0, "a[2]")]}
    cl, seqs = Replay(), {}
    for when, key in ((10.0, (1, 0)), (40.0, (999999, 1)),
                      (40.0, (999999, 2)), (50.0, (1, 0))):
        cl.now = when
        verify._apply(cl, rows, "SUBMIT", key, {}, seqs)
        got = cl.jobs[key]
        assert got["name"] == rows[key][-1 if when == 50.0 else 0]["name"]
    assert cl.jobs[(1, 0)]["seq"] == 1000000
    assert cl.jobs[(999999, 1)]["seq"] == cl.jobs[(999999, 2)]["seq"] \
        == 999999
