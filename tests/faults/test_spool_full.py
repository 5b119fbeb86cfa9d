"""A full spool file system (a small tmpfs): the controller stays up,
refuses new jobs with one clear line, lets running jobs end, and resumes by
itself when space returns."""

import contextlib
import errno
import os
import sqlite3
import subprocess

import pytest

from tests.lib.xcecluster import Cluster, _alive, wait_for

TMPFS_MB = 48
MIN_FREE_MB = 8


def _fill(path, leave):
    """Write *path* until the file system is full, then give back *leave*
    bytes."""
    chunk = b"\0" * (1 << 20)
    with open(path, "wb", buffering=0) as f:
        for size in (1 << 20, 4096, 1):
            while True:
                try:
                    f.write(chunk[:size])
                except OSError as e:
                    assert e.errno == errno.ENOSPC
                    break
        if leave:
            f.truncate(max(0, f.tell() - leave))


@contextlib.contextmanager
def _tmpfs(path):
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    path.mkdir(parents=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_MB}m",
                    "xce-test-spool", str(path)], check=True)
    try:
        yield path
    finally:
        # A daemon that was just stopped may hold it for a moment.
        try:
            wait_for(lambda: subprocess.run(
                ["umount", str(path)], capture_output=True).returncode == 0,
                what=f"{path} to be unmounted")
        finally:
            subprocess.run(["umount", "-l", str(path)], capture_output=True)


@pytest.fixture
def small_spool(tmp_path):
    c = Cluster(tmp_path / "c",
                extra_params=f"  XCE_SPOOL_MIN_FREE: {MIN_FREE_MB}")
    with _tmpfs(c.spool):
        try:
            yield c.start()
        finally:
            c.stop()


def test_a_commit_on_a_full_disk_keeps_its_batch_for_the_next(tmp_path):
    from xce.store.writer import Store, StoreFull
    with _tmpfs(tmp_path / "fs") as fs:
        store = Store(fs / "xce.db")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _fill(fs / "filler", leave=0)
        for n in range(2000):
            store.event(float(n), "TEST", n, 0, text="x" * 100)
        with pytest.raises(StoreFull):
            store.commit()
        assert store.pending_writes()
        os.unlink(fs / "filler")
        store.commit()
        assert not store.pending_writes()
        count = store.db.execute(
            "SELECT COUNT(*) FROM events WHERE kind='TEST'").fetchone()[0]
        store.close()
    assert count == 2000


def _refused(r):
    assert (r.rc, r.out) == (255, ""), r
    assert len(r.err.splitlines()) == 1, r
    assert r.err.startswith("No space left in the spool: "), r


def test_a_full_spool_refuses_new_jobs_and_the_controller_stays_up(
        small_spool, tmp_path):
    c = small_spool
    assert not os.stat(c.spool).st_mode & 0o022     # the tmpfs was 1777
    filler = c.spool / "filler"
    running = c.submit("-o", str(tmp_path / "run.out"), "sleep 3; echo end")
    c.wait_stat(running, "RUN")
    # Below the minimum, with room left for what runs.
    _fill(filler, leave=2 << 20)
    r = c.run("bsub", "true")
    _refused(r)
    assert "below XCE_SPOOL_MIN_FREE (8 MB)" in r.err
    assert r.err.endswith("Job not submitted.\n"), r
    c.wait_stat(running, "DONE")
    # Not a byte left: bsub cannot even write its request.
    _fill(c.spool / "filler2", leave=0)
    _refused(c.run("bsub", "true"))
    assert c.proc.poll() is None
    assert c.run("bjobs", "-noheader", str(running)).rc == 0
    # Space returns: work resumes without a restart.
    os.unlink(filler)
    os.unlink(c.spool / "filler2")
    jobid = c.submit("true")
    c.wait_stat(jobid, "DONE")
    assert c.proc.poll() is None
    assert "No space left in the spool" in c.log_tail()


def test_a_job_that_ends_on_a_full_spool_is_reported_when_room_returns(
        small_spool, tmp_path):
    c = small_spool
    # The job ends once the spool is full, not after a guessed 2 s (which
    # a loaded machine could spend before the spool was filled).
    go = tmp_path / "go"
    running = c.submit("-o", str(tmp_path / "run.out"),
                       f"while [ ! -e {go} ]; do sleep 0.1; done; echo end")
    c.wait_stat(running, "RUN")
    pid = wait_for(lambda: c.job_pid(running), what="the job's pid")
    # An empty write-ahead log: the next commit must grow it, and cannot.
    db = sqlite3.connect(c.spool / "store" / "xce.db")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    _fill(c.spool / "filler", leave=0)
    go.write_text("")
    wait_for(lambda: "end" in (tmp_path / "run.out").read_text().split()
             and not _alive(pid), timeout=30, what="the job to end")
    assert c.proc.poll() is None
    # The controller answers (it refuses); the end is not written yet.
    _refused(c.run("bsub", "true"))
    assert c.stat(running) == "RUN"
    os.unlink(c.spool / "filler")
    c.wait_stat(running, "DONE", timeout=60)
    jobid = c.submit("true")
    c.wait_stat(jobid, "DONE")
    assert c.proc.poll() is None
