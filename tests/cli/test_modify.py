"""bmod, bswitch, brequeue, btop, bbot: LSF's messages and exit codes,
and what each one changes."""

import sys

import pytest

from tests.lib.xcecluster import BIN, blocked, wait_for

COMMANDS = ("bmod", "bswitch", "brequeue", "btop", "bbot")


# Minutes with decimals (seconds, for short tests) need this setting; LSF
# and the default take whole minutes only.
FRACTIONS = {"XCE_FRACTIONAL_RUNLIMIT": "Y"}


def cmd(cluster, name, *argv, **kw):
    """Run a command, through ``python -m`` until it is installed."""
    if (BIN / name).exists():
        return cluster.run(name, *argv, **kw)
    return cluster.run(sys.executable, "-m", f"xce.cli.{name}", *argv, **kw)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_and_usage(cluster, name):
    r = cmd(cluster, name, "--help")
    assert r.rc == 0 and r.out.startswith(f"Usage: {name} ")
    assert cmd(cluster, name, "-h").rc == 0
    # -Y is an option of none of them (bmod's -Z is LSF's, not supported).
    r = cmd(cluster, name, "-Y")
    assert r.rc == 255 and "illegal option -- Y" in r.err


# -- bmod ---------------------------------------------------------------------
def test_bmod_pending_job_changes_limits_name_and_queue(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-J", "before", "sleep 1")
    r = cmd(cluster, "bmod", "-W", "30", "-M", "2G", "-J", "after",
            "-q", "short", "-n", "1", str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{jobid}> are being changed\n", "")
    row = cluster.stored_job(jobid)
    assert (row["name"], row["queue"]) == ("after", "short")
    assert row["spec"]["runlimit"] == 30
    assert row["spec"]["memlimit"] == 2 * 1024 * 1024
    r = cluster.run("bjobs", "-noheader", "-o", "name queue", str(jobid))
    assert r.out.split() == ["after", "short"]


def test_bmod_removal_forms(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-W", "10", "-M", "100M", "-J", "nm", "sleep 1")
    r = cmd(cluster, "bmod", "-Wn", "-Mn", "-Jn", str(jobid))
    assert r.rc == 0, r
    row = cluster.stored_job(jobid)
    assert "runlimit" not in row["spec"] or row["spec"]["runlimit"] is None
    assert not row["spec"].get("memlimit")
    assert row["name"] == "sleep 1"


def test_bmod_removing_the_run_limit_falls_back_to_the_queue_default(
        make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-q", "short", "-W", "5", "sleep 1")
    assert cmd(cluster, "bmod", "-Wn", str(jobid)).rc == 0
    assert cluster.stored_job(jobid)["spec"]["runlimit"] == 60


def test_bmod_running_job_allows_limits_refuses_queue(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "bmod", "-W", "20", str(jobid))
    assert (r.rc, r.out) == (0, f"Parameters of job <{jobid}> are being changed\n")
    assert cluster.stored_job(jobid)["spec"]["runlimit"] == 20
    r = cmd(cluster, "bmod", "-q", "short", str(jobid))
    assert r.rc == 255 and r.out == ""
    assert r.err == (f"Job <{jobid}>: Only the following parameters can be "
                     "used to modify a running job: -c, -M, -W, -o, -e, -r"
                     ". Job not modified.\n")
    r = cmd(cluster, "bmod", "-e", "new.err", str(jobid))
    assert r.rc == 255 and "No error file specified before job dispatch" \
        in r.err
    assert cluster.stat(jobid) == "RUN"


def test_bmod_bad_input(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    cases = [
        (("-q", "nosuch", str(jobid)),
         "nosuch: No such queue. Job not modified.\n"),
        (("-W", "abc", str(jobid)),
         "abc: Bad RUNLIMIT specification. Job not modified.\n"),
        (("-W", "100", "-q", "short", str(jobid)),
         "RUNLIMIT: Cannot exceed queue's hard limit(s). Job not modified.\n"),
        (("-W", "5", "99999"),
         "Job <99999>: No matching job found. Job not modified.\n"),
        (("-W", "5", "1x"), "1x: Illegal job ID.\n"),
        ((str(jobid),), "No modification is specified. Job not modified.\n"),
        # "" is no value (removing is -Wn, -qn): refused, not ignored.
        (("-W", "", str(jobid)),
         "bmod: -W: Bad argument: the value is empty. Job not modified.\n"),
        (("-q", "", str(jobid)),
         "bmod: -q: Bad argument: the value is empty. Job not modified.\n"),
    ]
    for argv, err in cases:
        r = cmd(cluster, "bmod", *argv)
        assert (r.rc, r.out, r.err) == (255, "", err), argv
    r = cmd(cluster, "bmod", "-W", "5")
    assert r.rc == 255 and "Job ID must be specified" in r.err
    done = cluster.submit("-q", "short", "true")
    cluster.run("bkill", str(done))
    r = cmd(cluster, "bmod", "-W", "5", str(done))
    assert r.err == (f"Job <{done}>: Job has already finished. "
                     "Job not modified.\n")
    assert cluster.proc.poll() is None


def test_bmod_bad_resource_requirement_is_refused(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    r = cmd(cluster, "bmod", "-R", "select[", str(jobid))
    assert r.rc == 255 and r.err.endswith(". Job not modified.\n")
    r = cmd(cluster, "bmod", "-R", "rusage[mem=100]", str(jobid))
    assert r.rc == 0, r
    assert cluster.stored_job(jobid)["spec"]["resreq"] == ["rusage[mem=100]"]


def test_bmod_execution_options_of_a_pending_job_take_effect(make_cluster,
                                                             tmp_path):
    cluster, blocker = blocked(make_cluster)
    jobid = cluster.submit("-o", "out", "echo job")
    outdir = tmp_path / "o%J"
    r = cmd(cluster, "bmod", "-E", "echo pre", "-Ep", "echo post",
            "-outdir", str(outdir), "-Q", "3 EXCLUDE(4)", "-u",
            "ann@example.org", "-B", "-N", str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{jobid}> are being changed\n", ""), r
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["pre_exec"], spec["post_exec"], spec["outdir"]) == (
        "echo pre", "echo post", str(outdir))
    assert (spec["requeue_exit"], spec["mail_user"], spec["mail_begin"],
            spec["mail_notify"]) == ("3 EXCLUDE(4)", "ann@example.org",
                                     True, True)
    long = cluster.run("bjobs", "-l", str(jobid)).joined
    assert "Output Directory" in long
    r = cmd(cluster, "bmod", "-Qn", "-un", "-Bn", "-Nn", "-Epn", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    for key in ("requeue_exit", "mail_user", "mail_begin", "mail_notify",
                "post_exec"):
        assert key not in spec, key
    # Released: the new pre-exec runs first, output inside the new -outdir.
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE", "EXIT")
    assert cluster.stat(jobid) == "DONE"
    made = tmp_path / f"o{jobid}"
    text = (made / "out").read_text()
    assert "pre\n" in text and "job\n" in text and "post" not in text
    assert cluster.proc.poll() is None


def test_bmod_hostfile_and_its_removal(make_cluster, tmp_path):
    cluster = make_cluster(mxj=3)
    host = cluster.run("bhosts", "-w").out.splitlines()[1].split()[0]
    hostfile = tmp_path / "hosts"
    hostfile.write_text(f"{host} 2\n# a comment\n{host}\n")
    jobid = cluster.submit("-H", "sleep 1")
    r = cmd(cluster, "bmod", "-hostfile", str(hostfile), str(jobid))
    assert r.rc == 0, r
    row = cluster.stored_job(jobid)
    assert row["spec"]["hostfile_hosts"] == [host] * 3
    assert row["spec"]["nslots"] == [3, 3]
    assert row["spec"]["asked_hosts"] == [host]
    r = cmd(cluster, "bmod", "-hostfilen", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    assert not {"hostfile", "hostfile_hosts", "asked_hosts"} & set(spec)
    # As bsub: no -n, -m or -R with it; an unreadable file is refused.
    for argv in (("-n", "2"), ("-m", host)):
        r = cmd(cluster, "bmod", "-hostfile", str(hostfile), *argv,
                str(jobid))
        assert r.rc == 255 and r.err.endswith(". Job not modified.\n"), r
    r = cmd(cluster, "bmod", "-hostfile", str(tmp_path / "none"), str(jobid))
    assert r.rc == 255 and r.err.endswith(". Job not modified.\n"), r


def test_bmod_execution_options_bad_values_and_running_jobs(make_cluster):
    cluster, blocker = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    for argv in (("-Q", "EXCLUDE("), ("-E", " "), ("-Ep", ""), ("-u", "")):
        r = cmd(cluster, "bmod", *argv, str(jobid))
        assert (r.rc, r.out) == (255, ""), argv
        assert r.err.endswith(". Job not modified.\n") and \
            r.err.count("\n") == 1, r
    # LSF refuses them for a started job (only -c -M -W -o -e -r then).
    running_only = (f"Job <{blocker}>: Only the following parameters can be "
                    "used to modify a running job: -c, -M, -W, -o, -e, -r"
                    ". Job not modified.\n")
    for argv in (("-E", "true"), ("-En",), ("-Ep", "true"), ("-Q", "3"),
                 ("-u", "a@b"), ("-B",), ("-Nn",), ("-outdir", "/srv/out"),
                 ("-hostfilen",)):
        r = cmd(cluster, "bmod", *argv, str(blocker))
        assert (r.rc, r.out, r.err) == (255, "", running_only), argv
    assert cluster.stat(blocker) == "RUN"
    assert cluster.proc.poll() is None


# -- bswitch ------------------------------------------------------------------
def test_bswitch_pending_and_running_jobs(make_cluster):
    cluster, blocker = blocked(make_cluster)
    pending = cluster.submit("sleep 1")
    r = cmd(cluster, "bswitch", "short", str(pending), str(blocker))
    assert (r.rc, r.err) == (0, "")
    assert r.out == (f"Job <{pending}> is switched to queue <short>\n"
                     f"Job <{blocker}> is switched to queue <short>\n")
    assert cluster.stored_job(pending)["queue"] == "short"
    assert cluster.stored_job(blocker)["queue"] == "short"
    assert cluster.stat(blocker) == "RUN"


def test_bswitch_errors(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    r = cmd(cluster, "bswitch")
    assert (r.rc, r.err) == (255, "The destination queue name must be "
                             "specified.\n")
    r = cmd(cluster, "bswitch", "nosuch", str(jobid))
    assert (r.rc, r.out, r.err) == (255, "", "nosuch: No such queue\n")
    r = cmd(cluster, "bswitch", "short", "424242", str(jobid))
    assert r.rc == 255
    assert r.err == "Job <424242>: No matching job found\n"
    assert r.out == f"Job <{jobid}> is switched to queue <short>\n"
    r = cmd(cluster, "bswitch", "short")
    assert r.rc == 255 and "Job ID or one of" in r.err


# -- brequeue -----------------------------------------------------------------
def test_brequeue_running_job_runs_again_with_a_new_attempt(cluster):
    jobid = cluster.submit("-o", "rq.out", "echo run; sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: cluster.stored_job(jobid)["pgid"], what="the job's pid")
    first = cluster.stored_job(jobid)["attempt"]
    r = cmd(cluster, "brequeue", str(jobid))
    assert (r.rc, r.out, r.err) == (0, f"Job <{jobid}> is being requeued\n", "")
    wait_for(lambda: cluster.stored_job(jobid)["attempt"] > first and
             cluster.stat(jobid) == "RUN", what="the second attempt")
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT")
    # The first copy was killed, not left running next to the second.
    wait_for(lambda: (cluster.root / "rq.out").read_text().count("run\n") == 2,
             what="two runs in the output")


def test_brequeue_hold_puts_the_job_in_psusp(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "brequeue", "-H", str(jobid))
    assert r.rc == 0
    assert cluster.stat(jobid) == "PSUSP"
    assert cluster.stored_job(jobid)["exec_hosts"] is None
    assert cluster.run("bresume", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "RUN")


def test_brequeue_errors(make_cluster):
    cluster, blocker = blocked(make_cluster)
    pending = cluster.submit("sleep 1")
    r = cmd(cluster, "brequeue", str(pending))
    assert (r.rc, r.err) == (255, f"Job <{pending}>: Job has not started "
                             "yet\n")
    r = cmd(cluster, "brequeue", "-p", str(pending))
    assert (r.rc, r.out) == (0, f"Job <{pending}> is being requeued\n")
    r = cmd(cluster, "brequeue", "77777")
    assert (r.rc, r.err) == (255, "Job <77777>: No matching job found\n")
    r = cmd(cluster, "brequeue", "x1")
    assert (r.rc, r.err) == (255, "x1: Illegal job ID.\n")
    cluster.run("bkill", str(pending))
    r = cmd(cluster, "brequeue", str(pending))
    assert (r.rc, r.err) == (255, f"Job <{pending}>: Job has already "
                             "finished\n")
    assert cluster.stat(blocker) == "RUN"


# -- btop / bbot --------------------------------------------------------------
def _order(cluster):
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat")
    return [int(line.split()[0]) for line in r.out.splitlines()
            if line.split()[1] == "PEND"]


def test_btop_and_bbot_reorder_pending_jobs(make_cluster):
    cluster, blocker = blocked(make_cluster)
    a, b, c = (cluster.submit("sleep 1") for _ in range(3))
    r = cmd(cluster, "btop", str(c))
    assert (r.rc, r.out, r.err) == (
        0, "", f"Job <{c}> has been moved to position 1 from top.\n")
    assert _order(cluster) == [c, a, b]
    r = cmd(cluster, "bbot", str(c))
    assert r.err == f"Job <{c}> has been moved to position 1 from bottom.\n"
    assert _order(cluster) == [a, b, c]
    r = cmd(cluster, "btop", str(c), "2")
    assert r.err == f"Job <{c}> has been moved to position 2 from top.\n"
    assert _order(cluster) == [a, c, b]
    r = cmd(cluster, "bbot", str(a), "9")
    assert r.rc == 0
    assert r.err == ("Warning: position value <9> is beyond movable range.\n"
                     f"Job <{a}> has been moved to position 3 from bottom.\n")
    assert _order(cluster) == [a, c, b]
    # The scheduler follows the new order: the top job runs next.
    cmd(cluster, "btop", str(b))
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(b, "RUN", "DONE")
    assert cluster.stat(a) in ("PEND", "RUN", "DONE")


def test_btop_errors(make_cluster):
    cluster, blocker = blocked(make_cluster)
    r = cmd(cluster, "btop", str(blocker))
    assert (r.rc, r.err) == (255, f"{blocker}: Job has already started\n")
    r = cmd(cluster, "btop", "5555")
    assert (r.rc, r.err) == (255, "5555: No matching job found\n")
    r = cmd(cluster, "btop", "1", "0")
    assert r.rc == 255 and "Position value must be a positive integer" in r.err
    r = cmd(cluster, "bbot")
    assert r.rc == 255 and "Job ID must be specified" in r.err
    assert cluster.proc.poll() is None


# -- bmod -W / -M of a running job: enforced by its agent ---------------------
def _started_for(cluster, jobid):
    """Seconds since the job started, from the store."""
    import time
    return time.time() - cluster.stored_job(jobid)["start_time"]


def test_bmod_w_of_a_running_job_is_enforced_from_its_start(cluster):
    jobid = cluster.submit("-o", "rl.out", "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "bmod", "-W", "0.02", str(jobid), env=FRACTIONS)  # 1.2 s
    assert (r.rc, r.err) == (0, ""), r
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    out = (cluster.root / "rl.out").read_text()
    assert "TERM_RUNLIMIT: job killed after reaching LSF run time limit." \
        in out
    assert "Exited with exit code 140." in out


def test_bmod_w_longer_than_the_submitted_limit_lets_the_job_run_on(cluster):
    # The old limit leaves the bmod below time to reach the agent on a
    # loaded machine (bjobs polled to RUN, bmod, the controller's turn).
    jobid = cluster.submit("-W", "0.2", "-o", "rl.out", "sleep 60",
                           env=FRACTIONS)   # 12 s
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "bmod", "-W", "10", str(jobid))
    assert r.rc == 0, r
    # Past the old limit (with a margin), the job still runs.
    wait_for(lambda: _started_for(cluster, jobid) > 15, timeout=30,
             what="the job to outlive its old run limit")
    assert cluster.stat(jobid) == "RUN"
    assert cmd(cluster, "bkill", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "EXIT")


def test_bmod_m_of_a_running_job_kills_it_beyond_the_new_limit(cluster):
    jobid = cluster.submit(
        "-o", "ml.out",
        "python3 -c 'x = b\"x\" * (60 << 20); import time; time.sleep(60)'")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: (cluster.stored_job(jobid)["max_mem"] or 0) > 50 * 1024,
             timeout=20, what="a sample of the job's memory")
    r = cmd(cluster, "bmod", "-M", "20M", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    assert "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit." \
        in (cluster.root / "ml.out").read_text()


def test_a_run_limit_changed_by_bmod_survives_an_agent_kill9(cluster):
    import os
    import signal
    jobid = cluster.submit("-W", "10", "-o", "rl.out", "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    assert cmd(cluster, "bmod", "-W", "0.1", str(jobid),
               env=FRACTIONS).rc == 0    # 6 s
    wait_for(lambda: any('"t":"limits"' in p.read_text() for p in
                         cluster.spool.glob("agents/*/journal")),
             what="the agent to journal the new limit")
    agent = cluster.agent_pid()
    os.kill(agent, signal.SIGKILL)
    wait_for(lambda: cluster.agent_pid() not in (None, agent),
             what="the controller to relaunch the agent")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_RUNLIMIT" in (cluster.root / "rl.out").read_text()


def test_bmod_w_of_a_finished_job_is_refused(cluster):
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    r = cmd(cluster, "bmod", "-W", "5", str(jobid))
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == (f"Job <{jobid}>: Job has already finished. "
                     "Job not modified.\n"), r


def test_bmod_r_rn_and_L_are_taken_shown_and_logged(make_cluster):
    cluster, blocker = blocked(make_cluster)
    jobid = cluster.submit("sleep", "60")
    r = cmd(cluster, "bmod", "-r", "-L", "/bin/sh", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["rerunnable"], spec["login_shell"]) == (True, "/bin/sh")
    long = cluster.run("bjobs", "-l", str(jobid)).joined
    assert "Re-runnable" in long and "Login Shell </bin/sh>" in long, long
    r = cmd(cluster, "bmod", "-rn", "-Ln", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    assert spec["rerunnable"] is False and "login_shell" not in spec
    long = cluster.run("bjobs", "-l", str(jobid)).joined
    assert "Re-runnable" not in long and "Login Shell" not in long, long
    r = cmd(cluster, "bmod", "-r", "-rn", str(jobid))
    assert r.rc == 255 and "-r and -rn cannot be used together" in r.err, r
    # Started: -r/-rn may still change (LSB_MOD_ALL_JOBS), -L not.
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "bmod", "-r", str(jobid))
    assert r.rc == 0, r
    assert cluster.stored_job(jobid)["spec"]["rerunnable"] is True
    r = cmd(cluster, "bmod", "-L", "/bin/sh", str(jobid))
    assert r.rc == 255 and r.err.endswith(
        "Only the following parameters can be used to modify a running "
        "job: -c, -M, -W, -o, -e, -r. Job not modified.\n"), r
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    for line in ("Job changes to be re-runnable;", "Log shell changes to : "
                 "/bin/sh;", "Job changes to be not re-runnable;",
                 "Log shell changes to default;"):
        assert line in hist, (line, hist)
    # lsb.events: SUB_RERUNNABLE (0x4000) set by -r, in delOptions for
    # -rn; SUB_LOGIN_SHELL (0x200000) with the shell, removed by -Ln.
    recs = cluster.wait_lsb_events("JOB_MODIFY2", jobid,
                                   until=lambda r: len(r) == 3)
    assert recs[0]["options"] & 0x4000 and recs[0]["options"] & 0x200000
    assert recs[0]["loginShell"] == "/bin/sh"
    assert recs[1]["delOptions"] & 0x4000 and \
        recs[1]["delOptions"] & 0x200000
    assert recs[2]["options"] & 0x4000
    cluster.run("bkill", str(jobid))


def test_bmod_w_and_wn_change_the_dependency_and_are_logged(make_cluster):
    """bmod -w replaces a pending job's dependency (checked as bsub -w
    checks it), -wn removes it; JOB_MODIFY2 has SUB_DEPEND_COND (0x20000)
    and dependCond for -w, the bit in delOptions for -wn."""
    cluster, blocker = blocked(make_cluster)
    other = cluster.submit("-H", "true")
    jobid = cluster.submit("true")
    r = cmd(cluster, "bmod", "-w", f"done({other})", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    assert cluster.stored_job(jobid)["spec"]["depend"] == f"done({other})"
    cluster.run("bkill", str(blocker))
    # The slot is free: the job waits on its new dependency alone.
    wait_for(lambda: "Job dependency condition not satisfied" in cluster.run(
        "bjobs", "-p", str(jobid)).out, what="the dependency's reason")
    assert cluster.stat(jobid) == "PEND"
    # Bad input, as bsub -w refuses it: nothing changes.
    for expr, why in (("done(", None), ("done(999999)",
                                         "done(999999): No matching job")):
        r = cmd(cluster, "bmod", "-w", expr, str(jobid))
        assert (r.rc, r.out) == (255, ""), r
        assert r.err.endswith("Job not modified.\n"), r
        assert why is None or why in r.err, r
    assert cluster.stored_job(jobid)["spec"]["depend"] == f"done({other})"
    r = cmd(cluster, "bmod", "-w", "done(1)", "-wn", str(jobid))
    assert r.rc == 255 and "-w and -wn cannot be used together" in r.err, r
    r = cmd(cluster, "bmod", "-wn", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    cluster.wait_stat(jobid, "DONE")
    assert "depend" not in cluster.stored_job(jobid)["spec"]
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert f"Dependency condition changes to: done({other});" in hist, hist
    assert "Dependency condition is removed;" in hist, hist
    recs = cluster.wait_lsb_events("JOB_MODIFY2", jobid,
                                   until=lambda r: len(r) == 2)
    assert recs[0]["options"] & 0x20000 and not recs[0]["delOptions"]
    assert recs[0]["dependCond"] == f"done({other})"
    assert recs[1]["delOptions"] & 0x20000 and not recs[1]["options"]
    assert "dependCond" not in recs[1]
    assert cluster.proc.poll() is None


def test_bmod_overwrite_forms_and_the_other_removals_act_on_the_job(
        make_cluster):
    """-oo/-eo and the -Xn forms no other test drives: the job runs as
    though bsub had never been given the removed options."""
    # -sp needs MAX_USER_PRIORITY (else "Job priority control undefined").
    cluster = make_cluster(mxj=2, extra_params="  MAX_USER_PRIORITY: 10\n")
    blocker = cluster.submit("-n", "2", "sleep 60")
    cluster.wait_stat(blocker, "RUN")
    (cluster.root / "o2").write_text("old out\n")
    limits = ("-S", "1000", "-T", "50", "-C", "0", "-v", "100000", "-p",
              "10", "-D", "100000")
    jobid = cluster.submit("-q", "short", "-n", "2", "-R", "rusage[mem=1]",
                           "-P", "proj", "-sp", "5", "-o", "o1", "-e", "e1",
                           *limits, "echo out; echo err >&2")
    r = cmd(cluster, "bmod", "-oo", "o2", "-eo", "e2", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["stdout"], spec["stdout_mode"], spec["stderr"],
            spec["stderr_mode"]) == ("o2", "w", "e2", "w")
    removals = ("-qn", "-nn", "-Rn", "-Pn", "-spn", "-en", "-Sn", "-Tn",
                "-Cn", "-vn", "-pn", "-Dn")
    r = cmd(cluster, "bmod", *removals, str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{jobid}> are being changed\n", ""), r
    spec = cluster.stored_job(jobid)["spec"]
    for key in ("nslots", "resreq", "user_priority", "stderr",
                "stacklimit", "threadlimit", "corelimit", "swaplimit",
                "processlimit", "datalimit"):
        assert not spec.get(key), (key, spec.get(key))
    r = cluster.run("bjobs", "-noheader", "-o", "queue nreq_slot proj_name",
                    str(jobid))
    assert r.out.split() == ["normal", "1", "default"], r
    long = cluster.long(jobid)
    assert "STACKLIMIT" not in long and "THREADLIMIT" not in long, long
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE")
    # -oo replaced the old output; -en sent the errors to it, not to e1.
    assert (cluster.root / "o2").read_text().startswith("out\nerr\n")
    assert not (cluster.root / "e1").exists()
    assert not (cluster.root / "e2").exists()


def test_bmod_j_percent_changes_the_running_element_limit_of_an_array(
        make_cluster):
    """bmod -J "%N" is LSF's way to change an array's %N, also while its
    elements run; it is no job name."""
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-J", "thr[1-3]%1", "sleep 60")
    cluster.wait_stat(f"{jobid}[1]", "RUN")
    r = cluster.run("bmod", "-J", "%2", str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{jobid}> are being changed\n", ""), r
    cluster.wait_stat(f"{jobid}[2]", "RUN")
    assert cluster.stat(f"{jobid}[3]") == "PEND"
    r = cluster.run("bjobs", "-noheader", "-o", "name", f"{jobid}[3]")
    assert r.out == "thr[3]\n", r
    for bad in ("%0", "%x", "%"):
        r = cluster.run("bmod", "-J", bad, str(jobid))
        assert (r.rc, r.out) == (255, ""), r
        assert r.err == "Job array index error. Job not modified.\n", r
    plain = cluster.submit("-H", "true")
    r = cluster.run("bmod", "-J", "%2", str(plain))
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"Job <{plain}>: Not a job array. Job not modified.\n"
