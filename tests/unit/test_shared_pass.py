"""The simulator and the controller make the same decisions because they
run the same pass (xce.controller.schedpass): the pure scheduler is
called from there only, both drivers go through run, settle and noted,
and the same jobs on the same configuration start in both on the same
hosts, with the same pend reasons, pass after pass."""

import ast
import json
import os
import pwd
from pathlib import Path

import pytest

from xce.controller import schedpass
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

XCE = Path(__file__).resolve().parents[2] / "xce"


def _site(**resources):
    return site_yaml(
        "shared", {"h1": {"MXJ": 2}, "h2": {"MXJ": 1}, "h3": {"MXJ": 1}},
        params={"MBD_SLEEP_TIME": 10},
        queues={"normal": {"PRIORITY": 30,
                           "SLOT_RESERVE": "MAX_RESERVE_TIME[50]",
                           "BACKFILL": "Y"},
                "high": {"PRIORITY": 50, "UJOB_LIMIT": 1}},
        resources=resources)


SITE = _site()
TOKENS_SITE = _site(lic={"TYPE": "Numeric", "LOCATION": "(2@[all])"})
FACTS = {"ncpus": 2, "maxmem": 4096, "type": "X86_64"}


def _calls(path, name):
    """(function, line) of every call to an attribute or name *name*."""
    found = []
    tree = ast.parse(path.read_text(), str(path))
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.Module)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else \
                    getattr(f, "id", None)
                if called == name:
                    found.append((getattr(fn, "name", "<module>"),
                                  node.lineno))
    return found


def test_the_scheduler_runs_for_real_only_in_the_shared_pass():
    callers = sorted(str(p.relative_to(XCE)) for p in XCE.rglob("*.py")
                     if p.parent.name != "scheduler" and
                     _calls(p, "schedule"))
    assert callers == ["controller/schedpass.py"]


def test_controller_and_simulator_both_drive_the_shared_pass():
    main = XCE / "controller" / "main.py"
    sim = XCE / "sim" / "engine.py"
    for path in (main, sim):
        assert _calls(path, "run") and _calls(path, "settle"), path
    for path in (main, XCE / "sim" / "cluster.py"):
        assert any(fn == "emit" for fn, _ in _calls(path, "noted")), path


def _spec(n, lo=1, minutes=10, queue=None):
    return submission(f"job{n}", queue=queue, nslots=[lo, lo],
                      runlimit=minutes)


@pytest.fixture
def pair(tmp_path):
    etc = tmp_path / "etc"
    cfg = site(etc, SITE)
    ctl = started_controller(cfg, etc)
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts})
    yield ctl, sim
    ctl.store.close()


def _hello(host):
    return (host, [hello(host, ncpus=2)])


def _live(ctl):
    return {key: (job["stat"], job["exec_hosts"],
                  json.loads(job["pend_reason"] or "null"))
            for key, job in sorted(ctl.jobs.items())}


def _simulated(sim, decisions):
    reasons = decisions.reasons if decisions is not None else {}
    return {key: (job["stat"], job["exec_hosts"], reasons.get(key))
            for key, job in sorted(sim.jobs.items())}


def _sim_pass(sim, now):
    sim.now = now
    decisions = schedpass.run(sim)
    if decisions is not None:
        schedpass.settle(sim, decisions)
    return decisions


def test_the_same_jobs_get_the_same_decisions_live_and_simulated(pair):
    ctl, sim = pair
    user = pwd.getpwuid(os.getuid()).pw_name
    specs = [_spec(1, 2), _spec(2, 3, 60), _spec(3, 1, 5),
             _spec(4, 1, 5, "high"), _spec(5, 1, 5, "high"), _spec(6, 1, 1)]
    for spec in specs:
        ctl.spool.put("submit", {"spec": dict(spec)})
    ctl.run_once(1000.0, inbox=[_hello(h) for h in ("h1", "h2", "h3")])
    sim.now = 1000.0
    for spec in specs:
        spec = dict(spec)
        spec.pop("env")
        sim.submit(spec, user)
    first = _sim_pass(sim, 1000.0)
    assert _live(ctl) == _simulated(sim, first)
    assert first.dispatch and first.reasons, "jobs started, others wait"
    # A job ends: the freed slots go the same way, reservations too.
    ended = next(k for k, j in sorted(ctl.jobs.items())
                 if j["stat"] == "RUN")
    job = ctl.jobs[ended]
    host = job["exec_hosts"].split()[0]
    ctl.run_once(1100.0, inbox=[(host, [{
        "op": "finished", "job": ended[0], "idx": ended[1],
        "attempt": job["attempt"], "stat": "DONE", "exit_code": 0,
        "end_time": 1100.0}])])
    sim.now = 1100.0
    sim.emit("FINISH", sim.jobs[ended], stat="DONE", exit_code=0,
             end_time=1100.0)
    second = _sim_pass(sim, 1100.0)
    assert _live(ctl) == _simulated(sim, second)
    assert ctl.reservations.since == sim.reservations.since != {}


def test_licence_tokens_and_a_claim_on_them_go_the_same_way_simulated(
        tmp_path):
    """Cluster-wide tokens (2@[all]) and a standalone claim keeping one
    of them for another user: the same jobs start and wait, with the
    same reasons, live and in the simulator."""
    from xce.controller import claims
    etc = tmp_path / "etc"
    cfg = site(etc, TOKENS_SITE)
    ctl = started_controller(cfg, etc)
    sim = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts})
    user = pwd.getpwuid(os.getuid()).pw_name
    ctl.spool.put("claim", {"op": "add", "user": "nobody",
                            "counters": {"lic": 1}}, uid=0)
    specs = [dict(_spec(n), resreq=["rusage[lic=1]"]) for n in (1, 2, 3)]
    for spec in specs:
        ctl.spool.put("submit", {"spec": dict(spec)})
    ctl.run_once(1000.0, inbox=[_hello(h) for h in ("h1", "h2", "h3")])
    sim.now = 1000.0
    claims.add(sim, "1", "nobody", "", None, None, {"lic": 1})
    for spec in specs:
        spec = dict(spec)
        spec.pop("env")
        sim.submit(spec, user)
    decisions = _sim_pass(sim, 1000.0)
    assert _live(ctl) == _simulated(sim, decisions)
    assert [j["stat"] for _, j in sorted(ctl.jobs.items())] == [
        "RUN", "PEND", "PEND"]
    ctl.store.close()
