"""bhist -l and bacct over 100,000 finished jobs.

The store of a stopped cluster is filled with the controller's own writer:
100,000 DONE/EXIT copies of a real job, each with its SUBMIT, START,
RUNNING and FINISH events.  The controller is then started again (it
appends those 400,000 events to lsb.events/lsb.acct on the way: timed as
``lsb_events_catchup_s``) and the commands are timed as a user runs them:

  bhist_l_ms      bhist -l <one job>        (look up one job's history)
  bhist_l_all_ms  bhist -l -a               (every job's history, printed)
  bhist_a_ms      bhist -a                  (the time table of every job)
  bacct_ms        bacct                     (the SUMMARY over every job)
  bacct_l_ms      bacct -l <one job>
"""

import sys
import time

from _common import cluster, command, emit, median_ms, note
from _jobs import count_jobs, store_path, template_row, wait_for

N = 100_000


def fill(clu, template, n):
    from xce.store.writer import Store
    store = Store(store_path(clu))
    try:
        first = int(store.meta("next_jobid", 1))
        # Ended half an hour ago: within CLEAN_PERIOD (3600) for the
        # whole run, so every job stays in xce.db (bench_retention.py
        # times their move to history.db).
        base = time.time() - 1800
        for i in range(n):
            jobid = first + i
            t = base + i * 0.01
            done = i % 10 != 0
            row = dict(template, jobid=jobid, seq=jobid, submit_time=t,
                       start_time=t + 2, end_time=t + 30, cpu_time=1.5,
                       stat="DONE" if done else "EXIT",
                       exit_code=0 if done else 1)
            store.event(t, "SUBMIT", jobid, 0, queue=row["queue"],
                        user=row["user"], hold=False)
            store.event(t + 2, "START", jobid, 0,
                        hosts=row["exec_hosts"].split(), attempt=1)
            store.event(t + 2, "RUNNING", jobid, 0, pid=1000 + i,
                        start_time=t + 2, stdout=None)
            store.event(t + 30, "FINISH", jobid, 0, stat=row["stat"],
                        exit_code=row["exit_code"], reason=None,
                        end_time=t + 30, cpu_time=1.5, max_mem=2048,
                        avg_mem=1024)
            store.save_job(row)
        store.set_meta("next_jobid", first + n)
        store.commit()
    finally:
        store.close()
    return first


def timed(clu, runs, *argv):
    command(clu, *argv)                     # warm the page cache
    return median_ms([command(clu, *argv)[0] for _ in range(runs)])


def main():
    with cluster() as clu:
        template = template_row(clu)
        clu.stop()
        note(f"filling the store with {N} finished jobs and their events")
        first = fill(clu, template, N)
        acct = clu.spool / clu.name / "logdir" / "lsb.acct"
        t0 = time.perf_counter()
        clu.start()
        wait_for(lambda: acct.read_bytes().count(b"\n") >= N + 1,
                 timeout=600, what="lsb.acct to catch up")
        emit("lsb_events_catchup_s", time.perf_counter() - t0, "s")
        note(f"store holds {count_jobs(clu)} jobs")
        one = str(first + N // 2)
        emit("bhist_l_ms", timed(clu, 20, "bhist", "-l", one), "ms")
        emit("bacct_ms", timed(clu, 7, "bacct"), "ms")
        emit("bacct_l_ms", timed(clu, 20, "bacct", "-l", one), "ms")
        emit("bhist_a_ms", timed(clu, 3, "bhist", "-a"), "ms")
        emit("bhist_l_all_ms", timed(clu, 3, "bhist", "-l", "-a"), "ms")


if __name__ == "__main__":
    sys.exit(main())
