"""Host loss past the grace period: rerunnable jobs are requeued and the
copies left on the host are fenced when it comes back; other jobs stay
UNKWN until their host answers, as in LSF.  Needs namespace hosts (a link
to cut); skipped with the fixture's reason on loopback hosts.

Jobs wait for a "go" file the test writes, as in test_ssh_cluster.py.
"""

import os
import shutil
import tempfile
import time

import pytest

from tests.cluster.test_ssh_cluster import JOB, Jobs, _host_status
from tests.lib.xcecluster import Cluster, _alive, shared_cluster, wait_for

# Short settings, so that the tests wait seconds, not minutes: a cut
# host's agent is given up after AGENT_TIMEOUT (pinged every third of it,
# as in tests/faults/test_stopped_agent.py) and its rerunnable jobs are
# requeued GRACE seconds later.  No test here needs a host back within the
# grace period: the jobs it brings back are not rerunnable.
AGENT_TIMEOUT = 3   # seconds; XCE_AGENT_TIMEOUT
GRACE = 4           # seconds; XCE_HOST_LOST_GRACE
RETURN = 40         # seconds for a restored host's jobs to be known again
VICTIM = "xh3"
RUN_ON = JOB.format(d="{d}").replace("echo $$", "echo $$ $(hostname)")
RERUN_APPS = """\
applications:
  rerun:
    RERUNNABLE: Y
  once:
    RERUNNABLE: N
"""
RERUN_QUEUE = """\
  rerunq:
    PRIORITY: 20
    RERUNNABLE: yes
"""


@pytest.fixture(scope="module")
def lossclu(ssh_hosts):
    if ssh_hosts.mode != "netns":
        pytest.skip(ssh_hosts.why_no_cut)
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    # The victim has a third slot, for the profile and queue RERUNNABLE
    # test's three jobs.
    with shared_cluster("xceloss-", ssh_hosts=ssh_hosts, mxj=2,
                        ssh_per_host={VICTIM: "MXJ: 3"},
                        extra=RERUN_APPS, extra_queues=RERUN_QUEUE,
                        extra_params=f"  XCE_AGENT_TIMEOUT: {AGENT_TIMEOUT}\n"
                                     f"  XCE_HOST_LOST_GRACE: {GRACE}") as c:
        yield c


@pytest.fixture
def jobs(lossclu, ssh_hosts):
    user = ssh_hosts.users[0]
    work = tempfile.mkdtemp(prefix="w", dir=user.home)
    os.chown(work, user.uid, user.gid)
    wait_for(lossclu._hosts_ok, timeout=40, what="every host to be ok")
    js = Jobs(lossclu, user, _path(work))
    try:
        yield js
    finally:
        ssh_hosts.restore(VICTIM)
        js.cleanup()
        shutil.rmtree(work, ignore_errors=True)


def _path(p):
    from pathlib import Path
    return Path(p)


def _submit(jobs, *opts):
    return jobs.submit(*opts, command=RUN_ON.format(d=jobs.work))


def _two_on_victim(jobs, first_opts, second_opts):
    """Fill xh1 and xh2 with blockers, so the next two jobs land on xh3."""
    blockers = [_submit(jobs, "-R", f"select[hname!={VICTIM}]")
                for _ in range(4)]
    placed = jobs.wait_running(*blockers)
    assert VICTIM not in placed.values(), placed
    a, b = _submit(jobs, *first_opts), _submit(jobs, *second_opts)
    assert set(jobs.wait_running(a, b).values()) == {VICTIM}
    return blockers, placed, a, b


def _runs(jobs, jobid):
    """One (pid, host) per run of the job."""
    words = jobs.runs(jobid)
    return list(zip(words[::2], words[1::2]))


def _field(jobs, jobid, name):
    r = jobs.clu.run("bjobs", "-noheader", "-o", name, str(jobid))
    assert r.rc == 0, r
    return r.out.strip()


def test_past_the_grace_period_rerunnable_jobs_rerun_others_stay_unknown_until_their_host_answers(jobs, ssh_hosts):
    blockers, placed, rerun, once = _two_on_victim(jobs, ["-r"], ["-rn"])
    stale = int(_runs(jobs, rerun)[0][0])
    # Free two slots on xh1, where the requeued job can go.
    freed = [j for j in blockers if placed[j] == "xh1"]
    for j in freed:
        jobs.release(j, 0)
        assert jobs.wait_finished(j)[0] == "DONE"
    ssh_hosts.cut(VICTIM)
    wait_for(lambda: jobs.fields(rerun)[0] == "UNKWN", timeout=30,
             what="the jobs of the cut host to be UNKWN")
    assert jobs.fields(once)[0] == "UNKWN"
    # Past the grace period: a new attempt of the rerunnable job elsewhere.
    wait_for(lambda: len(_runs(jobs, rerun)) == 2, timeout=GRACE + 30,
             what="the rerunnable job to run again")
    assert _runs(jobs, rerun)[1][1] == "xh1", _runs(jobs, rerun)
    # The job that is not rerunnable stays UNKWN, as in LSF, however long
    # its host is lost.
    assert jobs.fields(once)[0] == "UNKWN"
    assert jobs.fields(rerun)[0] == "RUN"
    # It finishes while its host is cut off; its result comes back with
    # the host, and the rerunnable job's stale copy is killed.
    jobs.release(once, 7)
    ssh_hosts.restore(VICTIM)
    wait_for(lambda: _host_status(jobs.clu, VICTIM) in ("ok", "closed_Full"),
             timeout=40, what="the cut host to come back")
    wait_for(lambda: not _alive(stale),
             what=f"the stale copy of job {rerun} to be killed")
    assert jobs.wait_finished(once) == ("EXIT", "7", VICTIM)
    assert len(_runs(jobs, once)) == 1
    assert jobs.fields(rerun)[0] == "RUN"
    jobs.release(rerun, 0)
    assert jobs.wait_finished(rerun)[:1] == ("DONE",)
    assert len(_runs(jobs, rerun)) == 2


def test_unknown_state_survives_a_controller_restart_and_returns_with_the_host(jobs, ssh_hosts):
    blockers, _, stopped, running = _two_on_victim(jobs, [], [])
    r = jobs.clu.run("bstop", str(stopped), user=jobs.user.name)
    assert r.rc == 0, r
    wait_for(lambda: jobs.fields(stopped)[0] == "USUSP", what="USUSP")
    ssh_hosts.cut(VICTIM)
    wait_for(lambda: jobs.fields(stopped)[0] == "UNKWN" and
             jobs.fields(running)[0] == "UNKWN", timeout=30,
             what="the jobs of the cut host to be UNKWN")
    jobs.clu.kill_controller()
    jobs.clu.start(wait_hosts=False)
    ssh_hosts.restore(VICTIM)
    # Back: each job returns to its own state.
    wait_for(lambda: jobs.fields(stopped)[0] == "USUSP", timeout=RETURN,
             what="the stopped job to be USUSP again")
    wait_for(lambda: jobs.fields(running)[0] == "RUN",
             what="the running job to be RUN again")
    jobs.clu.run("bresume", str(stopped), user=jobs.user.name)
    for j in blockers + [stopped, running]:
        jobs.release(j, 0)
    for j in blockers + [stopped, running]:
        assert jobs.wait_finished(j)[0] == "DONE"
        assert len(_runs(jobs, j)) == 1


def _long(clu, host):
    r = clu.run("bhosts", "-l", host)
    assert r.rc == 0, r
    return r.out


def test_a_host_whose_sshd_answers_without_an_agent_is_unreach_with_the_reason(ssh_hosts):
    """launch: none and no agent: SSH works, the attach says why it ends."""
    root = tempfile.mkdtemp(prefix="xceunr-")
    c = Cluster(root, ssh_hosts=ssh_hosts, ssh_launch="none")
    try:
        c.start(wait_hosts=False)
        wait_for(lambda: "no agent is running for host xh1" in c.log_tail(),
                 timeout=30, what="the attach to say no agent runs")
        wait_for(lambda: _host_status(c, "xh1") == "unreach", timeout=30,
                 what="xh1 to be unreach")
        wait_for(lambda: "LINK FAILURE: " in _long(c, "xh1"),
                 what="the reason in bhosts -l")
        text = _long(c, "xh1")
        assert "no agent is running for host xh1" in text, text
        assert "CURRENT LOAD" not in text
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_a_cut_host_is_unavail_with_the_reason_in_bhosts_l(lossclu, jobs, ssh_hosts):
    ssh_hosts.cut(VICTIM)
    wait_for(lambda: _host_status(lossclu, VICTIM) == "unavail", timeout=40,
             what="the cut host to be unavail")
    wait_for(lambda: "LINK FAILURE: " in _long(lossclu, VICTIM),
             what="the reason in bhosts -l")
    ssh_hosts.restore(VICTIM)
    wait_for(lossclu._hosts_ok, timeout=40, what="the host to be ok again")
    assert "LINK FAILURE" not in _long(lossclu, VICTIM)


def test_bkill_of_an_unknown_job_makes_it_zombi_until_its_host_returns_and_bkill_r_removes_it_at_once(jobs, ssh_hosts):
    blockers, _, zombi, removed = _two_on_victim(jobs, ["-rn"], ["-rn"])
    procs = {j: int(_runs(jobs, j)[0][0]) for j in (zombi, removed)}
    ssh_hosts.cut(VICTIM)
    wait_for(lambda: jobs.fields(zombi)[0] == "UNKWN" and
             jobs.fields(removed)[0] == "UNKWN", timeout=30,
             what="the jobs of the cut host to be UNKWN")
    # The host was lost, and its grace period began, before this.
    lost_by = time.monotonic()
    user = jobs.user.name
    r = jobs.clu.run("bkill", str(zombi), user=user)
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{zombi}> is being terminated\n", ""), r
    r = jobs.clu.run("bkill", "-r", str(removed), user=user)
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{removed}> is being terminated\n", ""), r
    assert jobs.fields(zombi)[0] == "ZOMBI"
    assert jobs.fields(removed)[0] == "EXIT"        # at once, host or not
    assert _field(jobs, removed, "exit_reason").startswith("TERM_OWNER")
    r = jobs.clu.run("bkill", "-r", str(removed), user=user)
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"Job <{removed}>: Job has already finished\n", r
    # A ZOMBI job waits for its host past the grace period: it is not
    # turned into a TERM_ZOMBIE exit.  The grace ends by lost_by + GRACE,
    # and the controller looks every second (hostloss.CHECK_EVERY): it is
    # watched past the first look after both the grace and now, and one
    # second more.
    until = max(lost_by + GRACE, time.monotonic()) + 2
    while time.monotonic() < until:
        assert jobs.fields(zombi)[0] == "ZOMBI"
        time.sleep(0.1)
    ssh_hosts.restore(VICTIM)
    # The host is back: the ZOMBI job is killed there and ends EXIT; the
    # removed job's copy is fenced.
    for j in (zombi, removed):
        wait_for(lambda: not _alive(procs[j]), timeout=30,
                 what=f"the process of job {j} to be killed")
    stat, _, host = jobs.wait_finished(zombi, timeout=30)
    assert (stat, host) == ("EXIT", VICTIM)
    assert _field(jobs, zombi, "exit_reason").startswith("TERM_OWNER")
    assert len(_runs(jobs, zombi)) == 1
    assert jobs.fields(removed)[0] == "EXIT"
    for j in blockers:
        jobs.release(j, 0)
        assert jobs.wait_finished(j)[0] == "DONE"


def test_the_profiles_then_the_queues_rerunnable_decide_a_lost_hosts_jobs(
        jobs, ssh_hosts):
    """RERUNNABLE of the profile (rerun) and of the queue (rerunq): their
    jobs are requeued past the grace period; the profile once's N wins
    over its queue's yes, so that job stays UNKWN, and ends EXIT when its
    host comes back after a crash that killed it."""
    blockers = [_submit(jobs, "-R", f"select[hname!={VICTIM}]")
                for _ in range(4)]
    placed = jobs.wait_running(*blockers)
    by_profile = _submit(jobs, "-app", "rerun")
    by_queue = _submit(jobs, "-q", "rerunq")
    overridden = _submit(jobs, "-q", "rerunq", "-app", "once")
    assert set(jobs.wait_running(by_profile, by_queue,
                                 overridden).values()) == {VICTIM}
    assert "Re-runnable" in jobs.clu.long(by_profile)
    assert "Re-runnable" not in jobs.clu.long(overridden)
    for j in [j for j in blockers if placed[j] == "xh1"]:
        jobs.release(j, 0)
        assert jobs.wait_finished(j)[0] == "DONE"
    ssh_hosts.cut(VICTIM)
    for j in (by_profile, by_queue):
        wait_for(lambda: len(_runs(jobs, j)) == 2, timeout=GRACE + 30,
                 what=f"the rerunnable job {j} to run again")
        assert _runs(jobs, j)[1][1] == "xh1", _runs(jobs, j)
    assert jobs.fields(overridden)[0] == "UNKWN"
    ssh_hosts.crash(VICTIM)
    try:
        ssh_hosts.restore(VICTIM)
    finally:
        ssh_hosts.boot(VICTIM)
    stat, _, host = jobs.wait_finished(overridden, timeout=60)
    assert (stat, host) == ("EXIT", VICTIM), jobs.clu.log_tail()
    # Its agent's journal outlived the crash: the job died with the host
    # (SIGKILL), not at the hands of the batch system.
    assert jobs.fields(overridden)[1] == "137"
    assert len(_runs(jobs, overridden)) == 1
    for j in (by_profile, by_queue):
        assert jobs.fields(j)[0] == "RUN"
        jobs.release(j, 0)
        assert jobs.wait_finished(j)[0] == "DONE"
        assert len(_runs(jobs, j)) == 2
    for j in blockers:
        jobs.release(j, 0)
