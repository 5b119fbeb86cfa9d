"""The state store: forward migrations, one transaction per batch, read-only readers."""

import sqlite3

import pytest

from xce.errors import XceError
from xce.store import schema
from xce.store.reader import Reader
from xce.store.writer import Store, StoreTooNew

from tests.lib.builders import job_row


def test_an_old_store_is_migrated_forward(tmp_path):
    path = tmp_path / "xce.db"
    db = sqlite3.connect(path)
    db.executescript(schema.MIGRATIONS[0] + "PRAGMA user_version=1;")
    db.close()
    store = Store(path)
    version = store.db.execute("PRAGMA user_version").fetchone()[0]
    assert version == schema.SCHEMA_VERSION
    store.private.execute("SELECT env, jobfile FROM job_data")
    store.close()


def test_job_data_leaves_the_store_every_user_reads(tmp_path):
    """A store of version 6 kept environments and scripts in xce.db; the
    migration moves them to private.db (0600) and drops them there."""
    path = tmp_path / "xce.db"
    db = sqlite3.connect(path)
    db.executescript("".join(schema.MIGRATIONS[v] for v in range(6)) +
                     "PRAGMA user_version=6;")
    db.execute("INSERT INTO job_data VALUES(7, 0, '{\"TOKEN\": \"s\"}', "
               "'#!/bin/sh')")
    db.commit()
    db.close()
    store = Store(path)
    assert store.job_data(7, 0) == ('{"TOKEN": "s"}', "#!/bin/sh")
    # Synced before xce.db drops them: in the database file itself, not
    # only in the write-ahead log its commits leave unsynced.
    moved = sqlite3.connect(f"file:{tmp_path / 'private.db'}?immutable=1",
                            uri=True)
    assert moved.execute("SELECT jobid FROM job_data").fetchall() == [(7,)]
    moved.close()
    assert store.db.execute("SELECT name FROM sqlite_master WHERE "
                            "name='job_data'").fetchone() is None
    store.save_job_data(8, 0, "{}", "x")
    store.commit()
    for suffix in ("", "-wal", "-shm"):
        private = tmp_path / f"private.db{suffix}"
        if private.exists():
            assert private.stat().st_mode & 0o777 == 0o600, suffix
    assert (tmp_path / "xce.db").stat().st_mode & 0o777 == 0o644
    store.close()


def test_only_the_store_every_user_reads_is_synced_at_each_commit(tmp_path):
    """xce.db keeps synchronous=FULL (a reply or a dispatch follows its
    commit); private.db, committed before it, is synced at checkpoints
    only (NORMAL): a power loss may lose its last rows, whose jobs then
    end EXIT with the reason."""
    store = Store(tmp_path / "xce.db")
    for db, level in ((store.db, 2), (store.private, 1)):
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == level
    store.close()


def test_forgotten_jobs_lose_their_private_data(tmp_path):
    store = Store(tmp_path / "xce.db")
    for jobid in (1, 2):
        store.save_job_data(jobid, 0, "{}", "a")
        store.save_job_data(jobid, -1, "[]", None)
    store.commit()
    assert store.job_data_ids() == {1, 2}
    mark = store.mark()
    store.forget_job_data([1])
    store.rollback_to(mark)             # an undone request forgets nothing
    store.commit()
    assert store.job_data_ids() == {1, 2}
    store.forget_job_data([1])
    store.commit()
    assert store.job_data_ids() == {2}
    assert store.job_data(1, 0) is None and store.staged_data(1) is None
    store.close()


def test_private_rows_commit_before_the_jobs_that_need_them(tmp_path):
    """A batch whose store half fails leaves private rows of no job (done
    again when the request is), never a job without its data."""
    store = Store(tmp_path / "xce.db")
    store.save_job_data(3, 0, "{}", "s")
    store.save_job(job_row(3))
    store.execute("INSERT INTO no_such_table VALUES(1)")
    with pytest.raises(sqlite3.OperationalError):
        store.commit()
    assert store.load_jobs() == []
    assert store.job_data(3, 0) == ("{}", "s")
    store.close()


def test_a_newer_store_is_refused(tmp_path):
    path = tmp_path / "xce.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={schema.SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreTooNew):
        Store(path)


def test_a_batch_commits_events_and_rows_together(tmp_path):
    store = Store(tmp_path / "xce.db")
    store.set_meta("cluster", "c")
    for n in range(1, 4):
        store.event(1.0, "SUBMIT", n, 0)
        store.save_job(job_row(n))
    with Reader(tmp_path / "xce.db") as reader:
        assert reader.jobs() == []          # nothing visible before commit
    store.commit()
    with Reader(tmp_path / "xce.db") as reader:
        assert [j["jobid"] for j in reader.jobs()] == [1, 2, 3]
    events = store.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert events == 3
    store.close()


def test_a_failed_batch_changes_nothing(tmp_path):
    store = Store(tmp_path / "xce.db")
    store.set_meta("cluster", "c")
    store.commit()
    store.save_job(job_row(1))
    store.execute("INSERT INTO no_such_table VALUES(1)")
    with pytest.raises(sqlite3.OperationalError):
        store.commit()
    assert store.load_jobs() == []
    store.close()


def test_reader_needs_a_store(tmp_path):
    with pytest.raises(XceError):
        Reader(tmp_path / "missing.db")
