"""The controller's look at run windows and load thresholds, in process
(xce.controller.windows.enforce, no daemons):

  load_look_100000_pending_1000_running_1000_hosts ms
      one look after a load report: 100,000 pending jobs, one running job
      on each of 1,000 hosts, every queue and host with thresholds, no
      load beyond them (the common case: nothing to suspend)
  load_look_100000_pending_0_running_1000_hosts ms
      the same with no job running

It takes the median CPU time of 20 looks.  The look walks the started
jobs host by host (a per-host index kept as events are applied), so its
cost follows the hosts with jobs, not the pending jobs.
"""

import statistics
import time
from types import SimpleNamespace

from _common import emit, note

from xce.config.model import HostConf, QueueConf
from xce.controller import windows
from xce.model import states

HOSTS, PENDING, LOOKS = 1000, 100_000, 20


def _job(jobid, stat, host=None):
    return {"jobid": jobid, "idx": 0, "stat": stat, "queue": "normal",
            "exec_hosts": host, "start_time": 1.0 if host else None,
            "spec": {}}


def _controller(running):
    thresholds = {"r1m": (5.0, 10.0), "mem": (100.0, 10.0)}
    queues = {"normal": QueueConf("normal", priority=30,
                                  thresholds=thresholds)}
    hosts = {}
    for i in range(HOSTS):
        name = f"h{i:04d}"
        hosts[name] = {"conf": HostConf(name, thresholds=thresholds),
                       "facts": {"load": {"r1m": 0.5, "mem": 4000.0,
                                          "it": 0.0}}}
    jobs = {}
    for jobid in range(1, PENDING + 1):
        jobs[(jobid, 0)] = _job(jobid, states.PEND)
    if running:
        for i, name in enumerate(hosts):
            jobid = PENDING + 1 + i
            jobs[(jobid, 0)] = _job(jobid, states.RUN, name)
    cfg = SimpleNamespace(queues=queues, hosts={n: h["conf"] for n, h in
                                                hosts.items()}, params={})
    return SimpleNamespace(cfg=cfg, hosts=hosts, jobs=jobs, now=0.0,
                           windows=windows.State(), dirty=True,
                           emit=None, send_signal=None)


def _median_look(ctl):
    windows.enforce(ctl)        # the first look builds what it keeps
    times = []
    for _ in range(LOOKS):
        t0 = time.process_time()
        windows.enforce(ctl)
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def main():
    for running in (True, False):
        ctl = _controller(running)
        n = HOSTS if running else 0
        note(f"{len(ctl.jobs)} unfinished jobs, {n} running")
        emit(f"load_look_{PENDING}_pending_{n}_running_{HOSTS}_hosts",
             _median_look(ctl), "ms")


if __name__ == "__main__":
    main()
