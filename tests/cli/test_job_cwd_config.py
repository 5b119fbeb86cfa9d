"""The working directory the configuration gives a job, end to end
(lsb.params DEFAULT_JOB_CWD and JOB_CWD_TTL, lsb.applications JOB_CWD
and JOB_CWD_TTL): LSF's order (-cwd, LSB_JOB_CWD, the profile's JOB_CWD,
DEFAULT_JOB_CWD, the submission directory); a directory with a dynamic
pattern is created, and removed JOB_CWD_TTL hours after the job when it
is empty (after a failed pre-exec too); bmod -app and reconfig move a pending job; a bad value is
refused by reconfig in one line.  Also: a job whose directory is missing
shows /tmp in bjobs -l while it runs, and an esub sees LSB_JOB_CWD as
LSB_SUB3_CWD."""

import getpass
import json
import os

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

_APPS = """
applications:
  byapp:
    JOB_CWD: app/%J
    JOB_CWD_TTL: 0
  plain:
    DESCRIPTION: no directory of its own
"""


def _cluster(make_cluster, tmp_path, ttl="", **kw):
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    params = f"  DEFAULT_JOB_CWD: {scratch}/%U/%J_%I\n" + ttl
    return make_cluster(extra_params=params, extra=_APPS, **kw), scratch


def _first_line(path):
    return path.read_text().splitlines()[0]


def test_lsfs_order_of_the_working_directory(make_cluster, tmp_path):
    cluster, scratch = _cluster(make_cluster, tmp_path)
    me = getpass.getuser()
    sub = cluster.root / "sub"
    (sub / "own").mkdir(parents=True)
    (sub / "env").mkdir()
    outs = {k: tmp_path / f"{k}.out" for k in
            ("default", "app", "own", "env", "plain")}
    jobs = {
        "default": cluster.submit("-o", str(outs["default"]), "pwd",
                                  cwd=sub),
        "app": cluster.submit("-app", "byapp", "-o", str(outs["app"]),
                              "pwd", cwd=sub),
        "own": cluster.submit("-app", "byapp", "-cwd", "own", "-o",
                              str(outs["own"]), "pwd", cwd=sub),
        "env": cluster.submit("-app", "byapp", "-o", str(outs["env"]),
                              "pwd", cwd=sub, env={"LSB_JOB_CWD": "env"}),
        "plain": cluster.submit("-app", "plain", "-o", str(outs["plain"]),
                                "pwd", cwd=sub),
    }
    for jobid in jobs.values():
        cluster.wait_stat(jobid, "DONE")
    want = {"default": scratch / me / f"{jobs['default']}_0",
            "app": sub / "app" / str(jobs["app"]),
            "own": sub / "own", "env": sub / "env",
            "plain": scratch / me / f"{jobs['plain']}_0"}
    for key, where in want.items():
        assert _first_line(outs[key]) == str(where), key
        assert f"Execution CWD <{where}>" in cluster.long(jobs[key]), key
    # DEFAULT_JOB_CWD's directory was made (mode 700) and is kept: no
    # JOB_CWD_TTL.
    made = want["default"]
    assert made.is_dir() and (made.stat().st_mode & 0o777) == 0o700
    spec = cluster.stored_job(jobs["default"])["spec"]
    assert spec["conf_cwd"] == f"{scratch}/%U/%J_%I"
    assert "specified_cwd" not in spec or spec["specified_cwd"] is None
    # The profile's JOB_CWD_TTL 0: its empty directory goes once the job
    # has ended.
    wait_for(lambda: not want["app"].exists(),
             what="the profile's directory to be removed")
    assert (sub / "app").is_dir()       # only the last directory goes


def test_jobcwd_ttl_keeps_what_the_job_left(make_cluster, tmp_path):
    cluster, scratch = _cluster(make_cluster, tmp_path,
                                ttl="  JOB_CWD_TTL: 0\n")
    me = getpass.getuser()
    empty = cluster.submit("true", cwd=tmp_path)
    full = cluster.submit("echo data > result", cwd=tmp_path)
    cluster.wait_stat(empty, "DONE")
    cluster.wait_stat(full, "DONE")
    wait_for(lambda: not (scratch / me / f"{empty}_0").exists(),
             what="the empty directory to be removed")
    # rmdir as the job's user: a directory holding files stays whole.
    assert (scratch / me / f"{full}_0" / "result").read_text() == "data\n"
    # A directory that was there already is not the job's to remove,
    # with a pattern (made, had it been missing) or without.
    there = scratch / me / "there"
    there.mkdir()
    (scratch / me / me).mkdir()
    before = cluster.submit("-cwd", str(there), "true")
    cluster.wait_stat(before, "DONE")
    pattern = cluster.submit("-cwd", f"{scratch}/{me}/%U", "true")
    cluster.wait_stat(pattern, "DONE")
    made = cluster.submit("-cwd", f"{scratch}/{me}/new%J", "true")
    cluster.wait_stat(made, "DONE")
    wait_for(lambda: not (scratch / me / f"new{made}").exists(),
             what="the -cwd directory made for the job to be removed")
    agent_dir = cluster.spool
    ttl_files = list(agent_dir.rglob("cwd-ttl"))
    assert ttl_files, "the agent keeps its list of directories"
    wait_for(lambda: all(f.read_text() == "[]" for f in ttl_files),
             what="the agent's list to be emptied")
    assert there.is_dir() and (scratch / me / me).is_dir()


def test_a_failed_pre_exec_leaves_its_directory_to_the_ttl(make_cluster,
                                                          tmp_path):
    cluster, scratch = _cluster(make_cluster, tmp_path,
                                ttl="  JOB_CWD_TTL: 1\n")
    me = getpass.getuser()
    sub = tmp_path / "s"
    sub.mkdir()
    # The profile's JOB_CWD_TTL 0: the directory the pre-exec made goes
    # once it has failed (99: the job ends without running).
    ended = cluster.submit("-app", "byapp", "-E", "exit 99", "true",
                           cwd=sub)
    cluster.wait_stat(ended, "EXIT")
    wait_for(lambda: not (sub / "app" / str(ended)).exists(),
             what="the directory of a failed pre-exec to be removed")
    # lsb.params's JOB_CWD_TTL 1 (hour): a pre-exec that fails once sends
    # the job back to PEND; its next attempt on this host takes the
    # directory over, due an hour after it, not after the failure.
    mark, ran = tmp_path / "failed-once", tmp_path / "ran"
    again = cluster.submit(
        "-E", f"test -e {mark} || {{ touch {mark}; exit 1; }}",
        "-o", "/dev/null", f"date +%s.%N > {ran}", cwd=tmp_path)
    cluster.wait_stat(again, "DONE")
    assert mark.exists()
    where = str(scratch / me / f"{again}_0")
    started = float(ran.read_text())
    ttl_file, = cluster.spool.rglob("cwd-ttl")

    def due():
        return [e["due"] for e in json.loads(ttl_file.read_text())
                if e["path"] == where]
    dues = wait_for(due, what="the directory to be due")
    assert len(dues) == 1 and dues[0] >= started + 3600, (dues, started)


def test_bmod_app_and_reconfig_move_a_pending_job(make_cluster, tmp_path):
    cluster, scratch = _cluster(make_cluster, tmp_path, mxj=1)
    blocker = cluster.submit("sleep 300")
    cluster.wait_stat(blocker, "RUN")
    sub = tmp_path / "s"
    sub.mkdir()
    jobid = cluster.submit("pwd", cwd=sub)
    assert cluster.stored_job(jobid)["spec"]["cwd"] == f"{scratch}/%U/%J_%I"
    r = cluster.run("bmod", "-app", "byapp", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["cwd"], spec["conf_cwd"]) == (f"{sub}/app/%J", "app/%J")
    r = cluster.run("bmod", "-appn", str(jobid))
    assert r.rc == 0, r
    assert cluster.stored_job(jobid)["spec"]["cwd"] == \
        f"{scratch}/%U/%J_%I"
    # -cwd, then -cwdn: DEFAULT_JOB_CWD again.
    assert cluster.run("bmod", "-cwd", "mine", str(jobid)).rc == 0
    spec = cluster.stored_job(jobid)["spec"]
    assert spec["cwd"] == f"{sub}/mine" and "conf_cwd" not in spec
    assert cluster.run("bmod", "-cwdn", str(jobid)).rc == 0
    assert cluster.stored_job(jobid)["spec"]["conf_cwd"] == \
        f"{scratch}/%U/%J_%I"
    # A reconfig that drops DEFAULT_JOB_CWD: the submission directory.
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        f"  DEFAULT_JOB_CWD: {scratch}/%U/%J_%I\n", ""))
    assert cluster.run("badmin", "reconfig").rc == 0
    spec = cluster.stored_job(jobid)["spec"]
    assert spec["cwd"] == str(sub) and "conf_cwd" not in spec
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE")


def test_bad_values_are_refused_by_reconfig(make_cluster, tmp_path):
    cluster, scratch = _cluster(make_cluster, tmp_path)
    good = f"  DEFAULT_JOB_CWD: {scratch}/%U/%J_%I\n"
    bad_ttl = good + "  JOB_CWD_TTL: forever\n"
    assert_reconfig_refuses(
        cluster, good, bad_ttl,
        r"JOB_CWD_TTL: forever: must be a whole number from 0 to "
        r"2147483647 \(hours\)")
    long = f'  DEFAULT_JOB_CWD: "/{"x" * 4100}"\n'
    assert_reconfig_refuses(
        cluster, bad_ttl, long,
        r"DEFAULT_JOB_CWD: the directory is over 4094 characters")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(long, good))
    assert_reconfig_refuses(
        cluster, "    JOB_CWD: app/%J\n", '    JOB_CWD: "a\\0b"\n',
        r"JOB_CWD: the directory contains a NUL character or a line break")
    assert cluster.proc.poll() is None
    # The controller kept its configuration: DEFAULT_JOB_CWD applies.
    jobid = cluster.submit("-H", "true")
    assert cluster.stored_job(jobid)["spec"]["cwd"] == f"{scratch}/%U/%J_%I"


def test_bjobs_shows_tmp_while_a_job_runs_there(cluster):
    missing = cluster.root / "gone"
    jobid = cluster.submit("-cwd", str(missing), "sleep 300")
    cluster.wait_stat(jobid, "RUN")
    long = wait_for(
        lambda: (lambda t: "Execution CWD </tmp>" in t and t)(
            cluster.long(jobid)),
        what="bjobs -l to show /tmp while the job runs")
    assert f"Specified CWD <{missing}>" in long
    assert cluster.stat(jobid) == "RUN"
    r = cluster.run("bjobs", "-o", "exec_cwd", "-noheader", str(jobid))
    assert r.out.strip() == "/tmp", r
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(jobid, "EXIT")


def test_an_esub_sees_lsb_job_cwd_as_lsb_sub3_cwd(make_cluster, tmp_path):
    serverdir = tmp_path / "serverdir"
    serverdir.mkdir()
    seen = tmp_path / "parms"
    esub = serverdir / "esub"
    esub.write_text(f'#!/bin/sh\ncat "$LSB_SUB_PARM_FILE" >> {seen}\n')
    os.chmod(esub, 0o755)
    cluster = make_cluster(extra_params=f"  LSF_SERVERDIR: {serverdir}\n")
    (tmp_path / "envdir").mkdir()
    jobid = cluster.submit("true", cwd=tmp_path,
                           env={"LSB_JOB_CWD": "envdir"})
    assert 'LSB_SUB3_CWD="envdir"' in seen.read_text().splitlines()
    assert cluster.stored_job(jobid)["spec"]["cwd"] == str(
        tmp_path / "envdir")
    seen.unlink()
    # -cwd wins over LSB_JOB_CWD, for the esub too.
    cluster.submit("-cwd", "/tmp", "true", env={"LSB_JOB_CWD": "envdir"})
    lines = seen.read_text().splitlines()
    assert 'LSB_SUB3_CWD="/tmp"' in lines
    seen.unlink()
    cluster.submit("true", env={"LSB_JOB_CWD": ""})     # empty: unset
    assert not [x for x in seen.read_text().splitlines()
                if x.startswith("LSB_SUB3_CWD=")]
