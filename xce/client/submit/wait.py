"""bsub -K: wait for a job to finish and return its exit code."""

import os
import sys
import time

from xce.store.reader import Reader

POLL = 0.1


def wait_for_job(site, jobid):
    quiet = os.environ.get("BSUB_QUIET2")
    if not quiet:
        print("<<Waiting for dispatch ...>>", file=sys.stderr, flush=True)
    started = False
    while True:
        rows = _rows(site, jobid)
        stat = rows[0]["stat"] if rows else None
        if stat in ("RUN", "DONE", "EXIT") and not started and \
                rows[0]["exec_hosts"]:
            started = True
            if not quiet and str(site.setting("LSB_SUBK_SHOW_EXEC_HOST",
                                              "")).upper() in ("Y", "YES"):
                host = rows[0]["exec_hosts"].split()[0]
                print(f"<<Starting on {host}>>", file=sys.stderr, flush=True)
        if stat in ("DONE", "EXIT"):
            if not quiet:
                print("<<Job is finished>>", file=sys.stderr, flush=True)
            if stat == "DONE":
                return 0
            code = rows[0]["exit_code"]
            return 126 if not started else (code if code is not None else 1)
        time.sleep(POLL)


def _rows(site, jobid):
    """The job's row; once it has left the store (CLEAN_PERIOD after it
    ended, before this bsub looked again), the one history.db holds."""
    with Reader(site.store_path) as reader:
        rows = reader.jobs("jobid=?", (jobid,),
                           ("stat", "exec_hosts", "exit_code"))
        if not rows:
            rows = reader.with_history().jobs(
                "jobid=?", (jobid,), ("stat", "exec_hosts", "exit_code"))
    return rows
