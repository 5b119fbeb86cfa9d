"""Run limits with a host spec (bsub -W 10/hostA, RUNLIMIT = 10:00/model):
read at submit and in the queue, normalised by CPU factors as LSF does,
ABS_RUNLIMIT=Y leaving them wall-clock, unknown hosts refused."""

from types import SimpleNamespace

import pytest

from xce.client.submit.options import SubmitError, run_fields
from xce.controller import rlimits as ctl


def _cfg(params=None, apps=None):
    hosts = {"a": "fast", "b": "slow", "c": None}
    return SimpleNamespace(
        raw={"host_models": {"fast": 4.0, "slow": 1.0}},
        params=params or {}, apps=apps or {},
        hosts={name: SimpleNamespace(model=model)
               for name, model in hosts.items()}, detected_models={},
        param_flag=lambda name: str((params or {}).get(name, "")).upper()
        in ("Y", "YES"))


def _queue(runlimit=None, hosts=(None, None), **raw):
    return SimpleNamespace(rlimits={}, raw=raw, runlimit=runlimit,
                           runlimit_hosts=hosts)


class Refused(Exception):
    pass


def test_run_time_is_the_limit_times_the_normaliser_over_the_host():
    cfg, q = _cfg(), _queue()
    spec = {"runlimit": 10, "runlimit_host": "slow"}
    assert ctl.run_seconds(cfg, q, spec, "b") == 600        # same factor
    assert ctl.run_seconds(cfg, q, spec, "a") == 150        # 4x as fast
    spec = {"runlimit": 10, "runlimit_host": "a"}           # a host's model
    assert ctl.run_seconds(cfg, q, spec, "b") == 2400
    # No host spec: the queue's DEFAULT_HOST_SPEC, then the fastest host.
    assert ctl.run_seconds(cfg, _queue(DEFAULT_HOST_SPEC="slow"),
                           {"runlimit": 10}, "a") == 150
    assert ctl.run_seconds(cfg, q, {"runlimit": 10}, "b") == 2400
    # A host without a model has the factor 1.0.
    assert ctl.run_seconds(cfg, q, {"runlimit": 10,
                                    "runlimit_host": "c"}, "a") == 150
    assert ctl.run_seconds(cfg, q, {}, "a") is None


def test_abs_runlimit_keeps_wall_clock_time():
    spec = {"runlimit": 10, "runlimit_host": "slow"}
    assert ctl.run_seconds(_cfg({"ABS_RUNLIMIT": "Y"}), _queue(), spec,
                           "a") == 600
    app = SimpleNamespace(abs_runlimit=True)
    assert ctl.run_seconds(_cfg(apps={"wall": app}), _queue(),
                           {**spec, "app": "wall"}, "a") == 600


def test_queue_runlimit_fills_with_its_host_and_caps_normalised():
    cfg = _cfg()
    q = _queue((10.0, 20.0), ("slow", "slow"))
    spec = {}
    ctl.check(cfg, q, spec, Refused)
    assert spec == {"runlimit": 10.0, "runlimit_host": "slow"}
    # 5 minutes of "fast" is 20 of "slow": at the maximum, taken.
    ctl.check(cfg, q, {"runlimit": 5, "runlimit_host": "fast"}, Refused)
    with pytest.raises(Refused, match="Cannot exceed queue's hard"):
        ctl.check(cfg, q, {"runlimit": 6, "runlimit_host": "fast"}, Refused)
    with pytest.raises(Refused, match="nohost: Bad host specification"):
        ctl.check(cfg, q, {"runlimit": 1, "runlimit_host": "nohost"},
                  Refused)


def test_bsub_w_reads_a_host_spec():
    assert run_fields("1:30/hostA") == {"runlimit": 90.0,
                                        "runlimit_host": "hostA"}
    assert run_fields("10") == {"runlimit": 10.0}
    assert run_fields(None) == {"runlimit": None}
    with pytest.raises(SubmitError, match="Bad RUNLIMIT"):
        run_fields("10/")


@pytest.mark.parametrize("line, message", [
    ("RUNLIMIT: 10/nohost", "RUNLIMIT: nohost: Bad host specification"),
    ("RUNLIMIT: 20/h1 10", "RUNLIMIT: 20/h1 10: ")])
def test_the_loader_refuses_bad_run_limits(tmp_path, line, message):
    from tests.unit.test_config_ranges import _errors
    errors = _errors(tmp_path, queue="    " + line)
    assert len(errors) == 1 and message in errors[0], errors


def test_the_loader_reads_a_run_limit_with_host_specs(tmp_path):
    from tests.unit.test_config_ranges import _write
    from xce.config.load import load
    _write(tmp_path, queue="    RUNLIMIT: 5/h1 1:00")
    q = load(tmp_path).queues["normal"]
    assert (q.runlimit, q.runlimit_hosts) == ((5.0, 60.0), ("h1", None))


def test_the_migrator_leaves_out_a_run_limit_of_an_unknown_model(tmp_path):
    import shutil
    from pathlib import Path

    from xce.config.migrate import migrate
    odd = Path(__file__).resolve().parent / "data" / "lsf" / "odd"
    site = tmp_path / "lsf"
    shutil.copytree(odd, site)
    queues = site / "lsb.queues"
    queues.write_text(queues.read_text().replace("/EPYC7543", "/NOSUCH"))
    result = migrate(str(site), str(tmp_path / "etc"))
    dropped = {e.label.split(" = ")[0]: e.why
               for e in result.migration.entries
               if e.status == "not carried"}
    assert dropped["queue normal RUNLIMIT"] == \
        "NOSUCH: Bad host specification"
    assert "RUNLIMIT" not in result.tree["queues"]["normal"]


def test_a_host_without_a_model_takes_its_detected_models_factor():
    cfg = _cfg()
    assert ctl.cpu_factor(cfg, "c") == 1.0
    cfg.detected_models["c"] = "fast"       # its CPU matched ARCHITECTURE
    assert ctl.cpu_factor(cfg, "c") == 4.0
    cfg.detected_models["a"] = "slow"       # a declared model wins
    assert ctl.cpu_factor(cfg, "a") == 4.0
