"""GPUs as resource instances: the -gpu language and its merge, declared
and detected devices, and the scheduler's assignment of devices."""

from pathlib import Path

import pytest

from xce.agent import gpus as detect
from xce.config import gpuconf
from xce.lang import gpureq
from xce.model import gpus as devices
from xce.scheduler import core, gpus
from xce.scheduler.views import HostView, PendingJob, QueueView

SAMPLE = Path(__file__).parent / "data" / "nvidia-smi-query.csv"


def req(text, **levels):
    return gpureq.merge(gpureq.parse(text), **{
        k: gpureq.parse(v) for k, v in levels.items()})


def test_defaults_are_lsf_ones_and_dash_sets_nothing():
    assert gpureq.parse("-") == {}
    r = gpureq.merge()
    assert (r.num, r.mode, r.mps, r.j_exclusive) == (1, "shared", "no", False)
    assert gpureq.show(r) == "num=1/host:mode=shared:mps=no:j_exclusive=no"


def test_each_option_comes_from_the_most_specific_level():
    r = req("num=2", app="mode=exclusive_process",
            queue="num=4:gmem=2G:mode=shared",
            cluster="gmodel=TeslaV100:num=8")
    assert (r.num, r.mode, r.gmem, r.gmodel) == \
        (2, "exclusive_process", 2048.0, "TeslaV100")
    assert gpureq.exclusive(r)      # exclusive_process implies j_exclusive


@pytest.mark.parametrize("text, words", [
    ("num=0", "num=0"), ("num=x", "num=x"), ("num", "expected option=value"),
    ("mode=exclusive", "mode=exclusive"), ("mps=yes", "Multi-Process"),
    ("j_exclusive=maybe", "yes or no"), ("aff=yes", "not supported"),
    ("gtile=2", "not supported"), ("colour=red", "unknown GPU option"),
    ("num=1:num=2", "given twice"), ("gmem=lots", "memory amount"),
    ("gmodel=a b", "model name"),
])
def test_malformed_requirements_say_which_part(text, words):
    with pytest.raises(gpureq.GpuReqError, match=words):
        gpureq.parse(text)


def test_gmodel_takes_a_size_and_names_with_dashes():
    assert gpureq.parse("gmodel=TeslaV100-16G") == {
        "gmodel": "TeslaV100", "gmodel_mem": 16384.0}
    assert gpureq.parse("gmodel=A100-SXM4")["gmodel"] == "A100-SXM4"


def test_nvidia_smi_output_reads_as_declared_devices_do():
    found = detect.parse(SAMPLE.read_text())
    assert [d["id"] for d in found] == [0, 1, 2]      # garbled line skipped
    assert found[0]["model"] == "TeslaV100-SXM2-16GB"
    assert found[0]["mem"] == 16160.0
    assert found[2]["state"] == "prohibited"
    declared = gpuconf.declared([{"model": "Tesla V100-SXM2-16GB",
                                  "memory": "16160M", "id": 0}])
    assert devices.of_host(None, {"gpus": found})[0] == declared[0]
    assert devices.of_host(declared, {"gpus": found}) is declared


def test_no_nvidia_smi_means_no_devices():
    assert detect.detect(which=lambda name: None) == []


@pytest.mark.parametrize("items, words", [
    ("x", "list"), ([{"model": "m"}], "memory"), ([{"memory": "1G"}], "model"),
    ([{"model": "m", "memory": "1G", "id": 0}] * 2, "twice"),
    ([{"model": "m", "memory": "1G", "speed": 3}], "unknown key"),
])
def test_bad_declared_devices_are_refused(items, words):
    with pytest.raises(gpuconf.DeviceError, match=words):
        gpuconf.declared(items)


def _hosts(n=2, ndev=2, slots=4, model="TeslaV100"):
    devs = [{"id": i, "model": model, "mem": 16384.0} for i in range(ndev)]
    return [HostView(f"h{i}", "ok", slots, gpus=gpus.views(devs))
            for i in range(n)]


def _jobs(text, n, first=1, nslots=1, span=None):
    r = req(text)
    return [PendingJob((i, 0), "normal", "u", nslots, i, gpu=r)
            for i in range(first, first + n)]


def _held(decisions):
    return [(h, i) for rec in decisions.gpus.values()
            for h, ids in rec["hosts"].items() for i in ids]


def test_exclusive_devices_go_to_one_job_each_and_the_rest_wait():
    d = core.schedule([QueueView("normal", 1)], _hosts(),
                      _jobs("num=1:mode=exclusive_process", 6))
    held = _held(d)
    assert len(held) == 4 and len(set(held)) == 4
    assert d.reasons[(5, 0)] == [[gpus.R_GPU_FEW.format(need=1, free=0),
                                  ["h0", "h1"]]]


def test_a_device_whose_state_is_not_ok_is_given_to_no_job():
    devs = [{"id": 0, "model": "TeslaV100", "mem": 16384.0},
            {"id": 1, "model": "TeslaV100", "mem": 16384.0,
             "state": "down"}]
    hosts = [HostView("h0", "ok", 4, gpus=gpus.views(devs))]
    d = core.schedule([QueueView("normal", 1)], hosts,
                      _jobs("num=1", 2) + _jobs("num=2", 1, first=3))
    assert _held(d) == [("h0", 0), ("h0", 0)]   # shared, on device 0
    assert (3, 0) in d.reasons                  # two devices: never here


def test_shared_devices_take_several_jobs_within_their_memory():
    d = core.schedule([QueueView("normal", 1)], _hosts(n=1, ndev=1),
                      _jobs("num=1:gmem=6G", 3))
    assert len(d.dispatch) == 2         # 16G holds two 6G jobs
    assert _held(d) == [("h0", 0), ("h0", 0)]
    assert (3, 0) in d.reasons


def test_running_jobs_devices_are_charged_before_the_pass():
    hosts = _hosts(n=1)
    gpus.charge(hosts[0].gpus, [0], True, 0.0)
    d = core.schedule([QueueView("normal", 1)], hosts,
                      _jobs("num=1:j_exclusive=yes", 2))
    assert _held(d) == [("h0", 1)]


def _user_jobs(text, user, keys):
    return [PendingJob((i, 0), "normal", user, 1, i, gpu=req(text))
            for i in keys]


def test_claimed_devices_go_to_their_user_alone_and_first():
    hosts = _hosts(n=1, ndev=4)
    gpus.reserve(hosts[0], [1, 3], "alice")
    d = core.schedule([QueueView("normal", 1)], hosts,
                      _user_jobs("num=1:mode=exclusive_process", "bob",
                                 [1, 2, 3]) +
                      _user_jobs("num=2:mode=exclusive_process", "alice",
                                 [4]))
    got = {k: rec["hosts"]["h0"] for k, rec in d.gpus.items()}
    assert got == {(1, 0): [0], (2, 0): [2], (4, 0): [1, 3]}
    assert d.reasons[(3, 0)] == [[gpus.R_GPU_FEW.format(need=1, free=0),
                                  ["h0"]]]


def test_a_claim_on_every_device_leaves_other_users_none():
    hosts = _hosts(n=1, ndev=2)
    gpus.reserve(hosts[0], [0, 1], "alice")
    d = core.schedule([QueueView("normal", 1)], hosts,
                      _user_jobs("num=1", "bob", [1]))
    assert not d.dispatch
    assert d.reasons[(1, 0)] == [[gpus.R_GPU_FEW.format(need=1, free=0),
                                  ["h0"]]]


def test_a_shared_job_keeps_an_exclusive_one_off_its_device():
    d = core.schedule([QueueView("normal", 1)], _hosts(n=1, ndev=1),
                      _jobs("num=1", 1) +
                      _jobs("num=1:mode=exclusive_process", 1, first=2))
    assert [k for k, _ in d.dispatch] == [(1, 0)]
    assert (2, 0) in d.reasons


def test_a_model_no_host_has_is_named_as_such():
    d = core.schedule([QueueView("normal", 1)], _hosts(),
                      _jobs("gmodel=A100", 1))
    assert d.reasons[(1, 0)][0][0] == gpus.R_GPU_NONE


def test_per_task_devices_cap_the_slots_of_a_host():
    d = core.schedule([QueueView("normal", 1)], _hosts(n=2, ndev=4),
                      _jobs("num=2/task", 1, nslots=4))
    assert sorted(d.dispatch[0][1]) == ["h0", "h0", "h1", "h1"]
    assert sorted(_held(d)) == [("h0", 0), ("h0", 1), ("h0", 2), ("h0", 3),
                                ("h1", 0), ("h1", 1), ("h1", 2), ("h1", 3)]


def test_never_satisfiable_requirements_are_told_apart():
    devs = {"h0": [{"id": 0, "model": "TeslaV100", "mem": 16384.0}]}
    assert gpus.never(req("gmodel=A100"), devs) == ("none", 0)
    assert gpus.never(req("num=2"), devs) == ("few", 1)
    assert gpus.never(req("num=1:gmodel=Tesla"), devs) == (None, 1)


def test_the_job_environment_names_its_own_hosts_devices():
    alloc = {"hosts": {"a": [0, 3], "b": [1]}, "excl": True}
    assert devices.job_env(alloc, "b") == {
        "CUDA_VISIBLE_DEVICES": "1", "GPU_DEVICE_ORDINAL": "1",
        "LSB_GPU_ALLOC_INFO": "a:0,3 b:1"}
    assert devices.job_env(None, "a") == {}


GPU_SITE = """\
cluster: {name: g, admins: [root], spool: ../spool}
parameters:
  DEFAULT_QUEUE: normal
  LSB_GPU_REQ: "num=4:gmem=1G"
hosts:
  h1:
    gpus: [{model: TeslaV100, memory: 16G, id: 3, state: down}]
queues:
  normal: {PRIORITY: 30}
  gpuq: {PRIORITY: 20, GPU_REQ: "num=2:mode=exclusive_process"}
applications:
  big: {GPU_REQ: "num=3"}
"""


def test_the_merge_order_is_job_app_queue_cluster(tmp_path):
    from tests.lib.builders import site
    cfg = site(tmp_path, GPU_SITE)
    assert cfg.hosts["h1"].gpus == [{"id": 3, "model": "TeslaV100",
                                     "mem": 16384.0, "state": "down"}]
    eff = gpuconf.effective
    assert eff(cfg, {}, "normal") is None       # LSB_GPU_REQ alone: no
    assert eff(cfg, {"gpu": "-"}, "normal")[:1] == (4,)
    r = eff(cfg, {}, "gpuq")
    assert (r.num, r.mode, r.gmem) == (2, "exclusive_process", 1024.0)
    r = eff(cfg, {"app": "big"}, "gpuq")
    assert (r.num, r.mode) == (3, "exclusive_process")
    r = eff(cfg, {"app": "big", "gpu": "num=1:mode=shared"}, "gpuq")
    assert (r.num, r.mode) == (1, "shared")


@pytest.mark.parametrize("bad, words", [
    ('queues:\n  normal: {PRIORITY: 30, GPU_REQ: "num=0"}', "GPU_REQ"),
    ('queues:\n  normal: {PRIORITY: 30, GPU_REQ: "num=1:mps=yes"}',
     "Multi-Process Service"),
    ("hosts:\n  h1: {gpus: [{model: x}]}", "memory"),
    ('queues:\n  normal: {PRIORITY: 30, GPU_REQ: "num=1"}',
     "LSB_GPU_REQ needs LSB_GPU_NEW_SYNTAX"),
])
def test_bad_gpu_configuration_is_refused_with_its_key(tmp_path, bad, words):
    from tests.lib.builders import site
    from xce.config.load import ConfigError
    text = GPU_SITE.split("hosts:")[0] + bad + "\n"
    if "needs" in words:
        text = text.replace("parameters:", "parameters:\n  "
                            "LSB_GPU_NEW_SYNTAX: N")
    if "queues:" not in bad:
        text += "queues:\n  normal: {PRIORITY: 30}\n"
    with pytest.raises(ConfigError, match=words):
        site(tmp_path, text)
