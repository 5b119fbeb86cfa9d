"""Retention: the controller's turns while 100,000 finished jobs, ended
two hours ago (CLEAN_PERIOD 3600), leave xce.db for history.db.

The store of a stopped cluster is filled with the controller's writer
(each job with its SUBMIT, START, RUNNING and FINISH events); the
controller then runs in process (no agent) turn after turn:

  retention_turn_max ms       the longest turn while the backlog drains
                              (one batch: copy to history.db, commit,
                              delete from xce.db with the turn)
  retention_turn_median ms    the median of those turns
  retention_turn_p90 ms       and their 90th percentile
  retention_drain s           all 100,000 moved (turns one after another)
  idle_turn_before ms         a turn before the first look (what every
                              turn cost while nothing was ever moved)
  idle_turn_after ms          a turn with nothing left to move
  xce_db_pages_before         xce.db's pages in use with the 100,000
  xce_db_pages_after          and once they moved (free pages aside)
  bhist_lookup_history ms     one moved job's events through the reader's
                              history views (bhist -l's query)
"""

import statistics
import tempfile
import time
from pathlib import Path

from _common import emit, note

from tests.lib.xcecluster import Cluster
from xce.config import load as config_load
from xce.controller.main import Controller

N = 100_000


def fill(path, n, ended):
    from xce.store.writer import Store
    store = Store(path)
    try:
        for jobid in range(1, n + 1):
            t = ended - 60 + jobid * 0.001
            store.save_job({
                "jobid": jobid, "idx": 0, "stat": "DONE", "user": "alice",
                "uid": 1000, "queue": "normal", "name": "job",
                "command": "true", "submit_time": t, "start_time": t + 2,
                "end_time": t + 30, "from_host": "h", "exec_hosts": "h",
                "nslots": 1, "attempt": 1, "exit_code": 0, "seq": jobid,
                "cpu_time": 1.5, "spec": {"command": "true"}})
            store.event(t, "SUBMIT", jobid, 0, queue="normal", user="alice",
                        hold=False)
            store.event(t + 2, "START", jobid, 0, hosts=["h"], attempt=1)
            store.event(t + 2, "RUNNING", jobid, 0, pid=1000,
                        start_time=t + 2, stdout=None)
            store.event(t + 30, "FINISH", jobid, 0, stat="DONE",
                        exit_code=0, end_time=t + 30, cpu_time=1.5)
        store.set_meta("next_jobid", n + 1)
        store.commit()
    finally:
        store.close()


def left(ctl):
    return ctl.store.db.execute("SELECT COUNT(*) FROM main.jobs"
                                ).fetchone()[0]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        clu = Cluster(Path(tmp) / "c", mxj=1, host_extra="launch: none")
        cfg = config_load.load(clu.envdir)
        path = cfg.spool / "store" / "xce.db"
        now = time.time()
        fill(path, N, now - 7200)
        ctl = Controller(cfg, clu.envdir)
        ctl.start()
        # lsb.events catches up first (10,000 events a turn).
        while ctl.store.last_event() > _written(ctl):
            ctl.run_once()
        note(f"{left(ctl)} jobs in xce.db before")
        emit("xce_db_pages_before", _pages(ctl), "pages")
        ctl.retention.due = float("inf")
        t = time.perf_counter()
        ctl.run_once()
        emit("idle_turn_before", (time.perf_counter() - t) * 1000, "ms")
        ctl.retention.due = 0.0
        turns = []
        t0 = time.perf_counter()
        while left(ctl):
            t = time.perf_counter()
            ctl.run_once()
            turns.append((time.perf_counter() - t) * 1000)
        emit("retention_drain", time.perf_counter() - t0, "s")
        emit("retention_turn_max", max(turns), "ms")
        emit("retention_turn_median", statistics.median(turns), "ms")
        slow = sorted(range(len(turns)), key=turns.__getitem__)[-3:]
        note(f"{len(turns)} turns; the slowest: " + ", ".join(
            f"turn {i} {turns[i]:.0f} ms" for i in reversed(slow)))
        emit("retention_turn_p90", statistics.quantiles(turns, n=10)[-1],
             "ms")
        t = time.perf_counter()
        ctl.run_once()
        emit("idle_turn_after", (time.perf_counter() - t) * 1000, "ms")
        emit("xce_db_pages_after", _pages(ctl), "pages")
        ctl.store.close()
        from xce.store.reader import Reader
        with Reader(path, history=True) as reader:
            t = time.perf_counter()
            found = reader.job_events([(N // 2, 0)])
            emit("bhist_lookup_history", (time.perf_counter() - t) * 1000,
                 "ms")
            assert len(found[(N // 2, 0)]) == 4


def _pages(ctl):
    """Pages of xce.db in use (its free list aside)."""
    db = ctl.store.db
    return db.execute("PRAGMA main.page_count").fetchone()[0] - \
        db.execute("PRAGMA main.freelist_count").fetchone()[0]


def _written(ctl):
    from xce.store import lsbfiles
    return lsbfiles.written(ctl.store) or 0


if __name__ == "__main__":
    main()
