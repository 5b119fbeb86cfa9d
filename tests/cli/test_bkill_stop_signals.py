"""bkill -s with a stop or continue signal, as LSF 10.1 documents it: STOP
is bstop and CONT is bresume (the same states, reasons, bhist lines and
lsb.events records, whichever way the signal is spelled), and TSTP, TTIN
or TTOU reach the job as they are and leave it USUSP until it is resumed."""

import re
import signal

from tests.lib.xcecluster import proc_state, wait_for

STOP, CONT = int(signal.SIGSTOP), int(signal.SIGCONT)
USUSP, SSUSP, RUN = 0x10, 0x08, 0x04   # JOB_STATUS jStatus (lsb.events(5))
# Each signal the job catches is written down; `sleep` dies of it (or
# stops, for TSTP) and the loop goes on.
CATCHER = ("trap 'echo TSTP >> sig.$LSB_JOBID' TSTP; "
           "trap 'echo USR1 >> sig.$LSB_JOBID' USR1; "
           "trap 'echo USR2 >> sig.$LSB_JOBID' USR2; "
           "echo READY >> sig.$LSB_JOBID; while :; do sleep 0.2; done")


def _ok(cluster, line, *argv):
    r = cluster.run(*argv)
    assert (r.rc, r.out, r.err) == (0, line + "\n", ""), (argv, r)


def _statuses(cluster, jobid, count):
    """The jStatus of the job's JOB_STATUS records, once *count* are
    written; and that no JOB_SIGNAL was written for it."""
    records = cluster.wait_lsb_events("JOB_STATUS", jobid,
                                      until=lambda r: len(r) >= count)
    assert cluster.lsb_events("JOB_SIGNAL", jobid) == []
    return [r["jStatus"] for r in records]


def _resumed(cluster, jobid):
    """After bresume (or bkill -s CONT): SSUSP until the system resumes
    it, which it does at its next look (no load threshold holds it)."""
    assert cluster.stat(jobid) in ("SSUSP", "RUN")
    cluster.wait_stat(jobid, "RUN")


def test_bkill_s_stop_and_cont_in_every_spelling_are_bstop_and_bresume(
        make_cluster):
    cluster = make_cluster(mxj=4)
    # (how it is stopped, how it is resumed)
    ways = [(("bstop",), ("bkill", "-s", "CONT")),
            (("bkill", "-s", "STOP"), ("bresume",)),
            (("bkill", "-s", str(STOP)), ("bkill", "-s", str(CONT))),
            (("bkill", "-s", "SIGSTOP"), ("bkill", "-s", "SIGCONT"))]
    jobs = [cluster.submit("sleep 60") for _ in ways]
    for jobid in jobs:
        cluster.wait_stat(jobid, "RUN")
    pids = [wait_for(lambda: cluster.job_pid(j), what="the job's pid")
            for j in jobs]
    for jobid, pid, (stop, _) in zip(jobs, pids, ways):
        _ok(cluster, f"Job <{jobid}> is being stopped", *stop, str(jobid))
        assert cluster.stat(jobid) == "USUSP", stop
        wait_for(lambda: proc_state(pid) == "T", what=f"{stop} to stop it")
        assert " SUSPENDING REASONS:\n The job was suspended by user;" in \
            cluster.long(jobid), stop
    for jobid, pid, (stop, resume) in zip(jobs, pids, ways):
        _ok(cluster, f"Job <{jobid}> is being resumed", *resume, str(jobid))
        _resumed(cluster, jobid)
        wait_for(lambda: proc_state(pid) in "SR",
                 what=f"{resume} to continue it")
    user = cluster.run("id", "-un").out.strip()
    for jobid in jobs:
        assert _statuses(cluster, jobid, 3) == [USUSP, SSUSP, RUN]
        text = cluster.run("bhist", "-l", str(jobid)).joined
        assert re.search(rf": Suspended by the user or administrator "
                         rf"<{user}>;$", text, re.M), text
        assert "Signal <" not in text
    for jobid in jobs:
        cluster.run("bkill", str(jobid))
    for jobid in jobs:
        cluster.wait_stat(jobid, "EXIT")


def test_bkill_s_stop_uses_the_queues_suspend_action_and_tstp_is_sent_itself(
        make_cluster):
    cluster = make_cluster(mxj=2, extra_queues="""\
  ctl:
    PRIORITY: 20
    JOB_CONTROLS: SUSPEND[SIGUSR1] RESUME[SIGUSR2]
""")
    queued = cluster.submit("-q", "ctl", CATCHER)
    plain = cluster.submit(CATCHER)
    for jobid in (queued, plain):
        wait_for(lambda: "READY" in cluster.caught(jobid),
                 what=f"job {jobid} to set its traps")
    # STOP is bstop: the queue's SUSPEND signal, and CONT its RESUME's.
    _ok(cluster, f"Job <{queued}> is being stopped",
        "bkill", "-s", "STOP", str(queued))
    assert cluster.stat(queued) == "USUSP"
    wait_for(lambda: "USR1" in cluster.caught(queued),
             what="the queue's SUSPEND signal")
    _ok(cluster, f"Job <{queued}> is being resumed",
        "bkill", "-s", "CONT", str(queued))
    wait_for(lambda: "USR2" in cluster.caught(queued),
             what="the queue's RESUME signal")
    assert cluster.stat(queued) == "RUN"
    # TSTP goes to the job as it is, which is then USUSP, as LSF's
    # sbatchd has it; again, it changes nothing.
    for _ in range(2):
        _ok(cluster, f"Job <{plain}> is being signaled",
            "bkill", "-s", "TSTP", str(plain))
        assert cluster.stat(plain) == "USUSP"
    assert " The job was suspended by user;" in cluster.long(plain)
    _ok(cluster, f"Job <{plain}> is being resumed", "bresume", str(plain))
    _resumed(cluster, plain)
    # The trap runs once its `sleep`, stopped by TSTP too, is continued.
    wait_for(lambda: "TSTP" in cluster.caught(plain),
             what="the job to catch TSTP")
    assert "USR1" not in cluster.caught(plain)
    assert _statuses(cluster, plain, 3) == [USUSP, SSUSP, RUN]
    for jobid in (queued, plain):
        cluster.run("bkill", "-r", str(jobid))
        cluster.wait_stat(jobid, "EXIT")


def test_bkill_s_stop_holds_a_pending_job_and_cont_releases_it(make_cluster):
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    pending = cluster.submit("true")
    assert cluster.stat(pending) == "PEND"
    _ok(cluster, f"Job <{pending}> is being stopped",
        "bkill", "-s", "stop", str(pending))
    assert cluster.stat(pending) == "PSUSP"
    assert " The job was suspended by the user while pending;" in \
        cluster.run("bjobs", "-p").out
    _ok(cluster, f"Job <{pending}> is being resumed",
        "bkill", "-s", "CONT", str(pending))
    assert cluster.stat(pending) == "PEND"
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(pending, "DONE")


def test_bkill_s_refuses_bad_signals_and_jobs_it_cannot_act_on(make_cluster):
    cluster = make_cluster(mxj=1)
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    pending = cluster.submit("true")
    for bad in ("NOSUCH", "SIGNOSUCH", "0", "65", "-1"):
        r = cluster.run("bkill", "-s", bad, str(running))
        assert (r.rc, r.out, r.err) == (
            255, "", f"{bad}: Illegal signal value\n"), (bad, r)
    for argv, job, error in (
            (("-s", "STOP"), done, "Job has already finished"),
            (("-s", "CONT"), done, "Job has already finished"),
            (("-s", "STOP"), 999999, "No matching job found"),
            (("-s", "TSTP"), pending, "Job has not started yet"),
            (("-s", "CONT"), pending, "Job is not suspended"),
            (("-s", "CONT"), running, "Job is not suspended")):
        r = cluster.run("bkill", *argv, str(job))
        assert (r.rc, r.out, r.err) == (
            255, "", f"Job <{job}>: {error}\n"), (argv, job, r)
    assert (cluster.stat(running), cluster.stat(pending)) == ("RUN", "PEND")
    cluster.run("bkill", str(running), str(pending))
    cluster.wait_stat(running, "EXIT")
