"""bsub latency: wall time of ``bsub true``, run serially on an idle cluster.

Measured as the user sees it: interpreter start, parsing, spooling, and the
wait for the controller's acknowledgement.  The CPU time (user+system) of
the bsub process is printed too: on a shared machine it moves much less
with other people's load than the wall time does, and, with valgrind
installed, the instructions it executes (``bsub_instructions``, counted by
callgrind), which do not move with the load at all.  Target (issue 12):
<= 20 ms.
"""

import sys

from _common import cluster, emit, instructions, median_ms, note, timed

RUNS = 50
WARMUP = 3          # first runs pay for cold page cache and .pyc writes


def measure(clu, runs=RUNS):
    """(wall seconds, CPU seconds) of each run."""
    for _ in range(WARMUP):
        timed(clu, "bsub", "true")
    return [timed(clu, "bsub", "true")[:2] for _ in range(runs)]


def main():
    with cluster() as clu:
        samples = measure(clu)
        count = instructions(clu, "bsub", "true")
    walls = [w for w, _ in samples]
    note(f"bsub: {RUNS} runs, min {min(walls) * 1000:.1f} ms, "
         f"max {max(walls) * 1000:.1f} ms")
    emit("bsub_latency_median", median_ms(walls), "ms")
    emit("bsub_cpu_median", median_ms([c for _, c in samples]), "ms")
    if count is not None:
        emit("bsub_instructions", count, "instructions")


if __name__ == "__main__":
    sys.exit(main())
