"""LIM's busy thresholds (lsf.cluster Host load columns, xce.yaml
lim_thresholds): migrated, checked, shown by lshosts -l, and a host past
one is busy in lsload with the index starred."""

import shutil
from pathlib import Path

import pytest

from xce.client.cluster import host_load
from xce.config import load
from xce.config.load import ConfigError
from xce.config.migrate import migrate

from tests.lib.builders import site

ODD = Path(__file__).resolve().parent / "data" / "lsf" / "odd"
BASE = "cluster: {name: c}\nqueues: {normal: {PRIORITY: 1}}\n"


def _host(status="ok", thresholds=None, **load):
    values = dict(r15s=0.1, r1m=0.2, r15m=0.3, ut=0.05, pg=1.0, io=4,
                  ls=2, it=0, tmp=5000, swp=2000, mem=3000)
    values.update(load)
    return {"name": "h1", "status": status, "type": "X86_64",
            "model": "m", "ncpus": 4, "maxmem": 8000, "maxswp": 2000,
            "conf": {"lim_thresholds": thresholds or {}}, "load": values}


def test_a_host_past_a_lim_threshold_is_busy_with_that_index_starred():
    host = _host(thresholds={"pg": 15.0, "mem": 4000.0, "r1m": 3.5})
    row = host_load.lsload_table([host]).splitlines()[1].split()
    assert row[:2] == ["h1", "busy"]
    cells = dict(zip(["r15s", "r1m", "r15m", "ut", "pg", "ls", "it", "tmp",
                      "swp", "mem"], row[2:]))
    assert cells["r1m"] == "0.2"
    assert cells["pg"] == "1.0"             # 1.0 is not above 15
    assert cells["mem"].startswith("*")     # 3000 MB free is below 4000


def test_each_index_beyond_its_threshold_is_starred_and_none_else():
    host = _host(thresholds={"pg": 0.5, "ut": 0.01, "ls": 5}, pg=3.0)
    row = host_load.lsload_table([host], long_format=True).splitlines()[1]
    fields = row.split()
    assert fields[1] == "busy"
    assert [f for f in fields[2:] if f.startswith("*")] == ["*5%", "*3.0"]


def test_a_host_within_its_lim_thresholds_is_ok_and_unstarred():
    host = _host(thresholds={"r1m": 3.5, "mem": 100})
    row = host_load.lsload_table([host]).splitlines()[1]
    assert row.split()[1] == "ok" and "*" not in row


def test_an_unavail_host_is_unavail_whatever_its_thresholds():
    host = _host("unavail", thresholds={"mem": 100000})
    assert host_load.lsload_table([host]).splitlines()[1].split() == [
        "h1", "unavail"]


def test_lshosts_long_lists_the_lim_thresholds_in_lims_layout():
    host = _host(thresholds={"r1m": 3.5, "pg": 15.0, "ut": 0.7, "swp": 2,
                             "mem": 1})
    out = host_load.lshosts_long([host]).splitlines()
    at = out.index("LOAD_THRESHOLDS:")
    assert out[at - 1] == ""
    assert out[at + 1] == ("  r15s   r1m  r15m   ut    pg    io   ls   it"
                           "   tmp   swp   mem")
    assert out[at + 2].split() == ["-", "3.5", "-", "70%", "15.0", "-", "-",
                                   "-", "-", "2M", "1M"]
    none = host_load.lshosts_long([_host()]).splitlines()
    assert set(none[-1].split()) == {"-"}


def test_the_loader_reads_lim_thresholds_and_ut_as_a_percentage(tmp_path):
    cfg = site(tmp_path, BASE + "hosts:\n  h1:\n    lim_thresholds: "
               "{r1m: 3.5, ut: 70, mem: 100}\n  h2: {}\n")
    assert cfg.hosts["h1"].lim_thresholds == {"r1m": 3.5, "ut": 0.7,
                                              "mem": 100.0}
    assert cfg.hosts["h2"].lim_thresholds == {}


@pytest.mark.parametrize("value, problem", [
    ("{r1m: 3/4}", "r1m: '3/4' is not a number, 0 or more"),
    ("{r1m: -1}", "r1m: -1 is not a number, 0 or more"),
    ("{r1m: true}", "r1m: True is not a number, 0 or more"),
    ("{cpu: 1}", "cpu is not a load index"),
    ("3.5", "not a mapping of load index to threshold"),
])
def test_the_loader_refuses_a_bad_lim_threshold_naming_it(tmp_path, value,
                                                          problem):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, BASE + f"hosts:\n  h1:\n    lim_thresholds: {value}\n")
    assert len(e.value.errors) == 1, e.value.errors
    assert "bad lim_thresholds: " + problem in e.value.errors[0]
    assert e.value.errors[0].startswith(f"{tmp_path / 'xce.yaml'}:")


def test_migration_carries_lsf_cluster_load_columns_and_leaves_out_bad_ones(
        tmp_path):
    src = tmp_path / "lsf"
    shutil.copytree(ODD, src)
    cluster = src / "lsf.cluster.odd"
    head = cluster.read_text().split("Begin Host")[0]
    cluster.write_text(head + """Begin Host
HOSTNAME  model     type     server  r1m  ut  mem  RESOURCES
odd01     EPYC7543  LINUX64  1       3.5  70  -    (bigmem)
odd02     XEON      LINUX64  1       x    -   2    ()
odd03     EPYC7543  LINUX64  1       -    -   -    ()
odd04     XEON      LINUX64  1       ()   ()  ()   ()
End Host
""")
    result = migrate(str(src), str(tmp_path / "etc"))
    hosts = result.tree["hosts"]
    assert hosts["odd01"]["lim_thresholds"] == {"r1m": 3.5, "ut": 70}
    assert hosts["odd02"]["lim_thresholds"] == {"mem": 2}
    assert "lim_thresholds" not in hosts["odd03"]
    entries = {e.label: e for e in result.migration.entries}
    assert entries["host odd01 r1m = 3.5"].status == "enforced"
    assert entries["host odd02 r1m = x"].status == "not carried"
    assert "LIM threshold" in entries["host odd02 r1m = x"].why
    assert not any("odd02 r1m = x" in d.message     # said once
                   for d in result.diags.warnings)
    cfg = load.load(tmp_path / "etc")           # the controller takes it
    assert cfg.hosts["odd01"].lim_thresholds == {"r1m": 3.5, "ut": 0.7}
