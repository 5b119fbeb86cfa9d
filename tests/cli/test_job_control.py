"""bkill, bstop, bresume: one signal path, LSF's messages and exit codes."""

from tests.lib.xcecluster import proc_state, wait_for


def test_bkill_running_job_ends_it_with_term_owner(cluster):
    jobid = cluster.submit("-o", "k.out", "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bkill", str(jobid))
    assert (r.rc, r.out, r.err) == (0, f"Job <{jobid}> is being terminated\n", "")
    cluster.wait_stat(jobid, "EXIT")
    out = (cluster.root / "k.out").read_text()
    assert "TERM_OWNER: job killed by owner." in out
    assert "Exited with exit code 130." in out


def test_kill_sequence_reaches_sigkill_for_a_stubborn_job(cluster):
    jobid = cluster.submit("-o", "stub.out",
                           "trap '' INT TERM; sleep 60 & wait; sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: cluster.job_pid(jobid), what="the job's pid")
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    assert "Exited with exit code 137." in (cluster.root / "stub.out").read_text()


def test_bkill_pending_job_exits_at_once(make_cluster):
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    pending = cluster.submit("true")
    assert cluster.stat(pending) == "PEND"
    r = cluster.run("bkill", str(pending), str(blocker))
    assert r.rc == 0
    assert r.out == (f"Job <{pending}> is being terminated\n"
                     f"Job <{blocker}> is being terminated\n")
    assert cluster.stat(pending) == "EXIT"
    cluster.wait_stat(blocker, "EXIT")


def test_bkill_reports_each_bad_job_and_goes_on(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    live = cluster.submit("sleep 60")
    r = cluster.run("bkill", "999", str(done), str(live), "abc")
    assert r.rc == 255
    assert r.err == "abc: Illegal job ID.\n"
    r = cluster.run("bkill", "999", str(done), str(live))
    assert r.rc == 255
    assert r.out == f"Job <{live}> is being terminated\n"
    assert r.err == (f"Job <999>: No matching job found\n"
                     f"Job <{done}>: Job has already finished\n")


def test_bkill_without_target_prints_usage_message(cluster):
    r = cluster.run("bkill")
    assert r.rc == 255 and r.out == ""
    assert r.err == ("Job ID or one of '-m', '-u' '-q' and '-J' must be "
                     "specified.\n")


def test_bkill_zero_and_filters(cluster):
    a = cluster.submit("-J", "alpha", "-q", "short", "sleep 60")
    b = cluster.submit("-J", "beta", "sleep 60")
    c = cluster.submit("-J", "beta2", "sleep 60")
    r = cluster.run("bkill", "-J", "alpha")
    assert r.out == f"Job <{a}> is being terminated\n"
    r = cluster.run("bkill", "-q", "normal", "0")
    assert sorted(r.out.splitlines()) == sorted(
        [f"Job <{b}> is being terminated", f"Job <{c}> is being terminated"])
    for j in (a, b, c):
        cluster.wait_stat(j, "EXIT")


def test_bkill_s_sends_the_signal(cluster):
    jobid = cluster.submit("-o", "sig.out",
                           "trap 'echo got-usr1; exit 5' USR1; "
                           "while :; do sleep 0.1; done")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: cluster.job_pid(jobid), what="the job's pid")
    r = cluster.run("bkill", "-s", "USR1", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being signaled\n")
    cluster.wait_stat(jobid, "EXIT")
    out = (cluster.root / "sig.out").read_text()
    # The whole process group gets it: the trap runs, sleep dies of it.
    assert "got-usr1" in out.splitlines() and "exit code 5." in out
    r = cluster.run("bkill", "-s", "NOSUCH", str(jobid))
    assert (r.rc, r.err) == (255, "NOSUCH: Illegal signal value\n")


def test_bstop_and_bresume_stop_and_continue_the_process_group(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    pid = wait_for(lambda: cluster.job_pid(jobid), what="the job's pid")
    r = cluster.run("bstop", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being stopped\n")
    assert cluster.stat(jobid) == "USUSP"
    wait_for(lambda: proc_state(pid) == "T", what="the job to stop")
    r = cluster.run("bresume", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being resumed\n")
    # LSF: SSUSP, then the system resumes it when the loads allow.
    assert cluster.stat(jobid) in ("SSUSP", "RUN")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: proc_state(pid) in "SR", what="the job to continue")
    r = cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT")


def test_bstop_pending_job_makes_it_psusp(make_cluster):
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    pending = cluster.submit("true")
    cluster.run("bstop", str(pending))
    assert cluster.stat(pending) == "PSUSP"
    r = cluster.run("bjobs", "-p")
    assert " The job was suspended by the user while pending;" in r.out
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(blocker, "EXIT")
    assert cluster.stat(pending) == "PSUSP"
    cluster.run("bresume", str(pending))
    cluster.wait_stat(pending, "DONE")


def test_killing_a_stopped_job_works(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: cluster.job_pid(jobid), what="the job's pid")
    cluster.run("bstop", str(jobid))
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT")


def test_bstop_and_bresume_pick_jobs_by_host_queue_name_and_user(cluster):
    a = cluster.submit("-J", "alpha", "-q", "short", "sleep 60")
    b = cluster.submit("-J", "beta", "sleep 60")
    for j in (a, b):
        cluster.wait_stat(j, "RUN")
    host = cluster.run("bhosts", "-w").out.splitlines()[1].split()[0]
    user = cluster.run("id", "-un").out.strip()
    r = cluster.run("bstop", "-m", "otherhost", "0")
    assert (r.rc, r.out) == (255, ""), r
    r = cluster.run("bstop", "-m", host, "0")
    assert (r.rc, sorted(r.out.splitlines())) == (0, sorted(
        [f"Job <{a}> is being stopped", f"Job <{b}> is being stopped"])), r
    r = cluster.run("bresume", "-q", "short", "0")
    assert (r.rc, r.out) == (0, f"Job <{a}> is being resumed\n"), r
    cluster.wait_stat(a, "RUN")
    assert cluster.stat(b) == "USUSP"
    r = cluster.run("bresume", "-u", user, "-J", "beta")
    assert (r.rc, r.out) == (0, f"Job <{b}> is being resumed\n"), r
    r = cluster.run("bstop", "-u", user, "-q", "short", "-J", "alpha")
    assert (r.rc, r.out) == (0, f"Job <{a}> is being stopped\n"), r
    r = cluster.run("bresume", "-m", host, "-J", "alpha")
    assert (r.rc, r.out) == (0, f"Job <{a}> is being resumed\n"), r
    cluster.run("bkill", "0")
    for j in (a, b):
        cluster.wait_stat(j, "EXIT")
