"""``bkill 0`` of 10,000 pending jobs.

The 10,000 jobs are spooled from this process with the library bsub uses
(``write_request`` each, one ``ring``; see _jobs.spool_submit) into an
inactive queue so they stay pending.  The figure is the wall time of the
``bkill 0`` command, which returns after the controller committed the kills
and replied; the store is then checked to hold them all as EXIT.
Target (issue 2): <= 1 s.
"""

import sys

from _common import cluster, command, emit, note
from _jobs import count_jobs, spool_submit
from bench_throughput import queue_op

JOBS = 10000


def main():
    with cluster() as clu:
        queue_op(clu, "qinact")
        spool_submit(clu, JOBS, ["true"])
        elapsed, out = command(clu, "bkill", "0")
        killed = count_jobs(clu, "stat='EXIT'")
    lines = out.count("is being terminated")
    note(f"bkill 0: {lines} lines printed, {killed} jobs EXIT in the store")
    if killed != JOBS:
        note(f"expected {JOBS} killed jobs, store shows {killed}")
    emit("bkill_0_10000_pending", elapsed, "s")


if __name__ == "__main__":
    sys.exit(main())
