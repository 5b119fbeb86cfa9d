"""bsub -b and -t in the controller's turn, run_once(now), driven with a
clock so that no test waits: a begin time keeps a job back until it
comes and the turn wakes for it; at a termination time a running job
gets SIGUSR2, then the kill sequence ten minutes later, both with
TERM_DEADLINE; a job still pending then ends EXIT with TERM_DEADLINE."""

import pytest

from xce.scheduler import jobtimes
from xce.store.reader import Reader

from tests.lib.builders import site
from tests.lib.fake_controller import started_controller
from tests.unit.test_controller_turns import HELLO, SITE, _spec

T0 = 1_000_000


@pytest.fixture
def ctl(tmp_path):
    etc = tmp_path / "etc"
    c = started_controller(site(etc, SITE), etc)
    yield c
    c.store.close()


def _row(ctl, column):
    with Reader(ctl.store.path) as reader:
        return [row[column] for row in reader.jobs()]


def _sent(ctl, op):
    return [m for m in ctl.links["h1"].sent if m["op"] == op]


def test_a_job_waits_for_its_begin_time_and_the_turn_wakes_for_it(ctl):
    ctl.spool.put("submit", {"spec": dict(_spec(), begin_time=T0 + 90)})
    wait = ctl.run_once(T0, inbox=[("h1", [HELLO])])
    assert _sent(ctl, "start") == [] and _row(ctl, "stat") == ["PEND"]
    assert "The job has a specified start time" in _row(ctl, "pend_reason")[0]
    assert wait <= 1.0
    ctl.run_once(T0 + 89.5)
    assert _sent(ctl, "start") == []
    assert ctl.run_once(T0 + 89.9) == pytest.approx(0.1)
    ctl.run_once(T0 + 90)
    assert [m["job"] for m in _sent(ctl, "start")] == [1]


def test_a_running_job_is_warned_then_killed_at_its_termination_time(ctl):
    ctl.spool.put("submit", {"spec": dict(_spec("sleep 9999"),
                                          term_time=T0 + 60)})
    ctl.run_once(T0, inbox=[("h1", [HELLO])])
    ctl.run_once(T0 + 1, inbox=[("h1", [
        {"op": "started", "job": 1, "idx": 0, "attempt": 1, "pid": 7,
         "start_time": T0 + 1, "stdout": None}])])
    ctl.run_once(T0 + 59)
    assert _sent(ctl, "signal") == []
    ctl.run_once(T0 + 60)
    warn = _sent(ctl, "signal")
    assert [(m["signal"], m["reason"]) for m in warn] == [
        (12, "TERM_DEADLINE")]                  # SIGUSR2
    ctl.run_once(T0 + 60 + jobtimes.WARN_TIME - 1)
    assert len(_sent(ctl, "signal")) == 1
    ctl.run_once(T0 + 60 + jobtimes.WARN_TIME)
    ctl.run_once(T0 + 61 + jobtimes.WARN_TIME)
    assert [(m["signal"], m["reason"]) for m in _sent(ctl, "signal")] == [
        (12, "TERM_DEADLINE"), ("KILLSEQ", "TERM_DEADLINE")]


def test_a_job_still_pending_at_its_termination_time_ends(ctl):
    ctl.spool.put("submit", {"spec": dict(_spec(), begin_time=T0 + 500,
                                          term_time=T0 + 100)})
    ctl.run_once(T0, inbox=[("h1", [HELLO])])
    ctl.run_once(T0 + 99)
    assert _row(ctl, "stat") == ["PEND"]
    ctl.run_once(T0 + 100)
    assert _row(ctl, "stat") == ["EXIT"]
    assert _row(ctl, "exit_reason") == ["TERM_DEADLINE"]
    assert _sent(ctl, "start") == []
    _shows_term_deadline(ctl)


def _shows_term_deadline(ctl):
    """bjobs -l, bhist -l and bacct -l of the ended job, from the store."""
    from xce.client.history.acct import job_block
    from xce.client.history.events import histories
    from xce.client.history.long import long_history
    from xce.client.jobs.long import long_format
    with Reader(ctl.store.path) as reader:
        row = reader.jobs()[0]
        texts = [long_format([row], reader),
                 long_history(histories(reader, [row])), job_block(row)]
    for text in texts:
        flat = "".join(text.split())
        assert "Completed<exit>;TERM_DEADLINE:jobkilledafterdeadline" \
            "expires." in flat, text


def test_a_pending_job_whose_run_limit_no_longer_fits_ends(ctl):
    """-W 10 and -t in 15 minutes: the job must start within 5."""
    ctl.spool.put("submit", {"spec": dict(_spec(), runlimit=10.0,
                                          begin_time=T0 + 3600,
                                          term_time=T0 + 900)})
    ctl.run_once(T0, inbox=[("h1", [HELLO])])
    assert ctl.run_once(T0 + 299) <= 1.0
    assert _row(ctl, "stat") == ["PEND"]
    ctl.run_once(T0 + 301)
    assert _row(ctl, "stat") == ["EXIT"]
    assert _row(ctl, "exit_reason") == ["TERM_DEADLINE"]


def test_the_pure_rules():
    assert jobtimes.due(10, True, 20, None, False) is jobtimes.NOTHING
    assert jobtimes.due(20, True, 20, None, False) == jobtimes.ELIGIBLE
    assert jobtimes.due(30, True, None, 30, False) == jobtimes.ABORT
    assert jobtimes.due(30, False, None, 30, False) == jobtimes.WARN
    assert jobtimes.due(30, False, None, 30, True) is jobtimes.NOTHING
    assert jobtimes.due(630, False, None, 30, True) == jobtimes.KILL
    assert jobtimes.next_due(10, True, 20, 40, False) == 20
    assert jobtimes.next_due(35, False, None, 30, True) == 630
    assert jobtimes.due(25, True, None, 30, False, runlimit=10) == \
        jobtimes.ABORT
    assert jobtimes.due(20, True, None, 30, False, runlimit=10) is \
        jobtimes.NOTHING
    assert jobtimes.expected(600, None) == 600
    assert jobtimes.expected(600, 60) == 60
    assert jobtimes.expected(None, 60) == 60
    assert jobtimes.expected(None, None) is None
