"""xce sim: the KTH SP2 trace (27,992 jobs) on 100 hosts of 1 slot under
each policy of bench/sim/ (the same trace, only the queue's keys differ),
and the simulator's speed: CPU seconds of each replay and passes run.

    .venv/bin/python bench/bench_sim.py [--only fcfs,backfill] [--jobs N]

Figures per policy P: sim_kth_P_jobs, sim_kth_P_mean_wait s,
sim_kth_P_mean_bsld, sim_kth_P_utilization %, sim_kth_P_cpu s,
sim_kth_P_passes.  The trace is looked for in ../shared/traces/ next to
the checkout, or given with --trace.
"""

import argparse
import resource
import time
from pathlib import Path

from _common import REPO, emit, note  # (puts the checkout on sys.path)

from xce.sim import engine, metrics, site, swf
from xce.sim.cluster import VirtualCluster

POLICIES = ("fcfs", "reserve", "backfill", "fairshare")
TRACE = REPO.parent / "shared" / "traces" / "KTH-SP2-1996-2.1-cln.swf"


def replay(policy, jobs, hosts="100x1"):
    cfg = site.load(REPO / "bench" / "sim" / policy, hosts)
    cl = VirtualCluster(cfg)
    start = time.process_time()
    done = engine.Replay(cl, jobs).run()
    cpu = time.process_time() - start
    return metrics.summary(done, cl.slots), cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=",".join(POLICIES))
    ap.add_argument("--trace", default=str(TRACE))
    ap.add_argument("--jobs", type=int, default=None,
                    help="replay only the first N jobs")
    args = ap.parse_args()
    trace = swf.read(Path(args.trace))
    jobs = trace.jobs[:args.jobs] if args.jobs else trace.jobs
    note(f"{len(jobs)} jobs of {args.trace}, {len(trace.bad)} lines "
         "skipped")
    for policy in args.only.split(","):
        s, cpu = replay(policy, jobs)
        name = f"sim_kth_{policy}"
        emit(f"{name}_jobs", s["jobs"], "jobs")
        emit(f"{name}_mean_wait", s["mean_wait_s"], "s")
        emit(f"{name}_mean_bsld", s["mean_bounded_slowdown"], "")
        emit(f"{name}_utilization", 100 * s["utilization"], "%")
        emit(f"{name}_cpu", cpu, "s")
        emit(f"{name}_passes", s["passes"], "passes")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    emit("sim_kth_peak_rss", peak, "MB")


if __name__ == "__main__":
    main()
