"""What blimits's usage costs a pass that starts a few jobs while many
run, in a virtual cluster (xce sim's, the controller's own pass; no
daemons):

  limit_usage_started_10000_running ms   usagemeta.publish_started_usage
      after a pass that started 5 jobs with 10,000 running under five
      lsb.resources limits (per user, per queue, per host, per project,
      licence tokens); median CPU time of 5 such passes
  limit_pass_5_started_10000_running ms  the whole pass (run + settle)
      around it, median CPU time

    .venv/bin/python bench/bench_limit_usage.py [--running 10000]
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _common import emit, note  # (puts the checkout on sys.path)

from tests.lib.builders import site, site_yaml
from xce.controller import schedpass, usagemeta
from xce.sim.cluster import VirtualCluster

HOSTS = 100
ROUNDS = 5
NEW = 5
LIMITS = [
    {"NAME": "per_user", "PER_USER": "all", "SLOTS": 100000},
    {"NAME": "per_queue", "PER_QUEUE": "all", "JOBS": 100000},
    {"NAME": "per_host", "PER_HOST": "all", "SLOTS": 100000,
     "MEM": 10 ** 9},
    {"NAME": "per_project", "PER_PROJECT": "all", "JOBS": 100000},
    {"NAME": "tokens", "USERS": "all", "RESOURCE": "[lic,100000]"},
]


def _spec(n):
    return {"command": "sleep 1000", "name": None, "queue": None,
            "nslots": [1, 1], "depend": None, "from_host": "", "cwd": "/",
            "subcwd": "/", "project": f"p{n % 10}",
            "resreq": ["rusage[mem=10:lic=1]"] if n % 4 == 0 else []}


def _cluster(directory, running):
    slots = running // HOSTS + ROUNDS * NEW
    cfg = site(directory, site_yaml(
        "bench", {f"h{i}": {"MXJ": slots} for i in range(HOSTS)},
        resources={"lic": {"TYPE": "Numeric",
                           "LOCATION": "(100000@[all])"}},
        limits=LIMITS))
    facts = {"ncpus": slots, "maxmem": 10 ** 7, "type": "X86_64"}
    return VirtualCluster(cfg, reported={h: facts for h in cfg.hosts})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--running", type=int, default=10000)
    running = ap.parse_args(argv).running
    spent = []
    publish = usagemeta.publish_started_usage

    def timed_publish(ctl, started):
        t0 = time.process_time()
        publish(ctl, started)
        spent.append((time.process_time() - t0) * 1000)

    with tempfile.TemporaryDirectory() as tmp:
        cl = _cluster(Path(tmp) / "etc", running)
        cl.now = 1000.0
        for n in range(running):
            cl.submit(_spec(n), f"u{n % 100}")
        started = schedpass.settle(cl, schedpass.run(cl, reasons=False))
        note(f"{len(started)} jobs running")
        usagemeta.publish_started_usage = timed_publish
        try:
            passes = []
            for r in range(ROUNDS):
                cl.now += 10
                for n in range(NEW):
                    cl.submit(_spec(n), f"new{n}")
                t0 = time.process_time()
                out = schedpass.settle(cl, schedpass.run(cl, reasons=False))
                passes.append((time.process_time() - t0) * 1000)
                assert len(out) == NEW, len(out)
        finally:
            usagemeta.publish_started_usage = publish
    emit(f"limit_usage_started_{running}_running",
         statistics.median(spent), "ms")
    emit(f"limit_pass_{NEW}_started_{running}_running",
         statistics.median(passes), "ms")


if __name__ == "__main__":
    main()
