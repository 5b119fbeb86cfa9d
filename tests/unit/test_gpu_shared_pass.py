"""GPUs in the simulator: declared devices go to the same jobs on the
same hosts live and in a replay, since both run the same pass
(xce.controller.schedpass), and the assignment is kept with each job."""

import json
import os
import pwd

import pytest

from xce.controller import schedpass
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

V100 = {"model": "TeslaV100", "memory": "16G"}
SITE = site_yaml("gpusim", {
    "h1": {"MXJ": 4, "gpus": [V100, V100]},
    "h2": {"MXJ": 4, "gpus": [{"model": "A100", "memory": "40G"}]}},
    queues={"gpuq": {"PRIORITY": 20,
                     "GPU_REQ": "num=1:mode=exclusive_process"}})
FACTS = {"ncpus": 4, "maxmem": 4096, "type": "X86_64"}


def _spec(n, gpu=None, queue=None):
    spec = submission(f"job{n}", queue=queue, runlimit=10)
    if gpu is not None:
        spec["gpu"] = gpu
    return spec


@pytest.fixture
def pair(tmp_path):
    etc = tmp_path / "etc"
    cfg = site(etc, SITE)
    ctl = started_controller(cfg, etc)
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts})
    yield ctl, sim
    ctl.store.close()


def test_gpu_jobs_get_the_same_devices_live_and_simulated(pair):
    ctl, sim = pair
    user = pwd.getpwuid(os.getuid()).pw_name
    specs = [_spec(1, "num=1:mode=exclusive_process"),
             _spec(2, "num=1:gmodel=A100"),
             _spec(3, None, "gpuq"),        # the queue's GPU_REQ
             _spec(4, "num=1:mode=exclusive_process"),
             _spec(5, "num=2")]
    for spec in specs:
        ctl.spool.put("submit", {"spec": dict(spec)})
    ctl.run_once(1000.0, inbox=[(h, [hello(h)]) for h in ("h1", "h2")])
    sim.now = 1000.0
    for spec in specs:
        spec = dict(spec)
        spec.pop("env")
        sim.submit(spec, user)
    decisions = schedpass.run(sim)
    schedpass.settle(sim, decisions)
    live = {k: (j["stat"], j["exec_hosts"], j["spec"].get("gpu_alloc"),
                json.loads(j["pend_reason"] or "null"))
            for k, j in sorted(ctl.jobs.items())}
    simulated = {k: (j["stat"], j["exec_hosts"], j["spec"].get("gpu_alloc"),
                     decisions.reasons.get(k))
                 for k, j in sorted(sim.jobs.items())}
    assert live == simulated
    started = {k[0]: v[2]["hosts"] for k, v in live.items() if v[0] == "RUN"}
    # normal (priority 30) goes before gpuq: job 4 takes h1's last device
    assert started == {1: {"h1": [0]}, 2: {"h2": [0]}, 4: {"h1": [1]}}
    assert live[(3, 0)][0] == live[(5, 0)][0] == "PEND"
