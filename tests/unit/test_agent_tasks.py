"""blaunch tasks in the agent's journal and their re-adoption after a
restart: a task still running is watched (not killed, not restarted), one
that ended meanwhile is reported with the status its wrapper wrote."""

import os
import signal
import subprocess

from xce.agent import procs
from xce.agent.journal import Journal
from xce.agent.tasks import ADOPTED_POLL, TaskTable

KEY = (7, 0, 2)


def _journal_task(j, pid, status, ptime=None):
    j.append_task(pid, KEY, msg={"job": 7, "idx": 0, "attempt": 2,
                                 "task": "r1", "n": 0},
                  ptime=ptime, status=str(status))
    j.flush()


def test_task_records_outlive_the_agent_and_compaction(tmp_path):
    j = Journal(tmp_path / "journal")
    _journal_task(j, 101, tmp_path / "a")
    _journal_task(j, 102, tmp_path / "b")
    j.end_task(101, KEY, "7.0.2.r1.0", {"op": "task_exit"})
    j.flush()
    again = Journal(tmp_path / "journal")
    assert list(again.tasks) == [102]
    assert list(again.task_done) == ["7.0.2.r1.0"]
    assert again.jobs == {}         # tasks are no jobs here
    again._dead = 1000              # as after 1000 acknowledged jobs
    again.compact()
    compacted = Journal(tmp_path / "journal")
    assert list(compacted.tasks) == [102]
    assert list(compacted.task_done) == ["7.0.2.r1.0"]


def test_a_task_that_ended_while_the_agent_was_down_is_reported(tmp_path):
    status = tmp_path / "st"
    status.write_text("3\n")
    j = Journal(tmp_path / "journal")
    _journal_task(j, 999999, status)        # no such process
    out = []
    table = TaskTable(out, lambda: 0.0, Journal(tmp_path / "journal"))
    table.recover()
    assert [(m["op"], m["exit_code"], m["task"]) for m in out] == \
        [("task_exit", 3, "r1")]
    assert Journal(tmp_path / "journal").tasks == {}
    assert not status.exists()


def test_a_running_task_is_readopted_then_reported_when_it_ends(tmp_path):
    child = subprocess.Popen(["sleep", "30"])
    try:
        status = tmp_path / "st"
        j = Journal(tmp_path / "journal")
        _journal_task(j, child.pid, status, procs.start_ticks(child.pid))
        out, clock = [], [100.0]
        table = TaskTable(out, lambda: clock[0],
                          Journal(tmp_path / "journal"))
        table.recover()
        assert out == [] and list(table.by_pid) == [child.pid]
        assert table.next_deadline() == 100.0 + ADOPTED_POLL
        child.send_signal(signal.SIGTERM)
        child.wait()
        status.write_text("143\n")
        clock[0] += ADOPTED_POLL
        table.run_timers(clock[0])
        assert [(m["op"], m["exit_code"]) for m in out] == \
            [("task_exit", 143)]
        assert table.by_pid == {}
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            child.wait()


def test_a_reused_pid_is_not_taken_for_the_task(tmp_path):
    j = Journal(tmp_path / "journal")
    # Our own pid, but with another start time: not the task.
    _journal_task(j, os.getpid(), tmp_path / "none", ptime=1)
    out = []
    TaskTable(out, lambda: 0.0, Journal(tmp_path / "journal")).recover()
    assert [(m["op"], m["exit_code"]) for m in out] == \
        [("task_exit", 128 + signal.SIGKILL)]


def test_an_exit_is_kept_until_the_controller_acknowledges_it(tmp_path):
    status = tmp_path / "st"
    status.write_text("6\n")
    j = Journal(tmp_path / "journal")
    _journal_task(j, 999999, status)
    out = []
    table = TaskTable(out, lambda: 0.0, Journal(tmp_path / "journal"))
    table.recover()
    # Not acknowledged: a restarted agent sends it again at its hello.
    again = TaskTable([], lambda: 0.0, Journal(tmp_path / "journal"))
    assert [m["exit_code"] for m in again.hello_exits()] == [6]
    again.acked(out[0])
    again.journal.flush()
    assert TaskTable([], lambda: 0.0,
                     Journal(tmp_path / "journal")).hello_exits() == []


def test_acknowledged_task_exits_keep_the_journal_bounded(tmp_path,
                                                          monkeypatch):
    """A host that only runs blaunch tasks: each acknowledged exit counts
    towards compaction as an acknowledged job does, so the file does not
    grow with the number of tasks."""
    from xce.agent import journal
    monkeypatch.setattr(journal, "COMPACT_AFTER", 50)
    path = tmp_path / "journal"
    table = TaskTable([], lambda: 0.0, Journal(path))
    j = table.journal
    _journal_task(j, 4242, tmp_path / "running")   # one still running
    lines = []
    for n in range(1000):
        key = (100 + n, 0, 1)
        msg = {"job": key[0], "idx": 0, "attempt": 1, "task": "t", "n": 0}
        j.append_task(5000 + n, key, msg=msg, ptime=None, status="s")
        report = {"op": "task_exit", **msg, "exit_code": 0}
        j.end_task(5000 + n, key, f"{key[0]}.0.1.t.0", report)
        table.acked(report)
        j.flush()
        lines.append(len(path.read_text().splitlines()))
    # Three records a task, compacted every 50 acknowledgements.
    assert max(lines) <= 1 + 3 * 50
    again = Journal(path)
    assert list(again.tasks) == [4242] and again.task_done == {}
