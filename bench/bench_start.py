"""Submit-to-start latency on an idle cluster.

Each job writes its own clock (``date +%s.%N``) to a file as its first
action.  Two figures, both medians over serial runs:
  submit_to_start  job's clock minus the store's submit_time (the moment
                   the controller accepted the request): the controller's
                   and agent's share, comparable to Slurm's 4.5 ms.
  bsub_to_start    job's clock minus the moment just before ``bsub`` was
                   launched: what a user waits, bsub's own start included.
and the median CPU time (user+system) of the bsub process.
Targets: submit->start <= 20 ms (issue 2), bsub->start <= 30 ms (issue 12).
"""

import sys
import time

from _common import cluster, emit, median_ms, note, timed, wait_for
from _jobs import store_path

RUNS = 30
WARMUP = 2


def one(clu):
    t0 = time.time()
    _, cpu, out = timed(clu, "bsub", "date +%s.%N > start.$LSB_JOBID")
    jobid = int(out.split("<", 1)[1].split(">", 1)[0])
    path = clu.root / f"start.{jobid}"
    started = wait_for(lambda: _read_clock(path), timeout=30, interval=0.002,
                       what=f"job {jobid} to start")
    return jobid, t0, started, cpu


def _read_clock(path):
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return float(text) if text else None


def submit_times(clu, jobids):
    from xce.store.reader import Reader
    reader = Reader(store_path(clu))
    try:
        marks = ",".join("?" * len(jobids))
        return dict(reader.db.execute(
            f"SELECT jobid, submit_time FROM jobs WHERE jobid IN ({marks})",
            list(jobids)))
    finally:
        reader.db.close()


def main():
    with cluster() as clu:
        for _ in range(WARMUP):
            one(clu)
        runs = [one(clu) for _ in range(RUNS)]
        submitted = submit_times(clu, [r[0] for r in runs])
    from_submit = [start - submitted[jobid] for jobid, _, start, _ in runs]
    from_bsub = [start - t0 for _, t0, start, _ in runs]
    note(f"submit->start: {RUNS} runs, min {min(from_submit) * 1000:.1f} ms,"
         f" max {max(from_submit) * 1000:.1f} ms")
    emit("submit_to_start_median", median_ms(from_submit), "ms")
    emit("bsub_to_start_median", median_ms(from_bsub), "ms")
    emit("bsub_to_start_bsub_cpu_median", median_ms([r[3] for r in runs]),
         "ms")


if __name__ == "__main__":
    sys.exit(main())
