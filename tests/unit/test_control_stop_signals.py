"""bkill -s STOP and CONT take bstop's and bresume's path; the other stop
signals (TSTP, TTIN, TTOU) reach the job as they are and leave it USUSP.
Driven through the controller's turn with the in-memory spool and agent
link (tests/lib/fake_controller), as test_controller_turns does."""

import signal

import pytest

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import Turns, started_controller

SITE = site_yaml("stops", {"h1": {"MXJ": 1}})


@pytest.fixture
def ctl(tmp_path):
    etc = tmp_path / "etc"
    ctl = started_controller(site(etc, SITE), etc)
    yield ctl
    ctl.store.close()


@pytest.fixture
def turns(ctl):
    t = Turns(ctl)
    t.turn([("h1", [hello("h1", ncpus=1)])])
    return t


def _running(turns):
    return turns.running(submission("sleep 60"))


@pytest.mark.parametrize("sig", [signal.SIGSTOP, signal.SIGCONT])
def test_stop_and_cont_act_as_bstop_and_bresume(turns, sig):
    jobid = _running(turns)
    stopper = ("signal", int(signal.SIGSTOP)) if sig == signal.SIGSTOP \
        else ("stop", None)
    assert turns.signal(jobid, *stopper) == (
        True, f"Job <{jobid}> is being stopped", [signal.SIGSTOP])
    assert turns.stat(jobid) == "USUSP"
    resumer = ("signal", int(signal.SIGCONT)) if sig == signal.SIGCONT \
        else ("resume", None)
    assert turns.signal(jobid, *resumer) == (
        True, f"Job <{jobid}> is being resumed", [])
    # SSUSP until the system resumes it, at the next turn's look.
    assert turns.stat(jobid) == "SSUSP"
    sent = len(turns.ctl.links["h1"].sent)
    turns.turn()
    assert turns.stat(jobid) == "RUN"
    assert turns.sent_signals(sent) == [signal.SIGCONT]
    # Recorded as bstop and bresume record it: status changes, no signal.
    assert "SIGNAL" not in turns.event_kinds(jobid)


@pytest.mark.parametrize("sig", [signal.SIGTSTP, signal.SIGTTIN,
                                 signal.SIGTTOU])
def test_other_stop_signals_are_sent_as_they_are_and_suspend(turns, sig):
    jobid = _running(turns)
    assert turns.signal(jobid, "signal", int(sig)) == (
        True, f"Job <{jobid}> is being signaled", [sig])
    assert turns.stat(jobid) == "USUSP"
    # Already suspended: no effect, as bstop of a USUSP job.
    assert turns.signal(jobid, "signal", int(sig)) == (
        True, f"Job <{jobid}> is being signaled", [])
    assert turns.stat(jobid) == "USUSP"
    assert turns.signal(jobid, "signal", int(signal.SIGCONT))[2] == []
    assert turns.stat(jobid) == "SSUSP"
    turns.turn()
    assert turns.stat(jobid) == "RUN"
    assert signal.SIGCONT in turns.sent_signals()
    assert "SIGNAL" not in turns.event_kinds(jobid)


def test_stop_of_a_pending_job_holds_it_and_cont_releases_it(turns):
    _running(turns)             # the host's one slot
    pending = turns.request("submit", {"spec": submission("true")})["jobid"]
    assert turns.stat(pending) == "PEND"
    assert turns.signal(pending, "signal", int(signal.SIGTSTP)) == (
        False, "Job has not started yet", [])
    assert turns.signal(pending, "signal", int(signal.SIGCONT)) == (
        False, "Job is not suspended", [])
    assert turns.signal(pending, "signal", int(signal.SIGSTOP)) == (
        True, f"Job <{pending}> is being stopped", [])
    assert turns.stat(pending) == "PSUSP"
    assert turns.signal(pending, "signal", int(signal.SIGCONT)) == (
        True, f"Job <{pending}> is being resumed", [])
    assert turns.stat(pending) == "PEND"


def test_cont_of_a_running_job_is_refused_as_bresume_is(turns):
    jobid = _running(turns)
    assert turns.signal(jobid, "signal", int(signal.SIGCONT)) == (
        False, "Job is not suspended", [])
    assert turns.signal(jobid, "resume") == (
        False, "Job is not suspended", [])
    assert turns.stat(jobid) == "RUN"


def test_other_signals_are_still_sent_and_recorded(turns):
    jobid = _running(turns)
    assert turns.signal(jobid, "signal", int(signal.SIGUSR1)) == (
        True, f"Job <{jobid}> is being signaled", [signal.SIGUSR1])
    assert turns.stat(jobid) == "RUN"
    assert turns.event_kinds(jobid).count("SIGNAL") == 1
