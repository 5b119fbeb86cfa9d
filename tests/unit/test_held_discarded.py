"""A held start its agent discarded before the go (agent protocol 15):
the agent lists it at hello until the controller acknowledges it, and
the controller sends such a job, UNKWN with its link, back to PEND as a
start that failed (LSF's PEND_JOB_START_FAIL), never as an exit or a
requeue; a job the agent does not list is left to host loss."""

import json

from xce.agent.held import Held, _Held
from xce.agent.jobs import JobTable
from xce.agent import journal
from xce.agent.journal import DISCARDED_KEEP, Journal
from xce.client.history.long import event_lines
from xce.client.jobs.table import pend_reasons
from xce.config.model import Config
from xce.controller import hostloss, startgo
from xce.controller.apply import apply
from xce.model import states
from xce.store.lsbfiles import records
from xce.store.schema import JOB_COLUMNS

from tests.lib.builders import job_row
from tests.lib.fake_controller import FakeAgentLink, FakeController

FAILED = "Failed in talking to server to start the job"


def _ctl():
    ctl = FakeController(Config(path=None),
                         hosts={"h1": {"seen": True}, "h2": {"seen": True}})
    ctl.links = {"h1": FakeAgentLink("h1"), "h2": FakeAgentLink("h2")}
    return ctl


def _started(ctl, jobid, host="h1", attempt=2):
    return ctl.add(job_row(jobid, states.RUN, exec_hosts=host,
                           attempt=attempt, start_time=5.0,
                           spec={"command": "true"}))


def _hello(*keys):
    return {"discarded": [{"job": j, "idx": i, "attempt": a}
                          for j, i, a in keys]}


def test_a_discarded_start_goes_back_to_pend_as_never_dispatched():
    ctl = _ctl()
    job = _started(ctl, 1)
    ctl.hosts["h1"]["seen"] = False
    hostloss.mark_unknown(ctl, "h1")
    startgo.discarded(ctl, "h1", _hello((1, 0, 2)), known=set())
    assert job["stat"] == states.PEND
    assert job["exec_hosts"] is job["start_time"] is job["exit_code"] is None
    assert json.loads(job["pend_reason"]) == [[FAILED, None]]
    assert pend_reasons(job) == [f" {FAILED};"]        # bjobs -p
    assert "unkwn" not in job["spec"] and "auto_requeues" not in job["spec"]
    assert [k for k, _, _ in ctl.events] == ["STATUS", "STATUS"]
    assert ctl.events[-1][2]["start_failed"] is True
    # Acknowledged with the turn's other messages, after its commit.
    assert ctl.links["h1"].out == [{"op": "discarded_ack",
                                    "jobs": [[1, 0, 2]]}]
    # Host loss then has nothing left to end.
    hostloss.unknown_to(ctl, "h1", set())
    assert job["stat"] == states.PEND


def test_only_a_listed_start_of_the_current_attempt_unknown_here_goes_back():
    ctl = _ctl()
    ran = _started(ctl, 1)              # listed, but the agent runs it
    older = _started(ctl, 2, attempt=3)  # an earlier attempt was listed
    elsewhere = _started(ctl, 3, host="h2")
    running = _started(ctl, 4)          # not UNKWN: its start is resent
    for job in (ran, older, elsewhere):
        apply(job, "STATUS", {"stat": states.UNKWN, "was": states.RUN}, 1.0)
    startgo.discarded(ctl, "h1", _hello((1, 0, 2), (2, 0, 2), (3, 0, 2),
                                        (4, 0, 2)), known={(1, 0, 2)})
    assert [j["stat"] for j in (ran, older, elsewhere, running)] == [
        states.UNKWN, states.UNKWN, states.UNKWN, states.RUN]
    assert ctl.events == []
    # Every listed start is acknowledged, so that the agent forgets it.
    assert ctl.links["h1"].out[0]["jobs"] == [
        [1, 0, 2], [2, 0, 2], [3, 0, 2], [4, 0, 2]]


def test_a_hello_without_the_list_changes_nothing():
    ctl = _ctl()
    job = _started(ctl, 1)
    apply(job, "STATUS", {"stat": states.UNKWN, "was": states.RUN}, 1.0)
    startgo.discarded(ctl, "h1", {"jobs": []}, known=set())
    assert job["stat"] == states.UNKWN and ctl.links["h1"].out == []


def test_lsb_events_has_a_job_status_back_to_pend_with_start_fail():
    row = (1, 1700000000.5, "STATUS", 7, 0,
           json.dumps({"stat": "PEND", "start_failed": True})) + tuple(
        {"jobid": 7, "idx": 0, "stat": "PEND"}.get(c) for c in JOB_COLUMNS)
    events, acct = [], []
    records(row, events, acct)
    assert acct == [] and len(events) == 1
    words = events[0].split(" ")
    assert words[0] == '"JOB_STATUS"' and words[3:6] == ["7", "1", "1603"]


def test_bhist_says_the_start_failed():
    lines = event_lines({"user": "alice"}, {}, "/home/alice", 0.0, "STATUS",
                        {"stat": "PEND", "start_failed": True})
    assert lines[0].endswith(f": Pending: {FAILED};")


class _Table(Held):
    def __init__(self, path):
        self._init_held()
        self.journal = Journal(path)
        self.removed = []

    def discard_files(self, prefix):
        self.removed.append(prefix)


def test_the_agent_lists_discarded_starts_until_acknowledged(tmp_path):
    table = _Table(tmp_path / "journal")
    for key in ((1, 0, 1), (2, 0, 1)):
        table.held[key] = _Held({"job": key[0]}, f"/x/{key[0]}")
    table.discard_held("end of stream")
    assert table.held == {} and table.removed == ["/x/1", "/x/2"]
    assert table.hello_discarded() == [
        {"job": 1, "idx": 0, "attempt": 1}, {"job": 2, "idx": 0, "attempt": 1}]
    table.discarded_ack({"op": "discarded_ack", "jobs": [[1, 0, 1]]})
    assert table.hello_discarded() == [{"job": 2, "idx": 0, "attempt": 1}]
    # The ack is on disk at once: after it a restarted controller may
    # send that attempt's start again, which then is not synced first.
    assert table.journal.fsync_deadline() is None
    # Journalled: an agent restarted after kill -9 still lists them.
    assert _Table(tmp_path / "journal").hello_discarded() == [
        {"job": 2, "idx": 0, "attempt": 1}]


def test_the_agent_keeps_a_bounded_list(tmp_path):
    table = _Table(tmp_path / "journal")
    for n in range(DISCARDED_KEEP + 5):
        table.held[(n, 0, 1)] = _Held({"job": n}, f"/x/{n}")
        table.discard_held("again")
    listed = table.hello_discarded()
    assert len(listed) == DISCARDED_KEEP and listed[0]["job"] == 5
    again = _Table(tmp_path / "journal").hello_discarded()
    assert again == listed      # the same at replay
    # Pushed out, the oldest is no longer listed: synced, so that a disk
    # that lost the newer discards does not list it again.
    assert table.journal.fsync_deadline() is None


def _discarded_then_held_again(tmp_path, key):
    table = JobTable(tmp_path / "agent", tmp_path / "out", lambda: 0.0)
    table.journal.append("discard", key)
    table.journal.flush()
    table.held[key] = _Held({}, "/x")       # already prepared again
    table.start_batch([{"op": "start", "job": 1, "idx": 0, "attempt": 2,
                        "hold": True}])
    return table


def test_a_start_journalled_again_is_no_longer_listed_as_discarded(
        tmp_path, monkeypatch):
    key = (1, 0, 2)
    table = _discarded_then_held_again(tmp_path, key)
    # Held again, it has not run: still true, still listed (the link
    # dropping again would discard it again anyway).
    assert table.hello_discarded() == [{"job": 1, "idx": 0, "attempt": 2}]
    monkeypatch.setattr(table, "_go", lambda key, held: None)
    synced = []
    real_sync = table.journal.sync
    monkeypatch.setattr(table.journal, "sync",
                        lambda: synced.append(1) or real_sync())
    table.go_batch([{"op": "go", "job": 1, "idx": 0, "attempt": 2}])
    assert table.hello_discarded() == []
    # The start that supersedes the discard is on disk before the job
    # may run: a host crash cannot leave the discard without it.
    assert synced and table.journal.fsync_deadline() is None
    assert Journal(tmp_path / "agent" / "journal").discarded == {}


def test_a_start_of_a_later_attempt_supersedes_a_discard(tmp_path,
                                                        monkeypatch):
    j = Journal(tmp_path / "journal")
    j.append("discard", (1, 0, 2))
    j.append("discard", (5, 0, 1))
    j.append("start", (1, 0, 1), msg={}, dir="x")   # an earlier one
    assert j.discarded == {(1, 0): 2, (5, 0): 1}
    j.append("start", (1, 0, 3), msg={}, dir="x")
    j.append("discard_ack", (5, 0, 7))          # not the attempt listed
    j.flush()
    assert Journal(tmp_path / "journal").discarded == {(5, 0): 1}
    j._dead = 10 ** 6
    synced = []
    monkeypatch.setattr(journal, "_sync_dir", synced.append)
    j.compact()
    # Its rename on disk: the older file, with discards it had ended,
    # cannot come back after a host crash.
    assert synced == [str(tmp_path)]
    assert Journal(tmp_path / "journal").discarded == {(5, 0): 1}
    j.append("discard_ack", (5, 0, 1))
    j.flush()
    assert Journal(tmp_path / "journal").discarded == {}
