"""bstop and bresume as LSF 10.1 has them: a job an administrator stopped
stays with the administrators unless lsb.params ENABLE_USER_RESUME=Y
(an administrator may bstop a USUSP job to that end), and bresume of a
USUSP job makes it SSUSP until the system resumes it, when its hosts'
loads allow.  Driven through the controller's turn (tests/lib/
fake_controller) with requests from system users' uids: the owner,
a queue administrator and root."""

import pwd
import signal
import time

import pytest

from xce.client.jobs import long
from xce.config import keys
from xce.config.load import ConfigError, load
from xce.model import suspreasons as sr
from xce.scheduler import suspending as sp

from tests.lib.builders import (hello, migrated_site, site, site_yaml,
                                submission)
from tests.lib.fake_controller import Turns, started_controller

OWNER, QADMIN, OTHER = (pwd.getpwnam(n) for n in ("daemon", "bin", "sys"))
ROOT = 0


def _turns(tmp_path, params=None, queue=None):
    etc = tmp_path / "etc"
    queues = {"normal": {"PRIORITY": 30, "ADMINISTRATORS": [QADMIN.pw_name],
                         **(queue or {})}}
    ctl = started_controller(site(etc, site_yaml(
        "susp", {"h1": {"MXJ": 2}}, queues=queues, params=params)), etc)
    t = Turns(ctl)
    t.turn([("h1", [hello("h1", ncpus=2)])])
    return t


@pytest.fixture
def turns(tmp_path):
    t = _turns(tmp_path)
    yield t
    t.ctl.store.close()


def _owned(turns):
    return turns.running(submission("sleep 60"), uid=OWNER.pw_uid)


def _stopped_by(turns, jobid, uid):
    assert turns.signal(jobid, "stop", uid=uid)[:2] == (
        True, f"Job <{jobid}> is being stopped")
    assert turns.stat(jobid) == "USUSP"


def _refused(turns, jobid, uid, action="resume", sig=None):
    assert turns.signal(jobid, action, sig, uid=uid) == (
        False, "User permission denied", [])


def _resumed(turns, jobid, uid):
    """bresume by *uid*: SSUSP, then RUN at the next turn's look."""
    assert turns.signal(jobid, "resume", uid=uid) == (
        True, f"Job <{jobid}> is being resumed", [])
    assert turns.stat(jobid) == "SSUSP"
    assert turns.events(jobid)[-1] == ("STATUS", {
        "stat": "SSUSP", "by": pwd.getpwuid(uid).pw_name,
        "reason": sr.USER_RESUME})
    sent = len(turns.ctl.links["h1"].sent)
    turns.turn()
    assert turns.stat(jobid) == "RUN"
    assert turns.sent_signals(sent) == [signal.SIGCONT]


@pytest.mark.parametrize("admin", [ROOT, QADMIN.pw_uid])
def test_an_admin_stopped_job_is_resumed_by_an_admin_not_its_owner(
        turns, admin):
    jobid = _owned(turns)
    _stopped_by(turns, jobid, admin)
    assert turns.events(jobid)[-1][1][sr.ADMIN_STOP] is True
    _refused(turns, jobid, OWNER.pw_uid)
    _refused(turns, jobid, OWNER.pw_uid, "signal", int(signal.SIGCONT))
    _refused(turns, jobid, OTHER.pw_uid)
    assert turns.stat(jobid) == "USUSP"
    # The owner's own bstop changes nothing: still the admin's stop.
    _stopped_by(turns, jobid, OWNER.pw_uid)
    _refused(turns, jobid, OWNER.pw_uid)
    _resumed(turns, jobid, QADMIN.pw_uid if admin == ROOT else ROOT)


def test_an_admin_bstop_of_a_user_stopped_job_keeps_the_user_out(turns):
    jobid = _owned(turns)
    _stopped_by(turns, jobid, OWNER.pw_uid)
    sent = len(turns.ctl.links["h1"].sent)
    _stopped_by(turns, jobid, ROOT)
    assert turns.sent_signals(sent) == []       # already stopped
    assert turns.events(jobid)[-1] == ("STATUS", {
        "stat": "USUSP", "by": "root", sr.ADMIN_STOP: True})
    _refused(turns, jobid, OWNER.pw_uid)
    _resumed(turns, jobid, ROOT)
    # Running again: the next stop by the owner is the owner's own.
    _stopped_by(turns, jobid, OWNER.pw_uid)
    _resumed(turns, jobid, OWNER.pw_uid)


def test_enable_user_resume_lets_the_owner_resume(tmp_path):
    turns = _turns(tmp_path, params={"ENABLE_USER_RESUME": "Y"})
    jobid = _owned(turns)
    _stopped_by(turns, jobid, ROOT)
    _resumed(turns, jobid, OWNER.pw_uid)
    turns.ctl.store.close()


def test_an_admin_hold_of_a_pending_job_is_released_by_an_admin(turns):
    for _ in range(2):
        _owned(turns)                       # the host's two slots
    jobid = turns.request("submit", {"spec": submission("true")},
                          uid=OWNER.pw_uid)["jobid"]
    assert turns.signal(jobid, "stop", uid=QADMIN.pw_uid)[:2] == (
        True, f"Job <{jobid}> is being stopped")
    assert turns.stat(jobid) == "PSUSP"
    _refused(turns, jobid, OWNER.pw_uid)
    assert turns.signal(jobid, "resume", uid=QADMIN.pw_uid)[:2] == (
        True, f"Job <{jobid}> is being resumed")
    assert turns.stat(jobid) == "PEND"
    assert sr.ADMIN_STOP not in turns.ctl.jobs[(jobid, 0)]["spec"]


def test_a_user_resumed_job_waits_for_its_hosts_load(tmp_path):
    turns = _turns(tmp_path, queue={"RESUME_COND": "select[r1m < 1]"})
    jobid = _owned(turns)
    turns.turn([("h1", [{"op": "load", "load": {"r1m": 3.0}}])])
    _stopped_by(turns, jobid, OWNER.pw_uid)
    turns.signal(jobid, "resume", uid=OWNER.pw_uid)
    for _ in range(3):
        turns.turn()
        assert turns.stat(jobid) == "SSUSP"
    # bresume of an SSUSP job has no effect (LSF: PSUSP and USUSP only).
    count = len(turns.events(jobid))
    assert turns.signal(jobid, "resume", uid=ROOT) == (
        True, f"Job <{jobid}> is being resumed", [])
    assert (turns.stat(jobid), len(turns.events(jobid))) == ("SSUSP", count)
    turns.turn([("h1", [{"op": "load", "load": {"r1m": 0.2}}])])
    turns.turn()
    assert turns.stat(jobid) == "RUN"
    turns.ctl.store.close()


@pytest.mark.parametrize("stat, data, reason", [
    ("USUSP", {"by": "ann"}, sr.SUSP_USER_STOP | sr.SUSP_MBD_LOCK),
    ("USUSP", {"by": "root", sr.ADMIN_STOP: True},
     sr.SUSP_ADMIN_STOP | sr.SUSP_MBD_LOCK),
    ("PSUSP", {"by": "ann"}, sr.PEND_USER_STOP),
    ("PSUSP", {"by": "root", sr.ADMIN_STOP: True}, sr.PEND_ADMIN_STOP),
    ("PEND", {"by": "ann"}, sr.PEND_USER_RESUME),
    ("SSUSP", {"by": "ann", "reason": sr.USER_RESUME},
     sr.SUSP_USER_RESUME | sr.SUSP_MBD_LOCK),
    ("SSUSP", {"reason": "WINDOW"}, sr.SUSP_QUEUE_WINDOW),
    ("SSUSP", {"reason": "LOAD:r1m"}, sr.SUSP_LOAD_REASON),
    ("SSUSP", {"reason": "LOAD:STOP_COND"}, sr.SUSP_QUE_STOP_COND),
    ("SSUSP", {"reason": "PREEMPTED"}, sr.SUSP_MBD_PREEMPT),
    ("RUN", {"by": "ann"}, 0),
    ("PSUSP", {"by": ""}, 0)])
def test_lsb_events_status_reasons_are_lsbatch_h_codes(stat, data, reason):
    assert sr.status_reason(stat, data) == reason
    assert (sr.SUSP_USER_STOP, sr.SUSP_ADMIN_STOP, sr.SUSP_MBD_LOCK) == (
        2, 16384, 65536)


def test_enable_user_resume_is_y_or_n_and_the_migrator_carries_it(
        tmp_path):
    assert keys.lookup("params", "ENABLE_USER_RESUME").status == \
        keys.ENFORCED
    with pytest.raises(ConfigError, match="ENABLE_USER_RESUME"):
        site(tmp_path / "bad", site_yaml(
            "c", {}, params={"ENABLE_USER_RESUME": "maybe"}))
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nENABLE_USER_RESUME = Y\n"
                      "End Parameters\n",
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                      "End Queue\n"})
    assert result.tree["parameters"]["ENABLE_USER_RESUME"] == "Y"
    assert load(tmp_path / "etc").param_flag("ENABLE_USER_RESUME")


def test_the_decision_resumes_user_resumed_jobs_as_load_allows():
    """xce.scheduler.suspending, which the controller and xce sim call:
    a job its user resumed waits for loadSched (or RESUME_COND) and the
    run window, one such resumption per host per look."""
    jobs = [sp.Running((1, 0), "q", ["h1"], sr.USER_RESUME, 1),
            sp.Running((2, 0), "q", ["h1"], sr.USER_RESUME, 2),
            sp.Running((3, 0), "q", ["h2"], sr.USER_RESUME, 3)]
    sit = sp.Situation(queue_priority={"q": 30},
                       host_load={"h1": {"r1m": 0.1}, "h2": {"r1m": 3.0}},
                       host_thresholds={"h2": {"r1m": (1.0, 2.0)}})
    assert sp.decide(jobs, sit) == ([], [(1, 0)])
    # A closed run window holds them: its reason is theirs then.
    sit.run_open["q"] = False
    assert sp.decide(jobs, sit) == (
        [((1, 0), sp.WINDOW), ((2, 0), sp.WINDOW), ((3, 0), sp.WINDOW)], [])


def test_a_user_resumed_job_held_by_its_run_window_has_the_window_reason(
        tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")     # the windows' local time
    time.tzset()
    try:
        _window_holds_a_user_resumed_job(tmp_path)
    finally:
        monkeypatch.undo()
        time.tzset()


def _window_holds_a_user_resumed_job(tmp_path):
    # Open at the start (00:16 UTC), closed from 01:00 to midnight.
    turns = _turns(tmp_path, queue={"RUN_WINDOW": "0:00-1:00"})
    jobid = _owned(turns)
    _stopped_by(turns, jobid, OWNER.pw_uid)
    turns.now = 2 * 3600.0
    turns.turn()
    assert turns.stat(jobid) == "USUSP"     # the user's stop stands
    turns.signal(jobid, "resume", uid=OWNER.pw_uid)
    assert turns.stat(jobid) == "SSUSP"
    sent = len(turns.ctl.links["h1"].sent)
    turns.turn()
    turns.turn()
    assert turns.stat(jobid) == "SSUSP"
    assert turns.events(jobid)[-1] == ("STATUS", {
        "stat": "SSUSP", "reason": sp.WINDOW})
    spec = turns.ctl.jobs[(jobid, 0)]["spec"]
    assert long.system_suspend_reason(spec["sys_susp"]) == \
        " The run windows of the queue are closed;"
    assert sr.status_reason("SSUSP", turns.events(jobid)[-1][1]) == \
        sr.SUSP_QUEUE_WINDOW
    assert turns.sent_signals(sent) == []   # stopped already
    # The window opens: resumed as the jobs it suspended are.
    turns.now = 86400.0 + 10
    turns.turn()
    assert turns.stat(jobid) == "RUN"
    assert turns.sent_signals(sent) == [signal.SIGCONT]
    turns.ctl.store.close()


def test_a_user_resumed_job_is_resumed_after_a_controller_restart(tmp_path):
    turns = _turns(tmp_path)
    jobid = _owned(turns)
    _stopped_by(turns, jobid, OWNER.pw_uid)
    # Answered and committed in one turn; the controller stops before
    # the next one's look.
    req = turns.ctl.spool.put("control", {
        "action": "resume", "ids": [[str(jobid), jobid, None]]},
        uid=OWNER.pw_uid)
    turns.ctl.run_once(turns.now + 0.5)
    assert turns.ctl.spool.replies[req]["ok"]
    assert turns.stat(jobid) == "SSUSP"
    turns.ctl.store.close()
    etc = tmp_path / "etc"
    again = Turns(started_controller(load(etc), etc), now=turns.now + 10)
    again.turn([("h1", [hello("h1", ncpus=2, jobs=[
        {"job": jobid, "idx": 0, "attempt": 1, "state": "running",
         "pid": 4242}])])])
    again.turn()
    assert again.stat(jobid) == "RUN"
    assert again.events(jobid)[-1] == ("STATUS", {
        "stat": "RUN", "reason": sr.USER_RESUME})
    assert signal.SIGCONT in again.sent_signals()
    again.ctl.store.close()
