"""Pre- and post-execution end to end (bsub -E/-Ep, the queue's PRE_EXEC,
POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC, LOCAL_MAX_PREEXEC_RETRY),
the queue's JOB_STARTER and bsub -L, through the real commands, a real
controller and agent."""

import time

from tests.lib.xcecluster import wait_for


def _queues(log, **extra):
    keys = "".join(f"    {k}: {v!r}\n" for k, v in extra.items())
    return (f"  wrapped:\n    PRIORITY: 35\n"
            f"    HOST_PRE_EXEC: echo host_pre $LSB_JOBID $(id -un) >> {log}\n"
            f"    PRE_EXEC: echo queue_pre $(pwd) >> {log}\n"
            f"    POST_EXEC: echo queue_post $LSB_JOBEXIT_STAT >> {log}\n"
            f"    HOST_POST_EXEC: echo host_post >> {log}\n" + keys)


def _lines(path):
    return path.read_text().splitlines() if path.exists() else []


def test_steps_run_in_lsf_order_around_the_job(make_cluster, tmp_path):
    log = tmp_path / "order.log"
    cluster = make_cluster(extra_queues=_queues(log))
    out = tmp_path / "job.out"
    jobid = cluster.submit(
        "-q", "wrapped", "-o", str(out),
        "-E", f"echo job_pre >> {log}; echo pre_says_hi",
        "-Ep", f"echo job_post >> {log}",
        f"echo job >> {log}; exit 3")
    wait_for(lambda: len(_lines(log)) == 7, what="every step")
    assert _lines(log) == [
        f"host_pre {jobid} root", "queue_pre /tmp", "job_pre", "job",
        "job_post", "queue_post 768", "host_post"]
    assert cluster.stat(jobid) == "EXIT"
    # The job's own pre-exec writes to the job's output file.
    assert "pre_says_hi" in out.read_text()
    r = cluster.run("bjobs", "-l", str(jobid))
    flat = r.joined
    assert f"Pre-execution Command <echo job_pre >> {log}; echo " \
        "pre_says_hi>" in flat, r
    assert f"Post-execution Command <echo job_post >> {log}>" in flat, r
    wait_for(lambda: "Post job process done successfully." in
             cluster.run("bjobs", "-l", str(jobid)).joined,
             what="the post-exec status in bjobs -l")
    r = cluster.run("bhist", "-l", str(jobid))
    assert "Post job process done successfully;" in r.joined, r


def test_post_done_and_post_err_dependencies_are_met(make_cluster, tmp_path):
    cluster = make_cluster()
    good = cluster.submit("-Ep", "true", "true")
    bad = cluster.submit("-Ep", "exit 4", "true")
    after_good = cluster.submit("-w", f"post_done({good})", "true")
    after_bad = cluster.submit("-w", f"post_err({bad})", "true")
    never = cluster.submit("-w", f"post_done({bad})", "true")
    plain = cluster.submit("true")
    after_plain = cluster.submit("-w", f"post_done({plain})", "true")
    for jobid in (after_good, after_bad, after_plain):
        cluster.wait_stat(jobid, "DONE")
    assert cluster.stat(never) == "PEND"
    r = cluster.run("bjobs", "-l", str(bad))
    assert "Post job process failed." in r.joined, r
    # lsb.events: JOB_STATUS with JOB_STAT_PDONE (0x80) / JOB_STAT_PERR
    # (0x100) or'ed into the finished state, as LSF logs them.
    for jobid, code in ((good, 64 | 0x80), (bad, 64 | 0x100)):
        cluster.wait_lsb_records("lsb.events", "JOB_STATUS", jobid,
                                 until=lambda r: str(code) in
                                 [w[4] for w in r])


def test_failing_pre_exec_pends_and_stops_at_the_retry_limit(
        make_cluster, tmp_path):
    count = tmp_path / "tries"
    cluster = make_cluster(extra_params="  MBD_SLEEP_TIME: 1", extra_queues=(
        "  retry2:\n    PRIORITY: 35\n    LOCAL_MAX_PREEXEC_RETRY: 2\n"))
    jobid = cluster.submit("-q", "retry2", "-E",
                           f"echo x >> {count}; exit 1", "echo", "ran")
    cluster.wait_stat(jobid, "PSUSP")
    assert len(_lines(count)) == 2
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "The job's pre-exec command exited with non-zero status;" \
        in r.joined, r
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.joined.count("Pending: The job's pre-exec command exited with "
                          "non-zero status;") == 1, r
    # Exit 99: the job ends at once, without retrying.
    gone = cluster.submit("-E", "exit 99", "echo", "ran")
    cluster.wait_stat(gone, "EXIT")
    r = cluster.run("bjobs", "-noheader", "-o", "exit_code", str(gone))
    assert r.out.strip() == "99", r


def test_a_profiles_retry_limit_and_action_win_over_the_queues(
        make_cluster, tmp_path):
    count = tmp_path / "tries"
    cluster = make_cluster(
        extra_params="  MBD_SLEEP_TIME: 1",
        extra_queues="  retry2:\n    PRIORITY: 35\n"
        "    LOCAL_MAX_PREEXEC_RETRY: 2\n",
        extra="applications:\n  once:\n    LOCAL_MAX_PREEXEC_RETRY: 1\n"
        "    LOCAL_MAX_PREEXEC_RETRY_ACTION: EXIT\n")
    jobid = cluster.submit("-q", "retry2", "-app", "once", "-E",
                           f"echo x >> {count}; exit 1", "echo", "ran")
    cluster.wait_stat(jobid, "EXIT")
    assert len(_lines(count)) == 1
    r = cluster.run("bapp", "-l", "once")
    assert "LOCAL_MAX_PREEXEC_RETRY = 1" in r.out and \
        "not acted" not in r.out, r


def test_pre_exec_failure_pends_with_reason_then_runs(make_cluster,
                                                      tmp_path):
    flag = tmp_path / "ready"
    tries = tmp_path / "tries"
    # A session of 4 s: the reads below come before the next attempt on a
    # loaded machine too.
    cluster = make_cluster(extra_params="  MBD_SLEEP_TIME: 4")
    jobid = cluster.submit("-E", f"echo x >> {tries}; test -e {flag}",
                           "echo", "ran")
    # It goes back to PEND with LSF's reason until the next session (PEND
    # once its pre-exec ran: before its dispatch it was PEND too).
    wait_for(lambda: len(_lines(tries)) == 1 and
             cluster.stat(jobid) == "PEND", what="the failed pre-exec")
    r = cluster.run("bjobs", "-p", str(jobid))
    assert "The job's pre-exec command exited with non-zero status;" in \
        r.out, r
    assert len(_lines(tries)) == 1
    wait_for(lambda: len(_lines(tries)) == 2, what="a second attempt")
    flag.write_text("")
    cluster.wait_stat(jobid, "DONE", timeout=30)
    # One attempt a session, not as fast as the agent can fail them.
    assert len(_lines(tries)) <= 4


def test_job_starter_wraps_the_command_and_script(make_cluster, tmp_path):
    cluster = make_cluster(extra_queues=(
        "  started:\n    PRIORITY: 35\n"
        "    JOB_STARTER: 'sh -c \"echo before; %USRCMD; echo after\"'\n"
        "  appended:\n    PRIORITY: 35\n    JOB_STARTER: env STARTED=yes\n"))
    out = tmp_path / "a.out"
    jobid = cluster.submit("-q", "started", "-o", str(out), "echo", "middle")
    cluster.wait_stat(jobid, "DONE")
    text = out.read_text()
    assert text.index("before") < text.index("middle") < text.index("after")
    out2 = tmp_path / "b.out"
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\necho started=$STARTED args=$*\n")
    script.chmod(0o755)
    jobid = cluster.submit("-q", "appended", "-o", str(out2), str(script),
                           "one", "two")
    cluster.wait_stat(jobid, "DONE")
    assert "started=yes args=one two" in out2.read_text()


def test_a_command_level_job_starter_has_no_effect_on_batch_jobs(
        make_cluster, tmp_path):
    # LSF: "Command-level job starters have no effect on batch jobs,
    # including interactive batch jobs"; the job sees the variable only.
    cluster = make_cluster()
    starter = {"LSF_JOB_STARTER": "/bin/false",
               "LSB_JOB_STARTER": "/bin/false"}
    out = tmp_path / "s.out"
    r = cluster.run("bsub", "-o", str(out), "echo ran $LSF_JOB_STARTER",
                    env=starter)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    cluster.wait_stat(jobid, "DONE")
    assert "ran /bin/false" in out.read_text()
    r = cluster.run("bsub", "-I", "echo", "interactive", env=starter)
    assert r.rc == 0 and "interactive" in r.out.split(), r


def test_login_shell_initialises_the_environment(make_cluster, tmp_path):
    cluster = make_cluster()
    out = tmp_path / "l.out"
    jobid = cluster.submit("-L", "/bin/bash", "-o", str(out),
                           "shopt -q login_shell && echo login")
    cluster.wait_stat(jobid, "DONE")
    assert "login" in out.read_text().split()
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Login Shell </bin/bash>" in r.joined, r


def test_bad_exec_options_are_refused(cluster):
    for argv, message in (
            (["-L", "bash"], "-L: bash: The login shell must be an absolute "
             "path. Job not submitted."),
            (["-E", " "], "-E: Bad argument: the command is empty. Job not "
             "submitted.")):
        r = cluster.run("bsub", *argv, "true")
        assert (r.rc, r.out, r.err.strip()) == (255, "", message), r
    assert cluster.run("bjobs", "-a").rc in (0, 255)


def test_a_post_exec_cut_short_by_an_agent_restart_counts_as_failed(
        cluster, tmp_path):
    import socket
    gate = tmp_path / "gate"
    jobid = cluster.submit("-Ep", f"while [ ! -e {gate} ]; do sleep 0.1; "
                           "done", "true")
    cluster.wait_stat(jobid, "DONE")
    waiting = cluster.submit("-w", f"post_err({jobid})", "true")
    r = cluster.run("badmin", "hrestart", socket.gethostname())
    assert r.rc == 0, r
    # Its post-exec cannot be followed any more: POST_ERR, not a wait
    # that never ends.
    cluster.wait_stat(waiting, "DONE")
    gate.write_text("")
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Post job process failed." in r.joined, r


def test_the_slot_of_a_failed_pre_exec_serves_others_while_it_waits(
        make_cluster, tmp_path):
    """The job waits out a session (MBD_SLEEP_TIME) after a failed
    pre-exec; a job behind it takes the slot meanwhile, and it runs
    again before the jobs submitted after it."""
    flag, log, go = tmp_path / "flag", tmp_path / "ran.log", tmp_path / "go"
    # The wait (8 s) leaves a loaded machine time to submit and dispatch
    # the next job; that job runs until the wait is over (the time the
    # store gives), not for a guessed number of seconds.
    cluster = make_cluster(mxj=1, extra_params="  MBD_SLEEP_TIME: 8")
    first = cluster.submit(
        "-E", f"[ -e {flag} ] || {{ touch {flag}; exit 1; }}",
        f"echo first >> {log}")
    # Its pre-exec failed once: it waits until then.
    retry_at = wait_for(lambda: cluster.stored_job(first)["spec"].get(
        "preexec_retry_at"), what="the failed pre-exec's wait")
    second = cluster.submit(f"while [ ! -e {go} ]; do sleep 0.1; done; "
                            f"echo second >> {log}")
    cluster.wait_stat(second, "RUN")
    third = cluster.submit(f"echo third >> {log}")
    wait_for(lambda: time.time() > retry_at + 1, timeout=30,
             what="the end of the first job's wait")
    go.write_text("")
    cluster.wait_stat(third, "DONE")
    assert _lines(log) == ["second", "first", "third"]
    assert cluster.stat(first) == cluster.stat(second) == "DONE"
