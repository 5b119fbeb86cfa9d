"""What retention (xce.controller.retention) must not take from LSF's
log files: lsb.events and lsb.acct written again from the start read the
jobs and events moved to history.db too."""

from xce.store import lsbrotate
from xce.store.lsbfiles import EventFiles
from xce.store.writer import Store

from tests.lib.builders import job_row

NOW = 1_000_000.0


def _run_job(store, files, jobid, end, seq=None):
    """Job *jobid* submitted, started and DONE at *end*, one commit (and
    one append to the files) per step, as the controller does."""
    submitted = end - 10
    row = job_row(jobid, "PEND", submit_time=submitted, seq=seq or jobid,
                  name=f"job{jobid}-{seq or jobid}")
    steps = [("SUBMIT", submitted, {"queue": "normal", "user": "alice"}, {}),
             ("START", end - 5, {"hosts": ["h1"], "attempt": 1},
              {"stat": "RUN", "start_time": end - 5, "exec_hosts": "h1",
               "nslots": 1, "attempt": 1}),
             ("FINISH", end, {"stat": "DONE", "end_time": end, "exit_code": 0},
              {"stat": "DONE", "end_time": end, "exit_code": 0})]
    for kind, when, data, change in steps:
        row = dict(row, **change)
        store.save_job(row)
        store.event(when, kind, jobid, **data)
        store.commit()
        files.append_new(now=when)


def _files(logdir):
    return {p.name: p.read_text() for p in sorted(logdir.iterdir())
            if p.name != lsbrotate.STATE_FILE}


def test_a_new_log_directory_gets_the_moved_jobs_too(tmp_path):
    """Jobs moved to history.db, events of no job moved, job id 1 given
    again, lsb.events switched twice: the files written again from the
    start hold the same records, in the same files, as those written as
    it happened."""
    store = Store(tmp_path / "xce.db")
    logdir = tmp_path / "logdir"
    files = EventFiles(logdir, store.db, now=NOW - 1000)
    files.limits = lsbrotate.Limits.from_params({"MAX_JOB_NUM": 2})
    store.event(NOW - 900, "QUEUE_CTRL", queue="normal", op="qclose")
    store.commit()
    for jobid in (1, 2, 3):
        _run_job(store, files, jobid, NOW - 600 + jobid)
    _run_job(store, files, 4, NOW - 5)                  # not moved
    store.retire_jobs(store.expired_jobs(NOW - 100, 10))
    assert store.retire_cluster_events(NOW - 100, 10) == 1
    store.commit()
    _run_job(store, files, 1, NOW - 2, seq=5)          # the id again
    assert store.db.execute("SELECT COUNT(*) FROM main.jobs").fetchone() \
        == (2,)
    before = _files(logdir)
    assert set(before) == {"lsb.events", "lsb.events.1", "lsb.events.2",
                           "lsb.acct"}
    assert before["lsb.acct"].count('"JOB_FINISH"') == 5
    assert before["lsb.events"].count('"job1-5"') == 1
    files.close()
    for path in logdir.iterdir():
        path.unlink()
    again = EventFiles(logdir, store.db, now=NOW - 1000)
    again.limits = files.limits
    again.append_new(now=NOW)
    assert _files(logdir) == before
    assert again.last == store.last_event()
    again.close()
    store.close()
