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


def test_host_steps_are_bounded_and_replayed_the_same(tmp_path, monkeypatch):
    from xce.agent import journal
    monkeypatch.setattr(journal, "HOST_STEPS_KEPT", 3)
    j = Journal(tmp_path / "journal")
    for attempt in range(1, 6):
        j.host_steps_record((9, 0, attempt, "host_pre"))
        j.host_steps_record((9, 0, attempt, "host_pre"), attempt)
    j.drop_host_steps((9, 0, 4, "host_pre"))
    j.flush()
    kept = {(9, 0, 3, "host_pre"): 3, (9, 0, 5, "host_pre"): 5}
    assert j.host_steps == kept
    assert Journal(tmp_path / "journal").host_steps == kept


def test_compaction_keeps_host_steps(tmp_path):
    j = Journal(tmp_path / "journal")
    j.host_steps_record((9, 0, 1, "host_post"))     # begun, still running
    j.host_steps_record((9, 0, 2, "host_pre"), 0)
    for n in range(1000):       # enough acknowledged jobs to compact
        j.append("start", (n, 0, 1), msg={}, dir="x")
        j.append("ack", (n, 0, 1))
    j.compact()
    assert len((tmp_path / "journal").read_text().splitlines()) == 2
    assert Journal(tmp_path / "journal").host_steps == {
        (9, 0, 1, "host_post"): None, (9, 0, 2, "host_pre"): 0}


def _lines(path):
    import json
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_record_kind_this_agent_does_not_know_is_skipped_and_logged(
        tmp_path, caplog):
    # As a newer agent may write them: a kind with a job's key and fields
    # a job has (pid), another without a key this agent knows.
    path = tmp_path / "journal"
    j = Journal(path)
    j.append("start", KEY, msg={"job": 7}, dir="x")
    j.append("pid", KEY, pid=123, ptime=9)
    j.flush()
    with open(path, "a") as f:
        f.write('{"t":"newkind","key":[7,0,1],"pid":456,"ptime":1}\n'
                '{"t":"newkind","key":[7,0,1],"pid":789}\n'
                '{"key":[7,0,1],"pid":1}\n'
                '{"t":"other","key":[1,2,3,4,5]}\n')
    j.append("exit", KEY, result={"code": 0})
    j.flush()
    with caplog.at_level("WARNING", logger="xce.agent"):
        again = Journal(path)
    assert again.jobs[KEY] == {"msg": {"job": 7}, "dir": "x", "pid": 123,
                               "ptime": 9, "result": {"code": 0}}
    assert again.skipped == {"newkind": 2, None: 1, "other": 1}
    logged = [r.getMessage() for r in caplog.records]
    assert f"{path}: 2 record(s) of kind 'newkind', unknown to this " \
        "agent, skipped" in logged
    assert len(logged) == 3


def test_a_step_record_never_has_a_jobs_key(tmp_path):
    # An agent older than step records merges a record with a job's key
    # into the job: the step's pid would be taken for the job's.
    path = tmp_path / "journal"
    j = Journal(path)
    j.append("start", KEY, msg={}, dir="x")
    j.step_record((*KEY, "pre"), 555, 42)
    j.flush()
    step = _lines(path)[-1]
    assert step["t"] == "step" and step["key"] == [*KEY, "pre"]
    again = Journal(path)
    assert again.steps == {(*KEY, "pre"): (555, 42)}
    assert "pid" not in again.jobs[KEY]
    # A step record as written before, with the job's key and "stage".
    with open(path, "a") as f:
        f.write('{"t":"step","key":[7,0,1],"stage":"post","pid":6,'
                '"ptime":7}\n')
    assert Journal(path).steps == {(*KEY, "pre"): (555, 42),
                                   (*KEY, "post"): (6, 7)}


def test_compaction_keeps_steps_under_their_own_key(tmp_path):
    path = tmp_path / "journal"
    j = Journal(path)
    j.append("start", KEY, msg={}, dir="x")
    j.step_record((*KEY, "pre"), 555, 42)
    for n in range(100, 1100):      # acknowledged jobs, to compact
        j.append("start", (n, 0, 1), msg={}, dir="x")
        j.append("ack", (n, 0, 1))
    j.compact()
    assert [r["key"] for r in _lines(path)] == [list(KEY), [*KEY, "pre"]]
    assert Journal(path).steps == {(*KEY, "pre"): (555, 42)}
