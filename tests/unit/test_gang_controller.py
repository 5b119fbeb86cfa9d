"""Gang groups in the controller's turn, driven in process (the in-memory
spool and agent links of tests/lib): a member the system sends back to
pending after its start (a failed pre-exec, its host lost) ends or
requeues the started others as the gang's policy says, and xce gang set/unset are events of
the store's log that xce sim --verify replays."""

import json

import pytest

from xce.errors import text
from xce.sim.verify import verify
from xce.store.reader import Reader

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

HOSTS = ("h1", "h2", "h3", "h4")
SITE = site_yaml("gangs", {h: {"MXJ": 1} for h in HOSTS})
GANG = "/train"


def _hello(host):
    return hello(host, ncpus=1, maxmem=1024)


def _spec(group=GANG):
    return submission(job_group=group)


@pytest.fixture
def etc(tmp_path):
    return tmp_path / "etc"


def _controller(etc):
    return started_controller(site(etc, SITE), etc)


def _started_gang(etc, policy):
    """A gang of four, started on the four hosts in one turn."""
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    _gang_group(ctl, 4, policy)
    for _ in HOSTS:
        ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1002.0)
    assert _stats(ctl) == ["RUN"] * 4
    return ctl


def _gang_group(ctl, size, policy="kill"):
    ctl.spool.put("jobgroup", {"op": "add", "path": GANG}, uid=0)
    ctl.spool.put("gang", {"op": "set", "path": GANG, "size": size,
                           "on_failure": policy}, uid=0)
    ctl.run_once(1001.0)


def _stats(ctl, keys=((1, 0), (2, 0), (3, 0), (4, 0))):
    with Reader(ctl.store.path) as reader:
        rows = {(j["jobid"], j["idx"]): j for j in reader.jobs()}
    return [rows[k]["stat"] for k in keys]


def _pre_failed(ctl, now, jobid=1, attempt=1):
    host = ctl.jobs[(jobid, 0)]["exec_hosts"]
    ctl.run_once(now, inbox=[(host, [
        {"op": "finished", "job": jobid, "idx": 0, "attempt": attempt,
         "stat": "EXIT", "exit_code": 1, "pre_failed": 1,
         "end_time": now}])])


def _signals(ctl):
    return sorted((m["job"], m["signal"], m["reason"])
                  for link in ctl.links.values() for m in link.sent
                  if m.get("op") == "signal")


def test_a_failed_start_requeues_the_started_others_with_continue(etc):
    ctl = _started_gang(etc, "continue")
    _pre_failed(ctl, 1003.0)
    # Member 1 waits for LSF's next session; the other three were killed
    # and requeued, so that nothing of the gang runs without it.
    assert _stats(ctl) == ["PEND"] * 4
    assert _signals(ctl) == [(n, "KILLSEQ", "TERM_GANG") for n in (2, 3, 4)]
    # The three cannot start without member 1 (held back until 1013).
    ctl.run_once(1005.0)
    assert _stats(ctl) == ["PEND"] * 4
    # Once it may, the four start again together, a new attempt each.
    ctl.run_once(1014.0)
    assert _stats(ctl) == ["RUN"] * 4
    assert [ctl.jobs[(n, 0)]["attempt"] for n in (1, 2, 3, 4)] == [2] * 4
    with Reader(ctl.store.path) as reader:
        requeued = [json.loads(d) for _, kind, jobid, _, d in reader.events()
                    if kind == "REQUEUE" and jobid != 1]
    assert [r.get("gang") for r in requeued] == [GANG] * 3
    assert [json.loads(r["reason"]) for r in requeued] == \
        [[[text("GANG_REQUEUED", path=GANG), None]]] * 3
    ctl.store.close()


def test_a_failed_start_ends_the_gang_with_kill(etc):
    ctl = _started_gang(etc, "kill")
    _pre_failed(ctl, 1003.0)
    with Reader(ctl.store.path) as reader:
        one = next(j for j in reader.jobs() if j["jobid"] == 1)
    assert (one["stat"], one["exit_reason"]) == ("EXIT", "TERM_GANG")
    assert _signals(ctl) == [(n, "KILLSEQ", "TERM_GANG") for n in (2, 3, 4)]
    # Their ends come from their agents, as after any kill.
    for n in (2, 3, 4):
        ctl.run_once(1004.0, inbox=[(f"h{n}", [
            {"op": "finished", "job": n, "idx": 0, "attempt": 1,
             "stat": "EXIT", "exit_code": 137, "reason": "TERM_GANG",
             "end_time": 1004.0}])])
    assert _stats(ctl) == ["EXIT"] * 4
    ctl.store.close()


def test_a_member_requeued_after_its_host_was_lost_ends_the_gang_with_kill(
        etc):
    from xce.controller import hostloss
    ctl = _started_gang(etc, "kill")
    job = ctl.jobs[(1, 0)]
    job["spec"] = dict(job["spec"], rerunnable=True)    # bsub -r
    ctl.now = 1003.0
    hostloss.mark_unknown(ctl, job["exec_hosts"])   # its agent is gone
    assert job["stat"] == "UNKWN"
    hostloss.expire(ctl, job)       # and silent past the grace period
    ctl.run_once(1003.0)
    with Reader(ctl.store.path) as reader:
        one = next(j for j in reader.jobs() if j["jobid"] == 1)
    assert (one["stat"], one["exit_reason"]) == ("EXIT", "TERM_GANG")
    assert _signals(ctl) == [(n, "KILLSEQ", "TERM_GANG") for n in (2, 3, 4)]
    ctl.store.close()


def test_a_member_requeued_alone_leaves_others_of_no_gang_alone(etc):
    """An ordinary group: a failed pre-exec requeues only its own job."""
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    for _ in (1, 2):
        ctl.spool.put("submit", {"spec": _spec("/plain")}, uid=0)
    ctl.run_once(1001.0)
    _pre_failed(ctl, 1002.0)
    assert _stats(ctl, ((1, 0), (2, 0))) == ["PEND", "RUN"]
    assert _signals(ctl) == []
    ctl.store.close()


def test_gang_set_and_unset_are_events_that_verify_replays(etc):
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    _gang_group(ctl, 2)
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1002.0)
    assert _stats(ctl, ((1, 0),)) == ["PEND"]       # one of two ready
    ctl.spool.put("gang", {"op": "unset", "path": GANG}, uid=0)
    ctl.run_once(1003.0)
    assert _stats(ctl, ((1, 0),)) == ["RUN"]
    ctl.spool.put("gang", {"op": "set", "path": GANG, "size": 3}, uid=0)
    ctl.run_once(1004.0)
    for _ in (1, 2):
        ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1005.0)
    assert _stats(ctl, ((2, 0), (3, 0))) == ["PEND", "PEND"]  # 2 of 3
    with Reader(ctl.store.path) as reader:
        logged = [(kind, json.loads(d)) for _, kind, _, _, d
                  in reader.events() if kind.startswith("GANG_")]
    assert logged == [
        ("GANG_SET", {"path": GANG, "size": 2, "on_failure": "kill"}),
        ("GANG_UNSET", {"path": GANG}),
        ("GANG_SET", {"path": GANG, "size": 3, "on_failure": "kill"})]
    ctl.store.close()
    # The gang as it is now (size 3) would hold job 1 back at 1002 and
    # let nothing start at 1003: the replay follows the log instead.
    v = verify(ctl.cfg, ctl.store.path)
    assert (v.kinds.get("start"), v.differences) == (1, [])
    assert not {"GANG_SET", "GANG_UNSET"} & set(v.skipped)


def test_deleting_a_gang_group_is_a_gang_unset_event(etc):
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[(h, [_hello(h)]) for h in HOSTS])
    _gang_group(ctl, 2)
    ctl.spool.put("jobgroup", {"op": "del", "path": GANG}, uid=0)
    ctl.run_once(1002.0)
    assert ctl.gangs == {}
    with Reader(ctl.store.path) as reader:
        kinds = [kind for _, kind, _, _, _ in reader.events()
                 if kind.startswith("GANG_")]
        assert reader.gangs() == []
    assert kinds == ["GANG_SET", "GANG_UNSET"]
    ctl.store.close()
