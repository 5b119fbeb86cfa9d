"""What blimits reads after a pass that started jobs (usagemeta.
publish_started_usage): every running job's use of each lsb.resources
limit, the jobs the pass started included, and nothing of a job that is
no longer running -- whether it ended during the pass, was undone with
its gang, or is suspended (then its slots count, not the tokens it gave
back).  Each case is checked against a recount of every running job
from scratch, and by its figures."""

import json

import pytest

from xce.controller import dispatch, limitconf, schedpass, submit
from xce.model import states
from xce.scheduler import rusage_held
from xce.scheduler.limits import Limits
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site, site_yaml, submission

FACTS = {"ncpus": 4, "maxmem": 8192, "type": "X86_64"}
LIMITS = [
    {"NAME": "per_user", "PER_USER": "all", "SLOTS": 100},
    {"NAME": "per_queue", "PER_QUEUE": "all", "JOBS": 100},
    {"NAME": "per_host", "PER_HOST": "all", "SLOTS": 100, "MEM": 100000},
    {"NAME": "per_project", "PER_PROJECT": "all", "JOBS": 100},
    {"NAME": "tokens", "USERS": "all", "RESOURCE": "[lic,10]"},
]
GANG = "/train"


@pytest.fixture
def sim(tmp_path):
    cfg = site(tmp_path / "etc", site_yaml(
        "usage", {"h1": {"MXJ": 4}, "h2": {"MXJ": 4}},
        queues={"high": {"PRIORITY": 50,
                         "PREEMPTION": "PREEMPTIVE[normal]"}},
        resources={"lic": {"TYPE": "Numeric", "LOCATION": "(10@[all])"}},
        limits=LIMITS))
    cl = VirtualCluster(cfg, reported={h: FACTS for h in cfg.hosts})
    cl.now = 1000.0
    return cl


def _submit(sim, user, n=1, queue=None, rusage=None, project="default",
            **fields):
    spec = submission("sleep 100", queue=queue, project=project,
                      resreq=[f"rusage[{rusage}]"] if rusage else [],
                      **fields)
    spec.pop("env")
    return [sim.submit(dict(spec), user) for _ in range(n)]


def _pass(sim, between=None):
    """One pass; *between* runs after its decisions, before they are
    settled (what changes while the pass runs).  The jobs started."""
    decisions = schedpass.run(sim)
    if between is not None:
        between()
    return schedpass.settle(sim, decisions) if decisions else []


def _recount(sim):
    """The limit usage counted from scratch over every running job."""
    limits = Limits(limitconf.limits(sim.cfg, sim.now))
    per_task = sim.cfg.param_flag("RESOURCE_RESERVE_PER_TASK")
    for job in sim.jobs.values():
        if job["stat"] in states.RUNNING:
            dispatch.charge_limits(
                sim, job, limits, per_task,
                rusage_held.need(dispatch.reserved(sim, job)),
                dispatch.slots_per_host(job))
    rows = []
    for counter, (slots, jobs, mem, swp, tmp, res) in sorted(
            limits.used.items()):
        lim = limits.limits[counter[0]]
        if not lim.slot_reason:
            rows.append([lim.name, *counter[1:], slots, jobs, mem, res])
    return rows


def _published(sim):
    return [[r["name"], r["users"], r["queues"], r["projects"], r["hosts"],
             r["apps"], r["slots"], r["jobs"], r["mem"], r["resources"]]
            for r in json.loads(sim.passes.limit_usage)]


def _row(sim, name, **consumer):
    """(slots, jobs, mem, resources) of limit *name*'s counter for the
    consumer named (users=, queues=, projects=, hosts=), or None."""
    for r in json.loads(sim.passes.limit_usage):
        if r["name"] == name and all(r[k] == v for k, v in consumer.items()):
            return r["slots"], r["jobs"], r["mem"], r["resources"]
    return None


def test_a_pass_publishes_the_jobs_it_started_with_those_running(sim):
    _submit(sim, "alice", 3, rusage="mem=100:lic=1")
    assert len(_pass(sim)) == 3
    _submit(sim, "bob", 2, rusage="mem=50", project="physics")
    assert len(_pass(sim)) == 2
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="alice") == (3, 3, 300.0,
                                                    {"lic": 3.0})
    assert _row(sim, "per_user", users="bob") == (2, 2, 100.0, {})
    assert _row(sim, "per_queue", queues="normal") == (5, 5, 400.0,
                                                     {"lic": 3.0})
    assert _row(sim, "per_project", projects="physics") == (2, 2, 100.0, {})
    assert _row(sim, "tokens") == (5, 5, 400.0, {"lic": 3.0})
    hosts = {h: _row(sim, "per_host", hosts=h) for h in ("h1", "h2")}
    assert sum(r[0] for r in hosts.values() if r) == 5


def test_a_suspended_job_counts_its_slots_not_the_tokens_it_gave_back(sim):
    first, second = _submit(sim, "alice", 2, rusage="lic=2")
    _pass(sim)
    sim.emit("STATUS", first, stat=states.USUSP, reason="bstop")
    _submit(sim, "bob", 1, rusage="lic=1")
    assert len(_pass(sim)) == 1
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="alice") == (2, 2, 0.0,
                                                    {"lic": 2.0})
    assert _row(sim, "tokens") == (3, 3, 0.0, {"lic": 3.0})


def test_a_job_the_pass_preempts_is_counted_as_suspended(sim):
    low = _submit(sim, "alice", 8, rusage="lic=1")
    assert len(_pass(sim)) == 8
    _submit(sim, "bob", 1, queue="high")
    started = _pass(sim)
    assert [j["user"] for j in started] == ["bob"]
    assert [j["stat"] for j in low].count(states.SSUSP) == 1
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="alice") == (8, 8, 0.0,
                                                    {"lic": 7.0})
    assert _row(sim, "tokens") == (9, 9, 0.0, {"lic": 7.0})


def test_a_job_that_ended_during_the_pass_is_not_counted(sim):
    done, _ = _submit(sim, "alice", 2, rusage="lic=1")
    _pass(sim)
    _submit(sim, "bob", 1)
    _pass(sim, between=lambda: sim.emit("FINISH", done, stat=states.DONE,
                                        exit_code=0))
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="alice") == (1, 1, 0.0,
                                                    {"lic": 1.0})
    assert _row(sim, "tokens") == (2, 2, 0.0, {"lic": 1.0})


def test_a_gang_the_pass_could_not_start_whole_is_not_counted(sim):
    _submit(sim, "alice", 6)
    _pass(sim)
    sim.gangs = {GANG: {"size": 3, "on_failure": "kill"}}
    _submit(sim, "carol", 3, job_group=GANG)
    _submit(sim, "bob", 1)
    started = _pass(sim)
    assert [j["user"] for j in started] == ["bob"]
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="carol") is None
    assert _row(sim, "per_queue", queues="normal") == (7, 7, 0.0, {})


def test_array_elements_are_counted_one_by_one(sim):
    _submit(sim, "alice", 1)
    _pass(sim)
    spec = submission("sleep 100", project="default")
    spec.pop("env")
    head, _ = submit.admit(sim, spec, "bob", 0, 0)
    for idx in (1, 2, 3):
        element = dict(head, idx=idx, spec=dict(spec),
                       name=f"arr[{idx}]")
        sim.emit("SUBMIT", element, queue=element["queue"], user="bob",
                 hold=False)
    started = _pass(sim)
    assert sorted(j["idx"] for j in started) == [1, 2, 3]
    assert _published(sim) == _recount(sim)
    assert _row(sim, "per_user", users="bob") == (3, 3, 0.0, {})
    assert _row(sim, "per_project", projects="default") == (4, 4, 0.0, {})


def test_a_pass_that_starts_nothing_leaves_the_snapshots_count(sim):
    _submit(sim, "alice", 8)
    _pass(sim)
    before = sim.passes.limit_usage
    _submit(sim, "bob", 1)
    assert _pass(sim) == []
    assert sim.passes.limit_usage == before
    assert _published(sim) == _recount(sim)


def test_a_plain_pass_charges_only_the_jobs_it_started(sim, monkeypatch):
    _submit(sim, "alice", 6, rusage="lic=1")
    _pass(sim)
    charged = []
    charge = dispatch.charge_limits
    monkeypatch.setattr(dispatch, "charge_limits",
                        lambda ctl, job, *rest: charged.append(job["user"])
                        or charge(ctl, job, *rest))
    _submit(sim, "bob", 2)
    _pass(sim)
    # The snapshot counts alice's six; the publication after the starts,
    # bob's two only.
    assert charged == ["alice"] * 6 + ["bob"] * 2
    assert _published(sim) == _recount(sim)
