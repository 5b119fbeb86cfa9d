"""Scale: one controller, 100 agents, 2,000 short jobs dispatched across them.

The agents are virtual hosts (``launch: local`` under names vh000...,
see xce.yaml(5)): each is a real agent process with its own directory that
really starts its jobs, all on this machine.  Figures:

  scale_hosts                 agents that said hello
  scale_start_s               controller start until every agent said hello
  scale_controller_cpu_idle_s controller CPU seconds over IDLE seconds idle
  scale_controller_rss_idle   controller RSS then
  scale_jobs_per_s            2,000 ``true`` jobs (spooled while the queue is
                              inactive) from activation until all finished
  scale_controller_cpu_load_s controller CPU seconds over that run
  scale_controller_rss_load   controller peak RSS (VmHWM) at its end
  scale_hosts_used            hosts that ran at least one of the jobs
  scale_agents_rss_total      all agents' RSS together, after the run

``--hosts`` and ``--jobs`` change the size (for a quick look).
"""

import argparse
import sys
import time

from _common import LONG, cluster, emit, note, wait_for
from _jobs import admin, count_jobs, spool_submit, store_path, wait_count
from tests.lib.xcecluster import virtual_names

HOSTS = 100
JOBS = 2000
SLOTS = 2           # per host
IDLE = 10.0         # seconds the idle controller is watched
FINISHED = "stat IN ('DONE','EXIT')"


def cpu_seconds(pid):
    """User + system CPU seconds of process PID so far."""
    import os
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def hosts_ok(clu):
    if clu.proc.poll() is not None:
        raise RuntimeError("the controller exited: " + clu.log_tail())
    from xce.errors import XceError
    from xce.store.reader import Reader
    try:
        with Reader(store_path(clu)) as reader:
            return sum(h["status"] == "ok" for h in reader.hosts())
    except XceError:        # no store yet: the controller is starting
        return 0


def hosts_used(clu):
    from xce.store.reader import Reader
    with Reader(store_path(clu)) as reader:
        rows = reader.db.execute("SELECT DISTINCT exec_hosts FROM jobs")
        return len({h for (hosts,) in rows for h in (hosts or "").split()})


def exit_kinds(clu):
    """(exit code, reason) -> jobs, for the jobs that ended EXIT."""
    from xce.store.reader import Reader
    with Reader(store_path(clu)) as reader:
        return dict(((code, why), n) for code, why, n in reader.db.execute(
            "SELECT exit_code, exit_reason, COUNT(*) FROM jobs "
            "WHERE stat='EXIT' GROUP BY 1, 2"))


def run(hosts, jobs):
    with cluster(start=False, virtual_hosts=virtual_names(hosts),
                 mxj=SLOTS) as clu:
        t0 = time.perf_counter()
        clu.start(wait_hosts=False)
        wait_for(lambda: hosts_ok(clu) == hosts, timeout=LONG, interval=0.2,
                 what=f"{hosts} agents to say hello")
        emit("scale_hosts", hosts_ok(clu), "hosts")
        emit("scale_start_s", time.perf_counter() - t0, "s")
        pid = clu.proc.pid
        # Settle (the last hellos' work), then watch the idle controller.
        time.sleep(2.0)
        cpu0 = cpu_seconds(pid)
        time.sleep(IDLE)
        emit("scale_controller_cpu_idle_s", cpu_seconds(pid) - cpu0, "s")
        emit("scale_controller_rss_idle", memory_mb(pid), "MB")

        admin(clu, "qinact", "normal")
        spool_submit(clu, jobs, ["true"])
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        admin(clu, "qact", "normal")
        wait_count(clu, jobs, FINISHED)
        elapsed = time.perf_counter() - t0
        emit("scale_jobs_per_s", jobs / elapsed, "jobs/s")
        emit("scale_controller_cpu_load_s", cpu_seconds(pid) - cpu0, "s")
        emit("scale_controller_rss_load", memory_mb(pid, "VmHWM"), "MB")
        emit("scale_hosts_used", hosts_used(clu), "hosts")
        emit("scale_agents_rss_total",
             sum(memory_mb(p) for p in clu.agent_pids()), "MB")
        failed = count_jobs(clu, "stat='EXIT'")
        if failed:
            note(f"{failed} of {jobs} jobs exited non-zero: "
                 f"{exit_kinds(clu)}")
        note(f"{jobs} jobs on {hosts} hosts x {SLOTS} slots in "
             f"{elapsed:.2f} s")


def main(argv=()):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=HOSTS)
    ap.add_argument("--jobs", type=int, default=JOBS)
    args = ap.parse_args(argv)
    run(args.hosts, args.jobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
