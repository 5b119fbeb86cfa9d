"""bsub latency: wall time of ``bsub true``, run serially on an idle cluster.

Measured as the user sees it: interpreter start, parsing, spooling, and the
wait for the controller's acknowledgement.  The CPU time (user+system) of
the bsub process is printed too: on a shared machine it moves much less
with other people's load than the wall time does, and, with valgrind
installed, the instructions it executes (``bsub_instructions``, counted by
callgrind), which do not move with the load at all.  Target (issue 12):
<= 20 ms.

``bsub_turn_to_exit_median``: from the controller's turn that took the
request (its clock, the job's submit_time) to bsub's exit: the turn's
work and commit, the reply, bsub's reading it and its exit; the share of
the latency that the controller's reply point decides.
"""

import sys
import time

from _common import cluster, emit, instructions, median_ms, note, timed
from _jobs import marks_of

RUNS = 50
WARMUP = 3          # first runs pay for cold page cache and .pyc writes


def measure(clu, runs=RUNS):
    """(wall seconds, CPU seconds, job id, clock at its exit) of each run."""
    for _ in range(WARMUP):
        timed(clu, "bsub", "true")
    return [_one(clu) for _ in range(runs)]


def _one(clu):
    wall, cpu, out = timed(clu, "bsub", "true")
    exited = time.time()
    return wall, cpu, int(out.split("<", 1)[1].split(">", 1)[0]), exited


def main():
    with cluster() as clu:
        samples = measure(clu)
        marks = marks_of(clu, [s[2] for s in samples])
        count = instructions(clu, "bsub", "true")
    walls = [s[0] for s in samples]
    note(f"bsub: {RUNS} runs, min {min(walls) * 1000:.1f} ms, "
         f"max {max(walls) * 1000:.1f} ms")
    emit("bsub_latency_median", median_ms(walls), "ms")
    emit("bsub_cpu_median", median_ms([s[1] for s in samples]), "ms")
    emit("bsub_turn_to_exit_median", median_ms(
        [exited - marks[jobid][1] for _, _, jobid, exited in samples]), "ms")
    if count is not None:
        emit("bsub_instructions", count, "instructions")


if __name__ == "__main__":
    sys.exit(main())
