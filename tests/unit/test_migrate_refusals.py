"""The migrator never writes what the controller refuses: values xce cannot
take are left out with file:line, lsb.hosts rows keyed by group, model or
type reach the hosts they cover (LSF's precedence), and the result loads."""

import socket
from pathlib import Path

from xce.config import load
from xce.config.lsf.build import Migration
from xce.config.lsf.diag import Diagnostics, Origin
from xce.config.lsf.settle import settle
from xce.config.migrate import migrate

ODD = Path(__file__).resolve().parent / "data" / "lsf" / "odd"


def _not_carried(result):
    return {(str(e.origin), e.label.split(" = ")[0]): e.why
            for e in result.migration.entries if e.status == "not carried"}


def test_values_xce_cannot_take_are_left_out_with_file_and_line(tmp_path):
    result = migrate(str(ODD), str(tmp_path / "etc"))
    dropped = _not_carried(result)
    # Time-based limit values are carried (xce.lang.timevalue).
    assert ("lsb.resources:4", "limit daytime SLOTS") not in dropped
    assert ("lsb.resources:15", "limit #3 SLOTS") not in dropped
    # A run limit normalised by a model lsf.shared defines is carried.
    assert ("lsb.queues:4", "queue normal RUNLIMIT") not in dropped
    assert dropped[("lsb.queues:6", "queue normal BOGUS_KEY")] == \
        "not a key xce knows"
    assert ("lsb.params:3", "parameters NO_SUCH_PARAM") in dropped
    warned = {d.where(): d.message for d in result.diags.warnings}
    assert warned["lsb.queues:5"].startswith("not a KEY = VALUE line")
    tree = result.tree
    assert tree["queues"]["normal"]["RUNLIMIT"] == "10:00/EPYC7543"
    assert tree["queues"]["night"]["RUNLIMIT"] == "30 60"   # the rest stays
    assert tree["limits"][1] == {"NAME": "plain", "PER_USER": ["all"],
                                 "JOBS": 10}
    assert tree["limits"][0]["SLOTS"] == "[200 8:00-18:00] [400 18:00-8:00]"
    load.load(tmp_path / "etc")         # the controller takes the result


def test_lsb_hosts_rows_by_group_model_and_type_follow_lsf_precedence():
    result = migrate(str(ODD), None, check=True)
    hosts = result.tree["hosts"]
    assert set(hosts) == {"odd01", "odd02", "odd03", "odd04", "default"}
    # own row, then group, then model, then type, then default
    assert {h: hosts[h].get("MXJ") for h in hosts} == {
        "odd01": 4, "odd02": 2, "odd03": 8, "odd04": 3, "default": 1}
    dropped = _not_carried(result)
    assert dropped[("lsb.hosts:7", "host nosuch")].startswith(
        "not a host, host group, host model or host type")
    labels = [e.label for e in result.migration.entries]
    assert "host model EPYC7543 MXJ = 8 (hosts: odd03)" in labels
    assert "host type LINUX64 MXJ = 3 (hosts: odd04)" in labels


def test_migrated_hosts_run_locally_on_the_controllers_own_host(tmp_path):
    envdir = tmp_path / "etc"
    envdir.mkdir()
    me = socket.gethostname()
    (envdir / "xce.yaml").write_text(
        "cluster: {name: c, spool: spool}\n"
        f"hosts:\n  {me}: {{launch: auto}}\n  faraway: {{launch: auto}}\n"
        "queues: {normal: {}}\n")
    cfg = load.load(envdir)
    assert cfg.hosts[me].launch == "local"
    assert cfg.hosts[me].spool == envdir / "spool"
    assert cfg.hosts["faraway"].launch == "ssh"
    assert cfg.spool == envdir / "spool"


def test_a_value_only_the_loader_refuses_is_taken_out_and_reported():
    mig = Migration(Diagnostics())
    at = Origin("lsb.queues", 3)
    mig.set(("cluster", "name"), "c")
    mig.set(("queues", "q", "PRIORITY"), "high", at, "enforced")
    mig.note("enforced", at, "queue q PRIORITY = high")
    mig.entries[-1] = type(mig.entries[-1])(
        "enforced", at, "queue q PRIORITY = high",
        path=("queues", "q", "PRIORITY"))
    from xce.config.lsf import yamlout
    text = settle(mig, lambda: yamlout.dump(mig.ordered_tree(),
                                            lambda p: "", []))
    assert "PRIORITY" not in text
    assert [(e.status, e.label) for e in mig.entries] == [
        ("not carried", "queue q PRIORITY = high")]
    assert mig.entries[0].origin == at
    assert mig.diags.warnings == []     # said once, under Not carried


def test_without_lsf_cluster_a_model_row_is_still_not_a_host(tmp_path):
    for name in ("lsf.shared", "lsb.hosts", "lsb.queues"):
        (tmp_path / name).write_text((ODD / name).read_text())
    result = migrate(str(tmp_path), None, check=True)
    hosts = result.tree["hosts"]
    assert "EPYC7543" not in hosts and "LINUX64" not in hosts
    assert {"odd01", "nosuch", "default"} <= set(hosts)
    dropped = _not_carried(result)
    assert dropped[("lsb.hosts:5", "host model EPYC7543 MXJ")] == \
        "the model has no host in the cluster"


def test_multicluster_preexec_retry_limits_are_reported_with_why():
    # LSF 10.1's MAX_PREEXEC_RETRY and REMOTE_MAX_PREEXEC_RETRY bound the
    # pre-exec tries of jobs forwarded from another cluster only: reported
    # not carried with that reason, while LOCAL_MAX_PREEXEC_RETRY is acted
    # on (xce.controller.prepost).
    from xce.config import keys
    for scope in ("params", "queue", "application"):
        for name in ("MAX_PREEXEC_RETRY", "REMOTE_MAX_PREEXEC_RETRY"):
            key = keys.lookup(scope, name)
            assert key.status == keys.NOT_CARRIED and \
                "MultiCluster" in key.why, (scope, name)
    for name in ("LOCAL_MAX_PREEXEC_RETRY", "LOCAL_MAX_PREEXEC_RETRY_ACTION"):
        assert keys.lookup("params", name).status == keys.ENFORCED
