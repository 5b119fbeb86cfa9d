"""Throughput: 1,000 ``true`` jobs with 2 slots (MXJ 2) and 64 slots (MXJ 64).

The jobs are spooled first (from this process, see _jobs.spool_submit)
while the queue is inactive, so intake is not part of the figure; the clock
runs from just before the queue is activated until the store shows all
1,000 finished.  The queue is switched with ``badmin`` when that command is
installed, else with the same admin request sent through the spool library.
Targets (issue 2): >= 200 jobs/s on 2 slots, >= 300 jobs/s on 64.

Wall time on a shared 2-core machine swings by 2x between runs, so the
CPU the daemons spend per job is printed beside it: controller, agent, and
the jobs themselves (reaped by the agent, so counted in its children's
time).  Those figures move only when the code does.
"""

import os

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


def cpu_seconds(pid):
    """(own, reaped children's) CPU seconds of a live process."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return ((int(fields[11]) + int(fields[12])) / tick,
            (int(fields[13]) + int(fields[14])) / tick)


def daemon_cpu(clu):
    ctl = cpu_seconds(clu.proc.pid)[0]
    agent, jobs = cpu_seconds(clu.agent_pid())
    return ctl, agent, jobs


def measure(slots, jobs=JOBS):
    """Seconds from activation until *jobs* are finished, on MXJ *slots*,
    and CPU seconds (controller, agent, jobs) spent meanwhile."""
    with cluster(mxj=slots) as clu:
        queue_op(clu, "qinact")
        spool_submit(clu, jobs, ["true"])
        before = daemon_cpu(clu)
        t0 = time.perf_counter()
        queue_op(clu, "qact")
        wait_count(clu, jobs, FINISHED)
        elapsed = time.perf_counter() - t0
        cpu = [b - a for a, b in zip(before, daemon_cpu(clu))]
        failed = count_jobs(clu, "stat='EXIT'")
    if failed:
        note(f"{failed} of {jobs} jobs exited non-zero on {slots} slots")
    return elapsed, cpu


def main():
    note("badmin " + ("command" if has_command("badmin")
                      else "not installed: admin request via the library"))
    for slots in (2, 64):
        elapsed, cpu = measure(slots)
        note(f"{JOBS} jobs on {slots} slots in {elapsed:.2f} s")
        emit(f"throughput_{slots}slots", JOBS / elapsed, "jobs/s")
        for who, seconds in zip(("controller", "agent", "jobs"), cpu):
            emit(f"throughput_{slots}slots_cpu_{who}", seconds * 1000 / JOBS,
                 "ms/job")


if __name__ == "__main__":
    sys.exit(main())
