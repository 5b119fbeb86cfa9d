"""One pass of the pure scheduler with gang groups (no daemons).

The snapshot of bench_schedule.py (10,000 pending jobs, 1,000 hosts of 8
slots), where 400 of the jobs are members of 100 gangs of four (one slot
each, span[hosts=1] for half of them).  Figures are the best CPU time of
a few passes:

  gang_schedule_baseline ms      the same jobs, no group a gang
  gang_schedule_100_gangs ms     the groups are gangs: those whose turn
      comes while there is room start whole, the later ones fall short
      as the hosts fill (the pass fills every slot)
  gang_schedule_100_gangs_short ms  every host but three full (3 slots
      free): each gang tries, falls short and gives back what it took
  gang_schedule_100_gangs_short_per_gang ms  that cost per gang, over
      the same pass with no gang
"""

import time

from _common import emit, note
from bench_schedule import snapshot

from xce.scheduler.core import schedule

GANGS, SIZE = 100, 4


def _gangs(jobs):
    """Make GANGS x SIZE of the jobs members, spread over the order."""
    step = len(jobs) // (GANGS * SIZE)
    sizes = {}
    for n in range(GANGS * SIZE):
        path = f"/g{n // SIZE:03d}"
        job = jobs[n * step]
        job.job_group, job.nslots, job.max_slots = path, 1, None
        sizes[path] = SIZE
    return sizes


def _fill(hosts, free=3):
    """Every slot taken but *free* (one on each of the first hosts)."""
    for i, h in enumerate(hosts):
        h.used = h.max_slots - (1 if i < free else 0)
        h.resources["slots"] = h.max_slots - h.used


def timed(queues, hosts, jobs, sizes, runs=3):
    times, out = [], None
    for _ in range(runs):
        t0 = time.process_time()
        out = schedule(queues, hosts, jobs, gang_sizes=sizes)
        times.append((time.process_time() - t0) * 1000)
    return min(times), out


def main():
    queues, hosts, jobs = snapshot(10000, 1000)
    sizes = _gangs(jobs)
    ms, _ = timed(queues, hosts, jobs, None)
    emit("gang_schedule_baseline", ms, "ms")
    ms, out = timed(queues, hosts, jobs, sizes)
    started = {k for k, _ in out.dispatch}
    whole = sum(all((m.key in started) for m in jobs
                    if m.job_group == p) for p in sizes)
    note(f"{whole} of {GANGS} gangs started whole, "
         f"{len(out.dispatch)} jobs started")
    emit("gang_schedule_100_gangs", ms, "ms")
    _fill(hosts)
    ms, out = timed(queues, hosts, jobs, sizes)
    members = {m.key for m in jobs if m.job_group in sizes}
    assert not members & {k for k, _ in out.dispatch}
    emit("gang_schedule_100_gangs_short", ms, "ms")
    base, _ = timed(queues, hosts, jobs, None)
    emit("gang_schedule_100_gangs_short_per_gang", (ms - base) / GANGS, "ms")


if __name__ == "__main__":
    main()
