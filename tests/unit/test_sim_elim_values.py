"""What hosts' elims report, in the simulator as live: xce sim
--elim-values gives the values (xce.sim.elimvalues) where a live agent's
load report puts them, so the shared pass makes the same decisions:
select[] on a host's reported value, and rusage[] of a shared resource
whose total an elim on a host of its location reports (free licences of
a licence server), never overbooked between reports."""

import json
import os
import pwd

import pytest

from xce.cli import xce_sim
from xce.controller import dispatch, schedpass
from xce.errors import XceError
from xce.sim import elimvalues
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

REPORTED = {"TYPE": "Numeric", "INTERVAL": 5}


def _site(licfree_location="[all]"):
    return site_yaml("elimsim", {h: {"MXJ": 4} for h in ("h1", "h2", "h3")},
                     resources={
                         "scratch": REPORTED,
                         "licfree": {**REPORTED,
                                     "LOCATION": licfree_location},
                         "os": {**REPORTED, "TYPE": "String"}})


# h1 runs the licence server's elim: 2 licences free for the cluster.
VALUES = """\
# host  n name value ...
all 1 os rhel8
h1  2 licfree 2 scratch 10
h2  1 scratch 50
"""
FACTS = {"ncpus": 4, "maxmem": 4096, "type": "X86_64"}
EXT = {"h1": {"licfree": 2, "scratch": 10, "os": "rhel8"},
       "h2": {"scratch": 50, "os": "rhel8"}, "h3": {"os": "rhel8"}}


def _spec(n, resreq):
    return submission(f"job{n}", resreq=[resreq], runlimit=10)


@pytest.fixture
def cfg(tmp_path):
    return site(tmp_path / "etc", _site())


def test_the_file_gives_each_host_its_values(cfg, tmp_path):
    path = tmp_path / "values"
    path.write_text(VALUES)
    assert elimvalues.read(str(path), cfg) == {
        "h1": {"os": "rhel8", "licfree": 2.0, "scratch": 10.0},
        "h2": {"os": "rhel8", "scratch": 50.0}, "h3": {"os": "rhel8"}}


@pytest.mark.parametrize("line, says", [
    ("h1 2 scratch 10", "not a load update string"),
    ("h1 1 scratch lots", "scratch: lots is not a Numeric value"),
    ("h1 1 nosuch 1", "nosuch is not a site resource"),
    ("h9 1 scratch 1", "h9 is not a host of the cluster"),
    ("h1 1 scratch nan", "scratch: nan is not a Numeric value"),
])
def test_a_bad_line_is_refused_with_its_place(cfg, tmp_path, line, says):
    path = tmp_path / "values"
    path.write_text("all 1 os rhel8\n" + line + "\n")
    with pytest.raises(elimvalues.ElimValuesError) as e:
        elimvalues.read(str(path), cfg)
    assert str(e.value).startswith(f"{path}, line 2: {says}")


def test_xce_sim_refuses_a_bad_file_and_elim_values_with_verify(tmp_path):
    etc = tmp_path / "etc"
    site(etc, _site())
    bad = tmp_path / "values"
    bad.write_text("h1 1 scratch\n")
    trace = tmp_path / "w.swf"
    trace.write_text("1 0 0 60 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n")
    with pytest.raises(XceError) as e:
        xce_sim.run(str(trace), str(etc), elim_values=str(bad))
    assert "line 1: not a load update string" in str(e.value)
    assert e.value.exit_code == 255
    with pytest.raises(XceError) as e:
        xce_sim.run(None, str(etc), verify=True, elim_values=str(bad))
    assert "--elim-values does not apply to --verify" in str(e.value)


def _live(ctl):
    return {key: (job["stat"], job["exec_hosts"],
                  json.loads(job["pend_reason"] or "null"))
            for key, job in sorted(ctl.jobs.items())}


def _simulated(sim, decisions):
    return {key: (job["stat"], job["exec_hosts"],
                  decisions.reasons.get(key))
            for key, job in sorted(sim.jobs.items())}


def _both(ctl, sim, specs, reports):
    """The decisions of one pass over *specs*, live after the hosts'
    *reports* ({host: load message}) and simulated: (live, simulated)."""
    for spec in specs:
        ctl.spool.put("submit", {"spec": dict(spec)})
    ctl.run_once(1000.0, inbox=[(h, [hello(h), msg])
                                for h, msg in reports.items()])
    ctl.run_once(1001.0, inbox=[])
    user = pwd.getpwuid(os.getuid()).pw_name
    sim.now = 1001.0
    for spec in specs:
        spec = dict(spec)
        spec.pop("env")
        sim.submit(spec, user)
    decisions = schedpass.run(sim)
    schedpass.settle(sim, decisions)
    return _live(ctl), _simulated(sim, decisions)


def test_live_and_simulated_passes_agree_on_reported_values(cfg, tmp_path):
    path = tmp_path / "values"
    path.write_text(VALUES)
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts},
                         elim_values=elimvalues.read(str(path), cfg))
    ctl = started_controller(cfg, tmp_path / "etc")
    try:
        # Off h1, whose elim reports the licences: the other hosts of
        # the [all] location share them.
        shared = "select[hname!=h1] rusage[licfree=1]"
        specs = [_spec(1, "select[scratch>20]"),
                 _spec(2, shared), _spec(3, shared),
                 # Two licences free, two held: the third waits, whatever
                 # the elim says until it reports the jobs' use.
                 _spec(4, shared),
                 _spec(5, "select[os==rhel8 && scratch>5] order[scratch]")]
        live, simulated = _both(ctl, sim, specs, {
            h: {"op": "load", "load": {"r15s": 0.0}, "ext": EXT[h]}
            for h in ("h1", "h2", "h3")})
        assert live == simulated
        started = {k[0]: v[1] for k, v in live.items() if v[0] == "RUN"}
        assert started[1] == "h2" and started[5] == "h2"
        assert 2 in started and 3 in started and 4 not in started
        assert "h1" not in (started[2], started[3])
        assert live[(4, 0)][2][0][0] == \
            "Job's requirements for reserving resource (licfree) not " \
            "satisfied"
    finally:
        ctl.store.close()


def test_a_value_written_for_a_dynamic_shared_resource_yields_to_reports(
        tmp_path):
    cfg = site(tmp_path / "etc", _site("(5@[all])"))
    path = tmp_path / "values"
    path.write_text("h1 1 licfree 1\n")
    shown = []
    for reports in (None, elimvalues.read(str(path), cfg)):
        sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts},
                             elim_values=reports)
        hosts = {h.name: h for h in dispatch.snapshot(sim)[1]}
        shown.append(hosts["h2"].shared["licfree"].total)
    assert shown == [5, 1.0]


def test_the_report_of_a_host_whose_agent_is_gone_is_not_used(cfg,
                                                              tmp_path):
    path = tmp_path / "values"
    path.write_text("h1 1 licfree 3\nh2 1 licfree 7\n")
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts},
                         elim_values=elimvalues.read(str(path), cfg))

    class _Down:
        connected = False

    def total():
        hosts = {h.name: h for h in dispatch.snapshot(sim)[1]}
        counter = hosts["h3"].shared.get("licfree")
        return counter and counter.total

    assert total() == 3.0       # the first host of the location
    sim.links["h1"] = _Down()
    assert total() == 7.0       # the next one that reports
    sim.links["h2"] = _Down()
    assert total() is None      # no value: a job reserving it waits


# Built-in load indices an elim reports: the hosts' load in the replay.
LOADS = """\
h1 3 r1m 3 pg 50 it 0
h2 2 r1m 0.5 pg 1
h3 2 r1m 0.2 pg 2
"""


def test_builtin_indices_are_the_hosts_load_live_and_simulated(tmp_path):
    cfg = site(tmp_path / "etc", site_yaml(
        "elimload", {h: {"MXJ": 4} for h in ("h1", "h2", "h3")},
        queues={"loaded": {"PRIORITY": 20, "r1m": "2.0/"}},
        resources={"scratch": REPORTED}))
    path = tmp_path / "values"
    path.write_text(LOADS)
    reports = elimvalues.read(str(path), cfg)
    assert reports["h1"] == {"r1m": 3.0, "pg": 50.0, "it": 0.0}
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts},
                         elim_values=reports)
    assert sim.hosts["h2"]["facts"]["load"] == {"r1m": 0.5, "pg": 1.0}
    ctl = started_controller(cfg, tmp_path / "etc")
    try:
        specs = [submission("job1", queue="loaded", runlimit=10),
                 _spec(2, "select[pg>30]"),
                 _spec(3, "order[r1m]"),
                 submission("job4", queue="loaded", runlimit=10,
                            resreq=["select[hname==h1]"])]
        # Live, the agents report the elims' values as their load.
        live, simulated = _both(ctl, sim, specs, {
            h: {"op": "load", "load": dict(reports[h])} for h in reports})
        assert live == simulated
        hosts = {k[0]: v[1] for k, v in live.items()}
        assert hosts[2] == "h1" and hosts[3] == "h3"
        assert hosts[1] in ("h2", "h3")
        # The queue's r1m threshold keeps job 4 off h1, with LSF's reason.
        assert live[(4, 0)][0] == "PEND"
        assert "The 1 min effective CPU queue length (r1m) is beyond " \
            "threshold" in json.dumps(live[(4, 0)][2])
    finally:
        ctl.store.close()


@pytest.mark.parametrize("line, says", [
    ("h1 1 r1m busy", "built-in load index r1m: busy is not a number"),
    ("h1 1 mem -5", "built-in load index mem: -5 is negative"),
    ("h1 1 ut 85", "built-in load index ut: 85 is above 1"),
])
def test_a_bad_builtin_value_is_refused_with_its_place(cfg, tmp_path, line,
                                                       says):
    path = tmp_path / "values"
    path.write_text(line + "\n")
    with pytest.raises(elimvalues.ElimValuesError) as e:
        elimvalues.read(str(path), cfg)
    assert str(e.value).startswith(f"{path}, line 1: {says}")
