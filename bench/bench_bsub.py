"""bsub latency: wall time of ``bsub true``, run serially on an idle cluster.

Measured as the user sees it: interpreter start, parsing, spooling, and the
wait for the controller's acknowledgement.  Target (issue 2): <= 60 ms.
"""

import sys

from _common import cluster, command, emit, median_ms, note

RUNS = 50
WARMUP = 3          # first runs pay for cold page cache and .pyc writes


def measure(clu, runs=RUNS):
    for _ in range(WARMUP):
        command(clu, "bsub", "true")
    return [command(clu, "bsub", "true")[0] for _ in range(runs)]


def main():
    with cluster() as clu:
        samples = measure(clu)
    note(f"bsub: {RUNS} runs, min {min(samples) * 1000:.1f} ms, "
         f"max {max(samples) * 1000:.1f} ms")
    emit("bsub_latency_median", median_ms(samples), "ms")


if __name__ == "__main__":
    sys.exit(main())
