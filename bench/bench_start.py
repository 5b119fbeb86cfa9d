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

The way from bsub to the job, in stages (medians; each from marks the
product keeps anyway, so nothing is instrumented):
  stage_bsub_to_request      bsub's own start, until it names its request
                             (the request id begins with that clock)
  stage_request_to_turn      writing the request, the doorbell, the
                             controller waking to the turn that takes it
                             (the job's submit_time is that turn's clock)
  stage_turn_to_spawned      intake, scheduling pass, the store's commits,
                             the start message, the agent's preparation and
                             posix_spawn (the job's start_time is the
                             agent's clock when posix_spawn returned; for a
                             held start, agent protocol 14, when the go let
                             the wrapper spawned ahead run)
  stage_spawned_to_first     the job wrapper (a shell) until the job's
                             first instruction
  stage_turn_to_bsub_exit    from that turn to bsub's exit: the commit,
                             the agents' messages, the reply, bsub's
                             reading it and its exit
  stage_bsub_exit_after_start  bsub's exit relative to the job's first
                             instruction (negative: bsub was out first)
"""

import sys
import time

from _common import cluster, emit, median_ms, note, timed, wait_for
from _jobs import marks_of

RUNS = 30
WARMUP = 2


def one(clu):
    t0 = time.time()
    _, cpu, out = timed(clu, "bsub", "date +%s.%N > start.$LSB_JOBID")
    t_exit = time.time()
    jobid = int(out.split("<", 1)[1].split(">", 1)[0])
    path = clu.root / f"start.{jobid}"
    started = wait_for(lambda: _read_clock(path), timeout=30, interval=0.002,
                       what=f"job {jobid} to start")
    return jobid, t0, started, cpu, t_exit


def _read_clock(path):
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return float(text) if text else None


def main():
    with cluster() as clu:
        for _ in range(WARMUP):
            one(clu)
        runs = [one(clu) for _ in range(RUNS)]
        marks = marks_of(clu, [r[0] for r in runs])
    from_submit = [start - marks[jobid][1] for jobid, _, start, _, _ in runs]
    from_bsub = [start - t0 for _, t0, start, _, _ in runs]
    note(f"submit->start: {RUNS} runs, min {min(from_submit) * 1000:.1f} ms,"
         f" max {max(from_submit) * 1000:.1f} ms")
    emit("submit_to_start_median", median_ms(from_submit), "ms")
    emit("bsub_to_start_median", median_ms(from_bsub), "ms")
    emit("bsub_to_start_bsub_cpu_median", median_ms([r[3] for r in runs]),
         "ms")
    stages = {
        "stage_bsub_to_request": lambda t0, m, first, out: m[0] - t0,
        "stage_request_to_turn": lambda t0, m, first, out: m[1] - m[0],
        "stage_turn_to_spawned": lambda t0, m, first, out: m[2] - m[1],
        "stage_spawned_to_first": lambda t0, m, first, out: first - m[2],
        "stage_turn_to_bsub_exit": lambda t0, m, first, out: out - m[1],
        "stage_bsub_exit_after_start":
            lambda t0, m, first, out: out - first,
    }
    for name, stage in stages.items():
        emit(name, median_ms([stage(t0, marks[jobid], first, out)
                              for jobid, t0, first, _, out in runs]), "ms")


if __name__ == "__main__":
    sys.exit(main())
