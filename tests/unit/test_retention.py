"""Retention (xce.controller.retention): finished jobs leave xce.db for
history.db CLEAN_PERIOD after they ended, a bounded batch per turn, and
the readers that keep history (bhist, bacct, fairshare, xce sim) still
see them, each once."""

import sqlite3
import time

import pytest

from xce.controller import retention
from xce.controller.main import Controller
from xce.store.reader import Reader
from xce.store.writer import Store

from tests.lib.builders import job_row, site, site_yaml
from tests.lib.fake_controller import FakeAgentLink, FakeSpool

SITE = site_yaml("keep", {"h1": {"MXJ": 2}}, params={"CLEAN_PERIOD": 100})
NOW = 1_000_000.0


@pytest.fixture
def controller(tmp_path):
    etc = tmp_path / "etc"
    ctl = Controller(site(etc, SITE), etc, spool=FakeSpool(),
                     link_for=FakeAgentLink)
    ctl.start()
    yield ctl
    ctl.store.close()


def _plant(store, first, n, end):
    """Jobs first..first+n-1, DONE at *end*, with two events each."""
    for jobid in range(first, first + n):
        store.save_job(job_row(jobid, "DONE", submit_time=end - 10,
                               start_time=end - 5, end_time=end,
                               exec_hosts="h1", nslots=1, seq=jobid))
        store.event(end - 10, "SUBMIT", jobid, queue="normal", user="alice")
        store.event(end, "FINISH", jobid, stat="DONE", end_time=end)
    store.commit()


def _count(path, table):
    db = sqlite3.connect(path)
    try:
        return db.execute(f"SELECT COUNT(*) FROM {table} WHERE jobid > 0"
                          ).fetchone()[0]
    finally:
        db.close()


def _turns(ctl, now, n):
    for i in range(n):
        ctl.run_once(now + i)


def test_old_jobs_move_in_bounded_batches(controller, monkeypatch):
    ctl = controller
    monkeypatch.setattr(retention, "BATCH", 40)
    _plant(ctl.store, 1, 100, NOW - 500)        # long finished
    _plant(ctl.store, 101, 5, NOW - 10)         # within CLEAN_PERIOD
    ctl.index.load(ctl.store, NOW - 100)
    live, old = ctl.store.path, ctl.store.path.with_name("history.db")
    ctl.run_once(NOW)           # lsb.events is written from these rows
    moved = []
    for i in range(1, 5):
        ctl.run_once(NOW + i)
        moved.append(_count(old, "jobs"))
    assert moved == [40, 80, 100, 100]
    assert _count(live, "jobs") == 5
    assert _count(old, "events") == 200 and _count(live, "events") == 10
    with Reader(live, history=True) as reader:
        rows = reader.jobs()
        assert [r["jobid"] for r in rows] == list(range(1, 106))
        assert len(list(reader.events())) == 210 + _count_job0(live)
    with Reader(live) as reader:
        assert [r["jobid"] for r in reader.jobs()] == list(range(101, 106))


def _count_job0(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM events WHERE jobid = 0"
                          ).fetchone()[0]
    finally:
        db.close()


def test_a_job_still_known_is_not_moved(controller):
    """The index forgets first (CLEAN_PERIOD); a row it still holds
    stays in xce.db."""
    ctl = controller
    _plant(ctl.store, 1, 3, NOW - 50)
    ctl.index.load(ctl.store, NOW - 1000)
    _turns(ctl, NOW, 3)
    assert _count(ctl.store.path, "jobs") == 3
    _turns(ctl, NOW + 100, 3)   # 150 s after: forgotten, then moved
    assert _count(ctl.store.path, "jobs") == 0
    assert ctl.find_jobs(1, None) == []


def test_nothing_moves_while_lsb_events_lags(controller, monkeypatch):
    ctl = controller
    _plant(ctl.store, 1, 3, NOW - 500)
    monkeypatch.setattr(retention.lsbfiles, "written", lambda store: None)
    _turns(ctl, NOW, 3)
    assert _count(ctl.store.path, "jobs") == 3
    monkeypatch.undo()
    _turns(ctl, NOW + 3, 3)
    assert _count(ctl.store.path, "jobs") == 0


def test_a_crash_between_copy_and_delete_shows_each_job_once(tmp_path):
    path = tmp_path / "xce.db"
    store = Store(path)
    _plant(store, 1, 3, NOW - 500)
    store.retire_jobs(store.expired_jobs(NOW, 10))
    store.close()               # the batch holding the deletion is lost
    with Reader(path, history=True) as reader:
        assert [r["jobid"] for r in reader.jobs()] == [1, 2, 3]
        assert len(list(reader.events())) == 6
    store = Store(path)         # the next turn copies them again
    assert [r["end_time"] for r in store.finished_jobs(0)] == [NOW - 500] * 3
    store.retire_jobs(store.expired_jobs(NOW, 10))
    store.commit()
    store.close()
    assert _count(path, "jobs") == 0
    assert _count(tmp_path / "history.db", "jobs") == 3
    with Reader(path, history=True) as reader:
        assert [r["jobid"] for r in reader.jobs()] == [1, 2, 3]


def test_controller_readers_of_old_jobs_read_history_db(tmp_path):
    """Fairshare's reload, the exit rate and JOB_ACCEPT_INTERVAL look
    further back than CLEAN_PERIOD may."""
    path = tmp_path / "xce.db"
    store = Store(path)
    _plant(store, 1, 2, NOW - 500)
    store.retire_jobs(store.expired_jobs(NOW, 1))
    store.commit()
    assert sorted(j["end_time"] for j in store.finished_jobs(NOW - 600)) \
        == [NOW - 500] * 2
    assert len(store.starts_since(NOW - 600)) == 2
    assert store.starts_since(NOW - 400) == []
    store.close()


def test_a_job_id_whose_row_is_still_stored_is_not_given_again(controller):
    ctl = controller
    _plant(ctl.store, 5, 1, NOW - 500)      # forgotten, not yet moved
    ctl.cfg.params["MAX_JOBID"] = "999999"
    ctl._next_jobid = 5
    assert ctl.next_jobid() == 6


def test_a_job_id_given_again_gets_a_later_seq(controller):
    """seq is the job id until the ids wrap, then goes on from the
    highest: the new job queues after the older ones, and its row stays
    apart from the old job's in history.db (key jobid, idx, seq)."""
    ctl = controller
    assert [ctl.job_seq(j) for j in (7, 8, 999999)] == [7, 8, 999999]
    assert ctl.job_seq(1) == 1000000
    ctl.store.commit()
    path = ctl.store.path
    ctl.store.close()
    store = Store(path)
    assert store.next_job_seq() == 1000001
    store.close()
    db = sqlite3.connect(path)
    with db:
        db.execute("DELETE FROM meta WHERE key = 'next_seq'")
    db.close()
    store = Store(path)         # a store of before: after its highest seq
    _plant(store, 3, 1, NOW)
    assert store.next_job_seq() == 4
    store.commit()              # recorded: not looked up again
    store.set_meta("next_jobid", 999999)    # no wrap since: the job id
    store.commit()
    assert store.next_job_seq() == 999999
    store.close()
    ctl.store = Store(path)


def _max_seq(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    finally:
        db.close()


def test_an_event_seq_is_never_given_twice(tmp_path):
    """The newest events may leave xce.db (an idle cluster); SQLite would
    give their seqs again, which lsb.events, written from the last seq on,
    would skip, and history.db would overwrite."""
    path = tmp_path / "xce.db"
    store = Store(path)
    _plant(store, 1, 2, NOW - 500)
    last = _max_seq(path)
    store.retire_jobs(store.expired_jobs(NOW, 10))
    store.commit()
    assert _max_seq(path) is None
    store.event(NOW, "SUBMIT", 3)
    store.commit()
    assert _max_seq(path) == last + 1
    store.save_job(job_row(3, "DONE", end_time=NOW - 500, seq=3))
    store.commit()
    store.retire_jobs(store.expired_jobs(NOW, 10))
    store.commit()
    assert _max_seq(path) is None
    store.close()
    (tmp_path / "history.db").unlink()      # archived by the administrator
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"history.db{suffix}").unlink(missing_ok=True)
    store = Store(path)
    store.event(NOW, "SUBMIT", 4)
    store.commit()
    assert _max_seq(path) == last + 2
    store.close()


def test_a_moved_jobs_messages_and_attached_files_go(controller):
    ctl = controller
    _plant(ctl.store, 1, 2, NOW - 500)
    for jobid in (1, 2):
        ctl.store.save_message(jobid, 0, 0, "alice", NOW - 600, "hi",
                               "notes.txt" if jobid == 1 else None)
    ctl.store.commit()
    folder = ctl.cfg.spool / "attachments"
    folder.mkdir(exist_ok=True)
    (folder / "1.0.0").write_text("secret")
    _turns(ctl, NOW, 3)
    assert _count(ctl.store.path, "job_messages") == 0
    assert not (folder / "1.0.0").exists()
    assert ctl.retention.unlink == []


# --- CLEAN_PERIOD_DONE: DONE jobs apart -----------------------------------

def _plant_one(store, jobid, stat, end):
    store.save_job(job_row(jobid, stat, submit_time=end - 10,
                           start_time=end - 5, end_time=end,
                           exit_code=0 if stat == "DONE" else 3,
                           exec_hosts="h1", nslots=1, seq=jobid))
    store.event(end, "FINISH", jobid, stat=stat, end_time=end)
    store.commit()


def test_done_jobs_leave_after_clean_period_done(controller):
    """CLEAN_PERIOD_DONE: 20 beside CLEAN_PERIOD: 100: a DONE job is
    forgotten and moved 20 s after its end, an EXIT job of the same end
    stays until 100 s."""
    ctl = controller
    ctl.cfg.params["CLEAN_PERIOD_DONE"] = 20
    _plant_one(ctl.store, 1, "DONE", NOW - 50)
    _plant_one(ctl.store, 2, "EXIT", NOW - 50)
    _plant_one(ctl.store, 3, "DONE", NOW - 5)
    ctl.index.load(ctl.store, NOW - 20, NOW - 100)
    assert set(ctl.index.finished) == {(2, 0), (3, 0)}
    _turns(ctl, NOW, 3)
    with Reader(ctl.store.path) as reader:
        assert [r["jobid"] for r in reader.jobs()] == [2, 3]
    assert ctl.find_jobs(1, None) == []
    assert [j["jobid"] for j in ctl.find_jobs(2, None)] == [2]
    _turns(ctl, NOW + 60, 3)    # job 3 is 65 s old, job 2 110 s
    with Reader(ctl.store.path) as reader:
        assert [r["jobid"] for r in reader.jobs()] == []
    with Reader(ctl.store.path, history=True) as reader:
        assert [r["jobid"] for r in reader.jobs()] == [1, 2, 3]


def test_index_expires_done_and_exit_jobs_at_their_own_times(controller):
    ctl = controller
    _plant_one(ctl.store, 1, "DONE", NOW - 50)
    _plant_one(ctl.store, 2, "EXIT", NOW - 50)
    ctl.index.load(ctl.store, NOW - 1000)
    assert sorted(ctl.index.expire(NOW - 100, NOW - 20)) == [1]
    assert sorted(ctl.index.expire(NOW - 20)) == [2]


def test_expired_jobs_take_each_state_by_its_own_cutoff(tmp_path):
    store = Store(tmp_path / "xce.db")
    _plant_one(store, 1, "EXIT", NOW - 50)
    _plant_one(store, 2, "DONE", NOW - 40)
    _plant_one(store, 3, "DONE", NOW - 5)
    assert [k[0] for k in store.expired_jobs(NOW - 100, 10, NOW - 20)] \
        == [2]
    assert [k[0] for k in store.expired_jobs(NOW - 45, 10, NOW - 20)] \
        == [1, 2]
    assert [k[0] for k in store.expired_jobs(NOW - 45, 10)] == [1]
    store.close()


# --- events of no job (job id 0) ------------------------------------------

def _job0_events(store, times):
    for n, when in enumerate(times):
        store.event(when, "RECONFIG" if n % 2 else "QUEUE_CTRL",
                    queue="normal", op="qclose")
    store.commit()


def test_old_events_of_no_job_move_in_seq_order_each_shown_once(tmp_path):
    path = tmp_path / "xce.db"
    store = Store(path)
    _job0_events(store, [NOW - 500, NOW - 400, NOW - 10, NOW - 300])
    with Reader(path) as reader:
        before = list(reader.events())
    # The oldest first, up to the first one within the period: the
    # fourth, older but after a recent one, waits for it.
    assert store.retire_cluster_events(NOW - 100, 10) == 2
    with Reader(path, history=True) as reader:
        assert list(reader.events()) == before     # copied, not deleted yet
    store.commit()
    assert _count_job0(path) == 2
    assert _count_job0(tmp_path / "history.db") == 2
    with Reader(path, history=True) as reader:
        assert list(reader.events()) == before
    assert store.retire_cluster_events(NOW - 100, 10) == 0
    assert store.retire_cluster_events(NOW, 1) == 1        # bounded
    store.commit()
    last = _max_seq(tmp_path / "history.db")
    store.event(NOW, "RECONFIG")
    store.commit()
    assert _max_seq(path) == last + 1 + 1   # after NOW - 300's, kept
    store.close()


def test_the_controller_moves_old_events_of_no_job(controller, monkeypatch):
    """CLEAN_PERIOD after they happened, the oldest first, bounded per
    turn, and only once lsb.events has them."""
    ctl = controller
    monkeypatch.setattr(retention, "EVENT_BATCH", 3)
    live, old = ctl.store.path, ctl.store.path.with_name("history.db")
    later = time.time() + 10_000        # after the controller's start
    _job0_events(ctl.store, [later - 500 + i for i in range(7)])
    total = _count_job0(live)           # with the controller's start
    monkeypatch.setattr(retention.lsbfiles, "written", lambda store: None)
    _turns(ctl, later, 3)
    assert _count_job0(live) == total
    monkeypatch.setattr(retention.lsbfiles, "written",
                        lambda store: store.last_event())
    moved = []
    for i in range(4):
        ctl.run_once(later + 3 + i)
        moved.append(_count_job0(old))
    assert moved == [3, 6, total, total]
    assert _count_job0(live) == 0
    assert ctl.retention.events_moved == total
    with Reader(live, history=True) as reader:
        kinds = [e[1] for e in reader.events() if e[2] == 0]
    assert kinds.count("QUEUE_CTRL") == 4 and len(kinds) == total
