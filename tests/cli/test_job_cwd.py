"""A job's working directory end to end: bsub -cwd, LSB_JOB_CWD and bmod
-cwd resolve a value the same way (xce.model.jobcwd), the job runs there,
bjobs -l shows it; a -cwd with a dynamic pattern is created; a missing one
runs the job in /tmp, or with LSB_EXIT_IF_CWD_NOTEXIST=Y ends it with exit
code 2 and TERM_CWD_NOTEXIST (bjobs -l, bhist -l, bacct -l, lsb.acct and
lsb.events); bad input is refused in one line, exit 255, nothing
submitted or modified."""

import getpass
import stat

import pytest

from tests.lib.xcecluster import blocked, wait_for


def _lines(path):
    return path.read_text().splitlines()


def _no_jobs(cluster):
    r = cluster.run("bjobs", "-a", "-noheader")
    return r.out == ""


def test_bsub_cwd_is_made_normal_and_the_job_runs_there(cluster):
    (cluster.root / "a" / "b").mkdir(parents=True)
    asked = str(cluster.root / "a" / "x" / ".." / "b") + "//"
    out = cluster.root / "o1"
    jobid = cluster.submit("-cwd", asked, "-o", str(out), "pwd")
    cluster.wait_stat(jobid, "DONE")
    where = str(cluster.root / "a" / "b")
    assert _lines(out)[0] == where
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["specified_cwd"], spec["cwd"]) == (asked, where)
    long = cluster.long(jobid)
    assert f"Specified CWD <{asked}>" in long
    assert f"Execution CWD <{where}>" in long


def test_bsub_and_bmod_resolve_a_value_alike(make_cluster, tmp_path):
    cluster, blocker = blocked(make_cluster)
    (cluster.root / "sub").mkdir()
    values = ["x/../sub/", "./sub/.", str(tmp_path) + "/q/../",
              "%U/../sub"]
    for value in values:
        by_bsub = cluster.submit("-cwd", value, "true")
        by_bmod = cluster.submit("true")
        r = cluster.run("bmod", "-cwd", value, str(by_bmod))
        assert r.rc == 0 and r.err == "", r
        got = [cluster.stored_job(j)["spec"] for j in (by_bsub, by_bmod)]
        assert got[0]["cwd"] == got[1]["cwd"], (value, got)
        assert got[0]["specified_cwd"] == got[1]["specified_cwd"] == value
    assert cluster.stored_job(by_bsub)["spec"]["cwd"] == str(
        cluster.root / "sub")
    cluster.run("bkill", "0")
    cluster.wait_stat(blocker, "EXIT")
    assert cluster.proc.poll() is None


def test_lsb_job_cwd_is_the_cwd_without_the_option(cluster):
    (cluster.root / "env").mkdir()
    (cluster.root / "opt").mkdir()
    env = {"LSB_JOB_CWD": "env"}
    by_env = cluster.submit("-o", str(cluster.root / "e.out"), "pwd",
                            env=env)
    by_opt = cluster.submit("-cwd", "opt", "-o",
                            str(cluster.root / "p.out"), "pwd", env=env)
    cluster.wait_stat(by_env, "DONE")
    cluster.wait_stat(by_opt, "DONE")
    assert _lines(cluster.root / "e.out")[0] == str(cluster.root / "env")
    assert _lines(cluster.root / "p.out")[0] == str(cluster.root / "opt")
    assert "Specified CWD <env>" in cluster.long(by_env)


def test_a_cwd_with_a_dynamic_pattern_is_created(cluster):
    me = getpass.getuser()
    out = cluster.root / "made.out"
    jobid = cluster.submit("-cwd", "made/%U/%J_%I/", "-o", str(out), "pwd")
    cluster.wait_stat(jobid, "DONE")
    where = cluster.root / "made" / me / f"{jobid}_0"
    assert _lines(out)[0] == str(where)
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    assert f"Execution CWD <{where}>" in cluster.long(jobid)


def test_a_missing_cwd_without_a_pattern_runs_the_job_in_tmp(cluster):
    missing = cluster.root / "gone"
    out = cluster.root / "tmp.out"
    jobid = cluster.submit("-cwd", str(missing), "-o", str(out), "pwd")
    cluster.wait_stat(jobid, "DONE")
    text = out.read_text()
    assert text.splitlines()[0] == "/tmp"
    assert "</tmp> was used as the working directory." in text
    assert not missing.exists()         # not created: no pattern
    wait_for(lambda: "Execution CWD </tmp>" in cluster.long(jobid),
             what="bjobs -l to show /tmp")
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert "Execution CWD </tmp>" in hist, hist


def test_lsb_exit_if_cwd_notexist_ends_the_job_with_its_reason(cluster):
    missing = str(cluster.root / "gone")
    out = cluster.root / "exit.out"
    jobid = cluster.submit("-cwd", missing, "-o", str(out), "echo ran",
                           env={"LSB_EXIT_IF_CWD_NOTEXIST": "Y"})
    cluster.wait_stat(jobid, "EXIT")
    report = out.read_text()         # the job report alone
    assert "ran" not in report.splitlines()
    assert "TERM_CWD_NOTEXIST" in report
    row = cluster.stored_job(jobid)
    assert (row["exit_code"], row["exit_reason"]) == (2,
                                                      "TERM_CWD_NOTEXIST")
    long = cluster.long(jobid)
    assert "Exited with exit code 2." in long, long
    assert "TERM_CWD_NOTEXIST" in long, long
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert "Exited with exit code 2." in hist, hist
    acct = cluster.run("bacct", "-l", str(jobid))
    assert acct.rc == 0, acct
    assert "TERM_CWD_NOTEXIST" in acct.joined, acct.joined
    from tests.lib.lsbacct_reader import read_record
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH", jobid)
    recs = [read_record(line) for line in
            (cluster.logdir / "lsb.acct").read_text().splitlines()]
    rec = [r for r in recs if r["jobId"] == jobid][0]
    assert (rec["exitStatus"], rec["exitInfo"]) == (2 << 8, 25)
    status = cluster.wait_lsb_events(
        "JOB_STATUS", jobid, until=lambda rs: any(
            r["exitInfo"] == 25 for r in rs))
    assert any(r["exitStatus"] == 2 << 8 for r in status)


def test_bad_bsub_cwd_is_refused_and_nothing_is_submitted(cluster):
    cases = [
        (["-cwd", ""], "bsub: -cwd: Bad argument: the value is empty"),
        (["-cwd", "/" + "x" * 4094],
         "-cwd: the working directory is over 4094 characters"),
        (["-cwd", "y" * 4090],      # short, too long under the root
         "-cwd: the working directory is over 4094 characters"),
    ]
    for argv, said in cases:
        r = cluster.run("bsub", *argv, "true")
        assert (r.rc, r.out) == (255, ""), r
        assert r.err.startswith(said) and r.err.count("\n") == 1, r
        assert "Job not submitted." in r.err, r
    # A NUL cannot be in an argument; a #BSUB line can hold one.
    r = cluster.run("bsub", input="#!/bin/sh\n#BSUB -cwd 'a\x00b'\ntrue\n")
    assert (r.rc, r.out, r.err) == (
        255, "", "-cwd: the working directory contains a NUL character. "
        "Job not submitted.\n"), r
    assert _no_jobs(cluster)


def test_a_too_long_lsb_job_cwd_is_refused(cluster):
    r = cluster.run("bsub", "true", env={"LSB_JOB_CWD": "x" * 5000})
    assert (r.rc, r.out, r.err) == (
        255, "", "-cwd: the working directory is over 4094 characters. "
        "Job not submitted.\n"), r
    assert _no_jobs(cluster)


@pytest.mark.parametrize("value, said", [
    ("/" + "x" * 4094, "-cwd: the working directory is over 4094 "
     "characters"),
    ("y" * 4090, "-cwd: the working directory is over 4094 characters"),
])
def test_bad_bmod_cwd_is_refused_and_nothing_is_modified(make_cluster,
                                                         value, said):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-cwd", "/tmp", "true")
    before = cluster.stored_job(jobid)["spec"]
    r = cluster.run("bmod", "-cwd", value, str(jobid))
    assert (r.rc, r.out) == (255, ""), r
    assert said in r.err and r.err.count("\n") == 1, r
    assert "Job not modified." in r.err, r
    assert cluster.stored_job(jobid)["spec"] == before


def test_the_pre_exec_runs_where_the_job_does(cluster):
    # A pattern directory exists before the pre-exec; a missing one is
    # /tmp for the pre-exec as for the job.
    pre = cluster.root / "pre.txt"
    made = cluster.submit("-cwd", "pre/%J", "-E", f"pwd > {pre}", "-o",
                          str(cluster.root / "made.out"), "pwd")
    cluster.wait_stat(made, "DONE")
    where = str(cluster.root / "pre" / str(made))
    assert _lines(pre) == [where]
    assert _lines(cluster.root / "made.out")[0] == where
    gone = cluster.submit("-cwd", str(cluster.root / "gone"), "-E",
                          f"pwd > {pre}", "true")
    cluster.wait_stat(gone, "DONE")
    assert _lines(pre) == ["/tmp"]


def test_bpeek_finds_a_relative_output_in_a_pattern_directory(cluster):
    jobid = cluster.submit("-cwd", "pk/%J", "-o", "out.txt",
                           "echo peeked-line; sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: "peeked-line" in cluster.run("bpeek", str(jobid)).out,
             what="bpeek to show the output under pk/<jobid>")
    assert (cluster.root / "pk" / str(jobid) / "out.txt").exists()
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT")
