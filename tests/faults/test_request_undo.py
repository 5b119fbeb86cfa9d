"""A handler that raises half-way is undone alone: the requests before and
after it in the same batch commit, and nothing it did is left in memory,
in the store or in an agent's outbox.

The controller runs in this process (its host has ``launch: none``, so no
agent is started and jobs stay pending) and a fault is injected into a
handler: no request the schema accepts is known to make one raise.
"""

import json
import logging

import pytest

from tests.lib.xcecluster import Cluster
from xce.spool.client import write_request


@pytest.fixture
def ctl(tmp_path):
    from xce.config import load as config_load
    from xce.controller.main import Controller
    c = Cluster(tmp_path / "c", mxj=1, host_extra="launch: none")
    controller = Controller(config_load.load(c.envdir), c.envdir)
    controller.start()
    try:
        yield controller
    finally:
        controller.store.close()
        controller.spool.close()


def _spec(ctl):
    return {"command": "true", "cwd": str(ctl.cfg.spool), "nslots": [1, 1]}


def _stored(ctl):
    return dict(ctl.store.db.execute("SELECT jobid, stat FROM jobs"))


def _reply(ctl, req_id):
    return json.loads((ctl.cfg.spool / "replies" / f"{req_id}.json")
                      .read_text())


def test_control_request_that_raises_half_way_is_undone_alone(
        ctl, monkeypatch, caplog):
    from xce.controller import control
    for _ in range(3):
        write_request(ctl.cfg.spool, "submit", {"spec": _spec(ctl)})
    ctl.run_once()
    real_act = control._act

    def act(ctl_, job, *rest):
        if job["jobid"] == 2:
            raise RuntimeError("injected fault")
        return real_act(ctl_, job, *rest)
    monkeypatch.setattr(control, "_act", act)
    before = write_request(ctl.cfg.spool, "submit", {"spec": _spec(ctl)})
    bad = write_request(ctl.cfg.spool, "control", {
        "action": "stop", "ids": [["1", 1, None], ["2", 2, None]]})
    after = write_request(ctl.cfg.spool, "control", {
        "action": "stop", "ids": [["3", 3, None]]})
    with caplog.at_level(logging.WARNING):
        ctl.run_once()
    assert {k: j["stat"] for k, j in ctl.jobs.items()} == {
        (1, 0): "PEND", (2, 0): "PEND", (3, 0): "PSUSP", (4, 0): "PEND"}
    assert _stored(ctl) == {1: "PEND", 2: "PEND", 3: "PSUSP", 4: "PEND"}
    events = ctl.store.db.execute(
        "SELECT jobid FROM events WHERE kind='STATUS'").fetchall()
    assert events == [(3,)]
    assert _reply(ctl, bad) == {
        "ok": False, "error": "Request failed: RuntimeError: injected fault"}
    assert _reply(ctl, before)["ok"] and _reply(ctl, after)["ok"]
    assert (ctl.cfg.spool / "rejected" / f"{bad}.json").exists()
    lines = [r.getMessage() for r in caplog.records if bad in r.getMessage()]
    assert len(lines) == 1 and "from uid " in lines[0], lines


def test_pack_submission_that_raises_leaves_no_job_or_job_id(
        ctl, monkeypatch):
    from xce.controller import submit
    real_new_jobs = submit.new_jobs
    calls = []

    def new_jobs(ctl_, uid, spec, *rest):
        calls.append(spec)
        if len(calls) == 2:
            raise KeyError("injected fault")
        return real_new_jobs(ctl_, uid, spec, *rest)
    monkeypatch.setattr(submit, "new_jobs", new_jobs)
    bad = write_request(ctl.cfg.spool, "submit_many",
                        {"specs": [_spec(ctl), _spec(ctl)]})
    ctl.run_once()
    assert "KeyError" in _reply(ctl, bad)["error"]
    assert ctl.jobs == {} and _stored(ctl) == {}
    assert ctl.index.ids == {}
    good = write_request(ctl.cfg.spool, "submit", {"spec": _spec(ctl)})
    ctl.run_once()
    assert _reply(ctl, good)["jobid"] == 1      # job id 1 was never used
    assert ctl.store.meta("next_jobid") == "2"
