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
    store.db.execute("SELECT env, jobfile FROM job_data")
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
