"""The controller's turn, run_once(now), driven in process: a request goes
in through the spool, the agent link sees the start, the agent's reports
come back in the inbox, and the store ends with the job DONE.  The spool
and the agent links are the in-memory fakes of tests/lib; the store, the
handlers, the scheduler and the reconciliation are the real ones."""

import pytest

from xce.controller.main import Controller
from xce.store.reader import Reader

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import FakeAgentLink, FakeSpool

SITE = site_yaml("turns", {"h1": {"MXJ": 2}})
HELLO = hello("h1", ncpus=2)


def _spec(command="true"):
    return submission(command, env={"A": "1"})


def _report(op, **fields):
    """A report of job 1's first attempt, as the agent sends it."""
    return {"op": op, "job": 1, "idx": 0, "attempt": 1, **fields}


@pytest.fixture
def controller(tmp_path):
    etc = tmp_path / "etc"
    ctl = Controller(site(etc, SITE), etc, spool=FakeSpool(),
                     link_for=FakeAgentLink)
    declared = set(vars(ctl))
    ctl.start()
    yield ctl, declared
    ctl.store.close()


def _stored(ctl, column):
    with Reader(ctl.store.path) as reader:
        return [row[column] for row in reader.jobs()]


def test_a_submitted_job_starts_on_the_agent_and_ends_done(controller):
    ctl, _ = controller
    req = ctl.spool.put("submit", {"spec": _spec()})
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    assert ctl.spool.replies[req] == {"ok": True, "jobid": 1,
                                      "queue": "normal", "default": True}
    assert ctl.spool.incoming == []
    starts = [m for m in ctl.links["h1"].sent if m["op"] == "start"]
    assert [(m["job"], m["idx"], m["attempt"], m["command"], m["hosts"])
            for m in starts] == [(1, 0, 1, "true", ["h1"])]
    assert _stored(ctl, "stat") == ["RUN"]

    ctl.run_once(1001.0, inbox=[("h1", [
        _report("started", pid=4242, start_time=1001.0, stdout=None),
        _report("usage", cpu_time=0.5, mem=2048)])])
    assert _stored(ctl, "pgid") == [4242]

    ctl.run_once(1002.0, inbox=[("h1", [
        _report("finished", stat="DONE", exit_code=0, end_time=1002.0,
                cpu_time=0.75, max_mem=2048)])])
    assert _stored(ctl, "stat") == ["DONE"]
    assert _stored(ctl, "cpu_time") == [0.75]
    assert ctl.jobs == {}
    assert ctl.links["h1"].sent[-1] == {"op": "ack", "job": 1, "idx": 0,
                                        "attempt": 1}


def test_no_turn_adds_an_attribute_to_the_controller(controller):
    """What each part keeps between turns is declared at construction
    (Controller.declare_parts), never added to the controller later."""
    ctl, declared = controller
    assert _added(ctl, declared) == []
    ctl.spool.put("submit", {"spec": _spec()})
    ctl.spool.put("submit", {"spec": dict(_spec(), name="a[1-3]")})
    turns = [[HELLO], [_report("started", pid=7, start_time=1001.0),
                       _report("usage", cpu_time=1.0, mem=10)],
             [_report("finished", stat="EXIT", exit_code=1,
                      end_time=1002.0)], []]
    for n, msgs in enumerate(turns):
        ctl.run_once(1000.0 + n, inbox=[("h1", msgs)])
        assert _added(ctl, declared) == [], f"turn {n}"
    ctl.link_lost("h1")         # its jobs go UNKWN: host loss's state
    ctl.run_once(2000.0)
    assert _added(ctl, declared) == []


def _added(ctl, declared):
    return sorted(set(vars(ctl)) - declared)


def test_the_reply_is_written_after_the_agents_flush_and_before_lsb_events(
        controller, monkeypatch):
    """A command waits on its reply; the agents' messages (a job that
    starts) and the commit come before it, the lsb.events/lsb.acct lines
    after it (lsb.events(5)), so writing them does not delay the answer."""
    from xce.store import lsbfiles
    ctl, _ = controller
    seen = []
    real = lsbfiles.after_commit

    def appending(*args, **kw):
        seen.append((dict(ctl.spool.replies), list(ctl.links["h1"].sent)))
        return real(*args, **kw)
    monkeypatch.setattr(lsbfiles, "after_commit", appending)
    req = ctl.spool.put("submit", {"spec": _spec()})
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    replies, sent = seen[0]
    assert replies[req]["jobid"] == 1
    assert [m["op"] for m in sent if m["op"] == "start"] == ["start"]
    assert lsbfiles.written(ctl.store) is not None     # the files follow
