"""bsub's options end to end, and its errors."""

import pytest


def _out(cluster, name):
    return (cluster.root / name).read_text()


def test_stderr_merges_into_o_without_e(cluster):
    jobid = cluster.submit("-o", "m.out", "echo out; echo err >&2")
    cluster.wait_stat(jobid, "DONE")
    assert _out(cluster, "m.out").startswith("out\nerr\n")


def test_separate_e_file_and_report_trailer(cluster):
    jobid = cluster.submit("-o", "o.%J", "-e", "e.%J", "echo out; echo err >&2")
    cluster.wait_stat(jobid, "DONE")
    assert _out(cluster, f"e.{jobid}") == "err\n"
    out = _out(cluster, f"o.{jobid}")
    assert out.startswith("out\n")
    assert f"Read file <e.{jobid}> for stderr output of this job." in out


def test_o_appends_and_oo_overwrites(cluster):
    (cluster.root / "a.out").write_text("old\n")
    (cluster.root / "w.out").write_text("old\n")
    j1 = cluster.submit("-o", "a.out", "-e", "a.err", "echo new")
    j2 = cluster.submit("-oo", "w.out", "-eo", "w.err", "echo new")
    cluster.wait_stat(j1, "DONE")
    cluster.wait_stat(j2, "DONE")
    assert _out(cluster, "a.out").startswith("old\nnew\n")
    assert _out(cluster, "w.out").startswith("new\n")


def test_input_file_and_cwd(cluster):
    (cluster.root / "sub").mkdir()
    (cluster.root / "sub" / "in.txt").write_text("from input\n")
    jobid = cluster.submit("-cwd", "sub", "-i", "in.txt", "-o", "c.out",
                           "cat; pwd")
    cluster.wait_stat(jobid, "DONE")
    lines = _out(cluster, "sub/c.out").splitlines()
    assert lines[:2] == ["from input", str(cluster.root / "sub")]


def test_cwd_patterns_are_filled_in_as_outdir_s(cluster):
    # LSF's -cwd takes -outdir's patterns: %U user, %P project, %J, %I ...
    import getpass
    me = getpass.getuser()
    (cluster.root / f"w_{me}_pp").mkdir()
    jobid = cluster.submit("-P", "pp", "-cwd", "w_%U_%P", "-o",
                           str(cluster.root / "cwdp.out"), "pwd")
    cluster.wait_stat(jobid, "DONE")
    where = str(cluster.root / f"w_{me}_pp")
    assert _out(cluster, "cwdp.out").splitlines()[0] == where
    r = cluster.run("bjobs", "-noheader", "-o", "exec_cwd", str(jobid))
    assert r.out == where + "\n", r
    assert f"Execution CWD <{where}>" in cluster.long(jobid)


def test_output_directory_gets_jobid_out(cluster):
    (cluster.root / "logs").mkdir()
    jobid = cluster.submit("-o", "logs", "echo into-dir")
    cluster.wait_stat(jobid, "DONE")
    assert _out(cluster, f"logs/{jobid}.out").startswith("into-dir\n")


def test_env_rules(cluster):
    env = {"XCE_A": "a", "XCE_B": "b"}
    jobs = {
        "all": cluster.submit("-env", "all", "-o", "all.out",
                              "echo ${XCE_A:-unset} ${XCE_B:-unset}", env=env),
        "none": cluster.submit("-env", "none", "-o", "none.out",
                               "echo ${XCE_A:-unset} ${XCE_B:-unset}", env=env),
        "mix": cluster.submit("-env", "all, ~XCE_A, XCE_C=c", "-o", "mix.out",
                              "echo ${XCE_A:-unset} $XCE_B $XCE_C", env=env),
        "list": cluster.submit("-env", "XCE_B", "-o", "list.out",
                               "echo ${XCE_A:-unset} $XCE_B", env=env),
    }
    for jobid in jobs.values():
        cluster.wait_stat(jobid, "DONE")
    assert _out(cluster, "all.out").startswith("a b\n")
    assert _out(cluster, "none.out").startswith("unset unset\n")
    assert _out(cluster, "mix.out").startswith("unset b c\n")
    assert _out(cluster, "list.out").startswith("unset b\n")


FRACTIONS = {"XCE_FRACTIONAL_RUNLIMIT": "Y"}


def test_runlimit_kills_with_term_runlimit(cluster):
    # Minutes with decimals (seconds, for a short test) need
    # XCE_FRACTIONAL_RUNLIMIT=Y; LSF and the default take whole minutes.
    jobid = cluster.submit("-W", "0.02", "-o", "rl.out", "sleep 60",
                           env=FRACTIONS)
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    out = _out(cluster, "rl.out")
    assert "TERM_RUNLIMIT: job killed after reaching LSF run time limit." in out
    assert "Exited with exit code 140." in out


def test_memlimit_kills_with_term_memlimit(cluster):
    jobid = cluster.submit(
        "-M", "20MB", "-o", "ml.out",
        "python3 -c 'x = bytearray(300 << 20); import time; time.sleep(60)'")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    out = _out(cluster, "ml.out")
    assert "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit." \
        in out


def test_queue_runlimit_is_a_hard_limit(cluster):
    r = cluster.run("bsub", "-q", "short", "-W", "90", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("RUNLIMIT: Cannot exceed queue's hard limit(s). "
                     "Job not submitted.\n")


def test_block_returns_the_exit_code(cluster):
    r = cluster.run("bsub", "-K", "exit 7")
    assert r.rc == 7
    assert r.err.splitlines()[0] == "<<Waiting for dispatch ...>>"
    assert r.err.splitlines()[-1] == "<<Job is finished>>"
    assert cluster.run("bsub", "-K", "true").rc == 0
    # LSB_SUBK_SHOW_EXEC_HOST=Y names the execution host as the job starts;
    # without it (or with N) nothing is said.
    assert "<<Starting on" not in r.err
    r = cluster.run("bsub", "-K", "true",
                    env={"LSB_SUBK_SHOW_EXEC_HOST": "Y"})
    assert r.err.splitlines()[1].startswith("<<Starting on "), r
    r = cluster.run("bsub", "-K", "true",
                    env={"LSB_SUBK_SHOW_EXEC_HOST": "N"})
    assert "<<Starting on" not in r.err, r


def test_hold_then_resume(cluster):
    jobid = cluster.submit("-H", "true")
    assert cluster.stat(jobid) == "PSUSP"
    r = cluster.run("bresume", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being resumed\n")
    cluster.wait_stat(jobid, "DONE")


def test_resource_requirements_are_accepted_and_bad_ones_refused(cluster):
    jobid = cluster.submit("-R", "select[mem>100] rusage[mem=10]",
                           "-R", "span[hosts=1]", "true")
    cluster.wait_stat(jobid, "DONE")
    r = cluster.run("bsub", "-R", "select[[bad", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err.startswith("Bad resource requirement syntax")
    assert r.err.endswith(". Job not submitted.\n")


def test_no_o_keeps_output_under_the_spool(cluster):
    jobid = cluster.submit("echo kept")
    cluster.wait_stat(jobid, "DONE")
    kept = list((cluster.spool / "output").glob(f"*/{jobid}.out"))
    assert len(kept) == 1 and kept[0].read_text().startswith("kept\n")


@pytest.mark.parametrize("argv, err", [
    (["-z", "true"], "bsub: illegal option -- z\n"),
    (["-W", "abc", "true"], "abc: Bad RUNLIMIT specification. Job not submitted.\n"),
    (["-W", "1:75", "true"], "1:75: Bad RUNLIMIT specification. Job not submitted.\n"),
    (["-M", "12XB", "true"],
     "12XB: MEMLIMIT value should be a positive integer. Job not submitted.\n"),
    (["-n", "0", "true"], "The number of processors must be a positive "
     "integer. Job not submitted.\n"),
    (["-n", "4,2", "true"], "Bad argument for option -n. Job not submitted.\n"),
    (["-n", "x", "true"], "Bad argument for option -n. Job not submitted.\n"),
    (["-n", "999", "true"], "Too many processors requested. Job not submitted.\n"),
    (["-q", "nosuch", "true"], "nosuch: No such queue. Job not submitted.\n"),
    (["-J", "a[b", "true"], "Bad job name. Job not submitted.\n"),
])
def test_bad_input_is_refused_with_lsf_messages(cluster, argv, err):
    r = cluster.run("bsub", *argv)
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith(err), r.err
    assert cluster.proc.poll() is None


def test_an_empty_option_value_is_refused_and_nothing_is_submitted(
        cluster):
    """bsub -q "", -outdir "", -Jd "" (and a #BSUB line's -q ""): one
    line naming the option, exit 255, no job; the controller runs on."""
    before = cluster.run("bjobs", "-a", "-noheader", "-u", "all").out
    for argv, script in (((
            "-q", "", "true"), None), (("-outdir", "", "true"), None),
            (("-Jd", "", "-J", "x", "true"), None),
            ((), '#!/bin/sh\n#BSUB -q ""\ntrue\n')):
        r = cluster.run("bsub", *argv, input=script)
        flag = argv[0] if argv else "-q"
        assert (r.rc, r.out) == (255, ""), (argv, r)
        assert r.err == (f"bsub: {flag}: Bad argument: the value is empty. "
                         "Job not submitted.\n")
    assert cluster.run("bjobs", "-a", "-noheader", "-u", "all").out == before
    assert cluster.proc.poll() is None
    r = cluster.run("bsub", "-q", "normal", "true")
    assert r.rc == 0, r
    # -R "" alone is a job with no resource requirement: it runs.
    jobid = cluster.submit("-R", "", "true")
    assert cluster.wait_stat(jobid, "DONE", "EXIT") == "DONE"


def test_empty_stdin_script_is_refused(cluster):
    r = cluster.run("bsub", input="#!/bin/sh\n# nothing\n")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("No command is specified in the script file. "
                     "Job not submitted.\n")


def test_help_exits_zero(cluster):
    r = cluster.run("bsub", "-h")
    assert r.rc == 0 and "Usage: bsub" in r.out and "-oo" in r.out


def test_lsb_defaultqueue_names_the_default_queue(cluster):
    r = cluster.run("bsub", "true", env={"LSB_DEFAULTQUEUE": "short"})
    assert r.rc == 0
    assert r.out.endswith("> is submitted to default queue <short>.\n")


def test_lsb_defaultqueue_of_lsf_conf_is_the_sites_default(make_cluster):
    """xce.yaml's LSB_DEFAULTQUEUE (written to lsf.conf) names the queue
    of a bsub without -q; the user's environment variable wins."""
    cluster = make_cluster(extra_params="  LSB_DEFAULTQUEUE: short\n")
    conf = (cluster.envdir / "lsf.conf").read_text()
    assert "LSB_DEFAULTQUEUE=short" in conf
    r = cluster.run("bsub", "true")
    assert (r.rc, r.err) == (0, "")
    assert r.out.endswith("> is submitted to default queue <short>.\n")
    r = cluster.run("bsub", "true", env={"LSB_DEFAULTQUEUE": "normal"})
    assert r.out.endswith("> is submitted to default queue <normal>.\n")
    r = cluster.run("bsub", "-q", "normal", "true")
    assert r.out.endswith("> is submitted to queue <normal>.\n")


def test_q_list_takes_the_first_queue_that_can_be_used(cluster):
    """bsub -q "q1 q2": LSF tries the queues in the order given and goes
    on past one it cannot use, an unknown one included (OpenLava's
    mbatchd does so); when none can be used, the last one's error."""
    r = cluster.run("bsub", "-q", "nosuch normal", "true")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.endswith("> is submitted to queue <normal>.\n"), r
    r = cluster.run("bsub", "-q", "normal nosuch", "true")
    assert r.out.endswith("> is submitted to queue <normal>.\n"), r
    r = cluster.run("bsub", "-q", "nosuch other", "true")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == "other: No such queue. Job not submitted.\n"
    assert cluster.proc.poll() is None


def test_an_index_named_twice_makes_one_element(cluster):
    """bsub -J "a[1,1,1-2]": LSF's mbatchd makes each element once (an
    index already made is passed over), so the array has elements 1, 2."""
    jobid = cluster.submit("-H", "-J", "dup[1,1,1-2]", "true")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid jobindex", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.split() == [str(jobid), "1", str(jobid), "2"]
    assert cluster.run("bkill", str(jobid)).rc == 0
