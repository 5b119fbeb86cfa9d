"""xce sim at scale, on this machine, no daemons:

- one pass over P pending jobs on H hosts (IBM's published LSF scale is
  500,000 pending jobs and 6,000 hosts): the jobs are submitted through
  the controller's checks into a virtual cluster, then the shared pass
  (schedpass.run + settle) runs once; its CPU time and the process's
  peak memory;
- a synthetic trace of J jobs replayed on H2 hosts: its CPU time.

    .venv/bin/python bench/bench_sim_scale.py [--pending 500000]
        [--hosts 6000] [--jobs 200000] [--trace-hosts 1000] [--only pass]

Figures: sim_pass_P_pending_H_hosts s (the pass),
sim_pass_submit_P s (making the jobs), sim_pass_peak_rss MB,
sim_synthetic_J_jobs_cpu s, sim_synthetic_J_passes.
"""

import argparse
import random
import resource
import time

from _common import emit, note  # (puts the checkout on sys.path)

from xce.controller import schedpass
from xce.sim import engine, site
from xce.sim.cluster import VirtualCluster
from xce.sim.swf import TraceJob


def one_pass(pending, hosts):
    cl = VirtualCluster(site.load(None, f"{hosts}x8"))
    rng = random.Random(1)
    start = time.process_time()
    for n in range(1, pending + 1):
        procs = rng.choice((1, 1, 1, 2, 4, 8, 16))
        cl.submit({"command": "sleep", "name": None, "queue": None,
                   "nslots": [procs, procs], "resreq": [], "depend": None,
                   "from_host": "", "runlimit": rng.choice((10, 60, 600)),
                   "cwd": "/", "subcwd": "/"}, f"u{rng.randrange(200)}", n)
    emit(f"sim_pass_submit_{pending}", time.process_time() - start, "s")
    start = time.process_time()
    decisions = schedpass.run(cl, reasons=False)
    started = schedpass.settle(cl, decisions)
    emit(f"sim_pass_{pending}_pending_{hosts}_hosts",
         time.process_time() - start, "s")
    note(f"{len(started)} jobs started by the pass")


def synthetic(jobs, hosts):
    """A seeded trace: Poisson arrivals loading the cluster to about 80%,
    sizes 1-64 slots, run times up to a day, estimates above them."""
    rng = random.Random(2)
    slots = hosts
    sizes = [min(slots, s) for s in (1, 1, 1, 2, 4, 8, 16, 32, 64)]
    mean_size, mean_run = sum(sizes) / len(sizes), 3000.0
    gap = mean_size * mean_run / (0.8 * slots)
    t, out = 0.0, []
    for n in range(1, jobs + 1):
        t += rng.expovariate(1 / gap)
        size = rng.choice(sizes)
        run = min(86400.0, rng.expovariate(1 / mean_run))
        out.append(TraceJob(n, round(t), round(run), size,
                            round(run * rng.uniform(1, 4)) + 60,
                            f"u{rng.randrange(100)}", "g0", -1, n))
    cl = VirtualCluster(site.load(None, f"{hosts}x1"))
    start = time.process_time()
    replay = engine.Replay(cl, out).run()
    emit(f"sim_synthetic_{jobs}_jobs_cpu", time.process_time() - start, "s")
    emit(f"sim_synthetic_{jobs}_passes", replay.passes, "passes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pending", type=int, default=500000)
    ap.add_argument("--hosts", type=int, default=6000)
    ap.add_argument("--jobs", type=int, default=200000)
    ap.add_argument("--trace-hosts", type=int, default=1000)
    ap.add_argument("--only", default="pass,synthetic")
    args = ap.parse_args()
    parts = args.only.split(",")
    if "pass" in parts:
        one_pass(args.pending, args.hosts)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        emit("sim_pass_peak_rss", peak, "MB")
    if "synthetic" in parts:
        synthetic(args.jobs, args.trace_hosts)


if __name__ == "__main__":
    main()
