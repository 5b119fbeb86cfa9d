"""Throughput: 1,000 ``true`` jobs with 2 slots (MXJ 2) and 64 slots (MXJ 64).

The jobs are spooled first (from this process, see _jobs.spool_submit)
while the queue is inactive, so intake is not part of the figure; the clock
runs from just before the queue is activated until the store shows all
1,000 finished.  The queue is switched with ``badmin`` when that command is
installed, else with the same admin request sent through the spool library.
Targets (issue 2): >= 200 jobs/s on 2 slots, >= 300 jobs/s on 64.
"""

import sys
import time

from _common import cluster, command, emit, has_command, note
from _jobs import admin, count_jobs, spool_submit, wait_count

JOBS = 1000
QUEUE = "normal"
FINISHED = "stat IN ('DONE','EXIT')"


def queue_op(clu, op):
    if has_command("badmin"):
        command(clu, "badmin", op, QUEUE)
    else:
        admin(clu, op, QUEUE)


def measure(slots, jobs=JOBS):
    """Seconds from activation until *jobs* are finished, on MXJ *slots*."""
    with cluster(mxj=slots) as clu:
        queue_op(clu, "qinact")
        spool_submit(clu, jobs, ["true"])
        t0 = time.perf_counter()
        queue_op(clu, "qact")
        wait_count(clu, jobs, FINISHED)
        elapsed = time.perf_counter() - t0
        failed = count_jobs(clu, "stat='EXIT'")
    if failed:
        note(f"{failed} of {jobs} jobs exited non-zero on {slots} slots")
    return elapsed


def main():
    note("badmin " + ("command" if has_command("badmin")
                      else "not installed: admin request via the library"))
    for slots in (2, 64):
        elapsed = measure(slots)
        note(f"{JOBS} jobs on {slots} slots in {elapsed:.2f} s")
        emit(f"throughput_{slots}slots", JOBS / elapsed, "jobs/s")


if __name__ == "__main__":
    sys.exit(main())
