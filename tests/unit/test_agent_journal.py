"""The agent journal: records reach the kernel at flush (a crashed agent's
successor reads them), and the fsync is owed until sync, not skipped."""

from xce.agent.journal import FSYNC_INTERVAL, Journal

KEY = (7, 0, 1)


def test_flushed_records_are_read_by_a_new_journal(tmp_path):
    path = tmp_path / "journal"
    j = Journal(path)
    j.append("start", KEY, msg={"job": 7}, dir="d/7.0.1")
    j.append("pid", KEY, pid=123)
    j.flush()
    # No close and no fsync: as if the agent were killed here.
    again = Journal(path)
    assert again.jobs[KEY] == {"msg": {"job": 7}, "dir": "d/7.0.1",
                               "pid": 123}


def test_unflushed_records_are_not_claimed(tmp_path):
    j = Journal(tmp_path / "journal")
    j.append("start", KEY, msg={}, dir="x")
    assert j.fsync_deadline() is None       # nothing handed over yet
    assert Journal(tmp_path / "journal").jobs == {}


def test_fsync_is_owed_after_flush_and_paid_by_sync(tmp_path):
    j = Journal(tmp_path / "journal")
    j.append("start", KEY, msg={}, dir="x")
    j.flush()
    due = j.fsync_deadline()
    assert due is not None and due - j.unsynced_since == FSYNC_INTERVAL
    j.append("exit", KEY, result={"code": 0})
    j.flush()
    assert j.fsync_deadline() == due        # the first waiting record counts
    j.sync()
    assert j.fsync_deadline() is None
    assert Journal(tmp_path / "journal").jobs[KEY]["result"] == {"code": 0}
