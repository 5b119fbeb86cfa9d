"""Host loss decisions on a stand-in controller: UNKWN with a record that
outlives the controller; after the grace period a rerunnable job is
requeued and any other stays UNKWN until its host answers (LSF's way), then
ends TERM_ZOMBIE only if the returned agent does not have it.  A job its
returned agent still runs is back in its state, with the reason it had
for lsb.events (an administrator's stop, a run window, a preemption)."""

from xce.config.model import Config, QueueConf
from xce.controller import hostloss, reconcile
from xce.controller.apply import apply
from xce.model import states
from xce.model import suspreasons as sr

from tests.lib.builders import job_row
from tests.lib.fake_controller import FakeController


def _ctl(grace=10, queue_rerun=None):
    """Hosts h1 and h2 both seen; queue normal RERUNNABLE as given."""
    raw = {} if queue_rerun is None else {"RERUNNABLE": queue_rerun}
    cfg = Config(path=None, params={hostloss.GRACE_PARAM: grace},
                 queues={"normal": QueueConf("normal", raw=raw)})
    return FakeController(cfg, hosts={"h1": {"seen": True},
                                      "h2": {"seen": True}})


def _job_on(ctl, jobid, host, stat=states.RUN, **spec):
    return ctl.add(job_row(jobid, stat, exec_hosts=host, attempt=1,
                           spec=dict(spec)))


def _lose(ctl, host, now):
    ctl.now = now
    ctl.hosts[host]["seen"] = False
    hostloss.mark_unknown(ctl, host)


def test_jobs_of_a_lost_host_are_unknown_with_their_state_kept_on_the_spec():
    ctl = _ctl()
    a, b = _job_on(ctl, 1, "h1", states.USUSP), _job_on(ctl, 2, "h2")
    _lose(ctl, "h1", 100.0)
    assert (a["stat"], b["stat"]) == (states.UNKWN, states.RUN)
    assert a["spec"]["unkwn"] == {"was": states.USUSP, "since": 100.0}
    apply(a, "STATUS", {"stat": states.USUSP}, 105.0)   # the host is back
    assert "unkwn" not in a["spec"]


def test_after_the_grace_period_rerunnable_jobs_requeue_and_others_wait():
    ctl = _ctl(grace=10)
    rerun = _job_on(ctl, 1, "h1", rerunnable=True)
    once = _job_on(ctl, 2, "h1")
    _lose(ctl, "h1", 100.0)
    hostloss.check(ctl, 109.0)
    assert rerun["stat"] == once["stat"] == states.UNKWN
    hostloss.check(ctl, 111.0)
    assert rerun["stat"] == states.PEND and "unkwn" not in rerun["spec"]
    assert hostloss.REQUEUED in rerun["pend_reason"]
    hostloss.check(ctl, 10_000.0)           # however long the host is lost
    assert once["stat"] == states.UNKWN and once["exit_reason"] is None


def test_unknown_jobs_the_returned_agent_does_not_have_rerun_or_exit():
    ctl = _ctl()
    gone, rerun, there, other = (
        _job_on(ctl, 1, "h1"), _job_on(ctl, 2, "h1", rerunnable=True),
        _job_on(ctl, 3, "h1"), _job_on(ctl, 4, "h2"))
    _lose(ctl, "h1", 100.0)
    hostloss.unknown_to(ctl, "h1", {(3, 0, 1)})
    assert (gone["stat"], gone["exit_reason"]) == (states.EXIT, "TERM_ZOMBIE")
    assert rerun["stat"] == states.PEND
    assert there["stat"] == states.UNKWN and other["stat"] == states.RUN


def test_the_grace_period_counts_from_the_recorded_time_after_a_restart():
    ctl = _ctl(grace=10, queue_rerun="yes")
    job = _job_on(ctl, 1, "h1")
    _lose(ctl, "h1", 100.0)
    restarted = _ctl(grace=10, queue_rerun="yes")
    restarted.jobs = {(1, 0): job}          # as loaded from the store
    restarted.hosts["h1"]["seen"] = False
    hostloss.check(restarted, 111.0)
    assert job["stat"] == states.PEND


def test_bsub_rn_wins_over_a_rerunnable_queue():
    ctl = _ctl(queue_rerun="Y")
    assert hostloss.rerunnable(ctl, _job_on(ctl, 1, "h1"))
    assert not hostloss.rerunnable(ctl, _job_on(ctl, 2, "h1",
                                                rerunnable=False))
    assert not hostloss.rerunnable(_ctl(), _job_on(ctl, 3, "h1"))


def test_a_zombi_job_is_left_alone_past_the_grace_period():
    ctl = _ctl(grace=10)
    job = _job_on(ctl, 1, "h1")
    _lose(ctl, "h1", 100.0)
    hostloss.check(ctl, 101.0)
    apply(job, "STATUS", {"stat": states.ZOMBI, "reason": "TERM_OWNER"}, 102)
    hostloss.check(ctl, 200.0)
    assert (job["stat"], job["exit_reason"]) == (states.ZOMBI, "TERM_OWNER")
    assert "unkwn" not in job["spec"]


def test_zombi_jobs_the_returned_agent_does_not_have_end_with_their_kill_reason():
    ctl = _ctl()
    gone, there, other = (_job_on(ctl, 1, "h1"), _job_on(ctl, 2, "h1"),
                          _job_on(ctl, 3, "h2"))
    for job in (gone, there):
        apply(job, "STATUS", {"stat": states.UNKWN, "was": states.RUN}, 1)
        apply(job, "STATUS", {"stat": states.ZOMBI, "reason": "TERM_ADMIN"}, 2)
    hostloss.zombies_unknown_to(ctl, "h1", {(2, 0, 1)})
    assert (gone["stat"], gone["exit_reason"]) == (states.EXIT, "TERM_ADMIN")
    assert there["stat"] == states.ZOMBI and other["stat"] == states.RUN


def test_a_job_back_from_a_lost_host_keeps_the_reason_of_its_state():
    ctl = _ctl()
    admin = _job_on(ctl, 1, "h1", states.USUSP, **{sr.ADMIN_STOP: True})
    user = _job_on(ctl, 2, "h1", states.USUSP)
    window = _job_on(ctl, 3, "h1", states.SSUSP, sys_susp="WINDOW")
    preempted = _job_on(ctl, 4, "h1", states.SSUSP,
                        preempted={"since": 50.0, "by": "<9>"})
    running = _job_on(ctl, 5, "h1")
    _lose(ctl, "h1", 100.0)
    ctl.events.clear()
    reconcile.handle(ctl, "h1", [
        {"op": "started", "job": j, "idx": 0, "attempt": 1, "pid": 40 + j}
        for j in range(1, 6)])
    back = {jobid: data for kind, jobid, data in ctl.events
            if kind == "STATUS"}
    reasons = {jobid: sr.status_reason(data["stat"], data)
               for jobid, data in back.items()}
    assert reasons == {
        1: sr.SUSP_MBD_LOCK | sr.SUSP_ADMIN_STOP,
        2: sr.SUSP_MBD_LOCK | sr.SUSP_USER_STOP,
        3: sr.SUSP_QUEUE_WINDOW, 4: sr.SUSP_MBD_PREEMPT, 5: 0}
    assert [j["stat"] for j in (admin, user, window, preempted, running)] \
        == [states.USUSP, states.USUSP, states.SSUSP, states.SSUSP,
            states.RUN]
    # What bjobs and bresume read is kept as it was.
    assert sr.admin_stopped(admin["spec"])
    assert not sr.admin_stopped(user["spec"])
    assert window["spec"]["sys_susp"] == "WINDOW"
    assert preempted["spec"]["preempted"]["by"] == "<9>"
