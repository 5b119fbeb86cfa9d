"""esub and epsub end to end: LSF_SERVERDIR from the configuration, the
LSB_SUB_PARM_FILE protocol, bsub -a, LSB_ESUB_METHOD, and an esub that
aborts, hangs, crashes or writes garbage, through the real commands."""

import os


def _prog(path, body):
    path.write_text("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)


def _site(make_cluster, tmp_path, **progs):
    serverdir = tmp_path / "serverdir"
    serverdir.mkdir()
    for name, body in progs.items():
        _prog(serverdir / name.replace("__", "."), body)
    # The test configuration's "short" queue has RUNLIMIT 60 (minutes).
    cluster = make_cluster(extra_params=f"  LSF_SERVERDIR: {serverdir}\n")
    return cluster, serverdir


def test_esub_modifies_queue_slots_and_run_limit(make_cluster, tmp_path):
    seen = tmp_path / "parms"
    cluster, _ = _site(make_cluster, tmp_path, esub=(
        f'cat "$LSB_SUB_PARM_FILE" > {seen}\n'
        '. "$LSB_SUB_PARM_FILE"\n'
        'echo \'LSB_SUB_QUEUE="short"\' > "$LSB_SUB_MODIFY_FILE"\n'
        'echo "LSB_SUB_NUM_PROCESSORS=2" >> "$LSB_SUB_MODIFY_FILE"\n'
        'echo "LSB_SUB_RLIMIT_RUN=$((LSB_SUB_RLIMIT_RUN * 2))" '
        '>> "$LSB_SUB_MODIFY_FILE"\n'
        'echo "ADDED_BY_ESUB=yes" > "$LSB_SUB_MODIFY_ENVFILE"\n'))
    out = tmp_path / "job.out"
    r = cluster.run("bsub", "-W", "5", "-J", "j1", "-o", str(out),
                    "echo env=$ADDED_BY_ESUB")
    assert r.rc == 0, r
    assert "is submitted to queue <short>." in r.out, r
    parms = seen.read_text().splitlines()
    assert 'LSB_SUB_RLIMIT_RUN="300"' in parms
    assert 'LSB_SUB_JOB_NAME="j1"' in parms
    assert 'LSB_SUB_COMMAND_LINE="echo env=\\$ADDED_BY_ESUB"' in parms
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    spec = cluster.stored_job(jobid)["spec"]
    assert spec["queue"] == "short" and spec["runlimit"] == 10
    assert spec["nslots"] in (2, [2, 2]), spec["nslots"]
    cluster.wait_stat(jobid, "DONE", "EXIT")
    assert "env=yes" in out.read_text()


def test_esub_abort_shows_its_message_and_submits_nothing(
        make_cluster, tmp_path):
    cluster, _ = _site(make_cluster, tmp_path, esub=(
        'echo "jobs need a project" >&2\nexit $LSB_SUB_ABORT_VALUE\n'))
    r = cluster.run("bsub", "true")
    assert r.rc == 255 and r.out == ""
    assert r.err.splitlines() == [
        "jobs need a project", "Request aborted by esub. Job not submitted."]
    assert "No unfinished job found" in cluster.run("bjobs").err


def test_a_name_picks_esub_name_and_epsub_sees_the_job_id(
        make_cluster, tmp_path):
    log = tmp_path / "log"
    cluster, _ = _site(
        make_cluster, tmp_path,
        esub=f"echo plain >> {log}\n",
        esub__fluent=(f'echo fluent $LSB_SUB_ADDITIONAL >> {log}\n'
                      'echo "LSB_SUB_JOB_NAME=from_fluent" '
                      '> "$LSB_SUB_MODIFY_FILE"\n'),
        esub__other=f"echo other >> {log}\n",
        epsub__fluent=(f'echo epsub $LSB_SUB_JOB_ID $LSB_SUB_JOB_QUEUE '
                       f'>> {log}\n'))
    jobid = cluster.submit("-a", "fluent", "true")
    assert log.read_text().splitlines() == [
        "plain", "fluent fluent", f"epsub {jobid} normal"]
    assert cluster.stored_job(jobid)["spec"]["name"] == "from_fluent"
    r = cluster.run("bsub", "-a", "nosuch", "true")
    assert r.rc == 255 and "No esub.nosuch or epsub.nosuch" in r.err, r


def test_mandatory_esub_method_runs_first(make_cluster, tmp_path):
    log = tmp_path / "log"
    cluster, _ = _site(make_cluster, tmp_path,
                       esub__site=f"echo site >> {log}\n",
                       esub__app=f"echo app >> {log}\n")
    cluster.submit("-a", "app", "true",
                   env={"LSB_ESUB_METHOD": "site"})
    assert log.read_text().splitlines() == ["site", "app"]


def test_bad_esubs_get_a_clear_message_and_submit_nothing(
        make_cluster, tmp_path):
    cluster, serverdir = _site(make_cluster, tmp_path, esub="exit 0\n")
    cases = {
        "sleep 30\n": "did not finish within 2 seconds",
        "exit 3\n": "failed (exit 3)",
        "kill -9 $$\n": "failed (signal 9)",
        'echo "garbage line" > "$LSB_SUB_MODIFY_FILE"\n':
            "line 1 is not NAME=value",
        'echo "LSB_SUB_CHKPNT_DIR=/tmp" > "$LSB_SUB_MODIFY_FILE"\n':
            "LSB_SUB_CHKPNT_DIR is not supported by xce",
        'echo "LSB_SUB_NUM_PROCESSORS=lots" > "$LSB_SUB_MODIFY_FILE"\n':
            "Bad argument for option -n",
        'echo "LSB_SUB_QUEUE=nosuchq" > "$LSB_SUB_MODIFY_FILE"\n':
            "nosuchq",
    }
    for body, expected in cases.items():
        _prog(serverdir / "esub", body)
        r = cluster.run("bsub", "true", env={"XCE_ESUB_TIMEOUT": "2"})
        assert r.rc == 255 and r.out == "", (body, r)
        assert expected in r.err and "Job not submitted." in r.err, (body, r)
    assert "No unfinished job found" in cluster.run("bjobs").err
    _prog(serverdir / "esub", "exit 0\n")
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")


def test_eexec_runs_before_the_job_as_its_user_and_sets_its_environment(
        make_cluster, tmp_path):
    cluster, serverdir = _site(make_cluster, tmp_path, eexec=(
        'echo "eexec $LS_EXEC_T $(id -un) $LSB_JOBID $(pwd)"\n'
        'echo "FROM_EEXEC=hello there" > "$LSB_EEXEC_ENVFILE"\n'
        'echo "bad name=x" >> "$LSB_EEXEC_ENVFILE"\n'))
    out = tmp_path / "job.out"
    jobid = cluster.submit("-o", str(out), "-cwd", str(tmp_path),
                           'echo "job $FROM_EEXEC"')
    cluster.wait_stat(jobid, "DONE")
    lines = out.read_text().splitlines()
    user = os.popen("id -un").read().strip()
    assert lines[:3] == [f"eexec START {user} {jobid} {tmp_path}",
                         'eexec: LSB_EEXEC_ENVFILE line "bad name=x" is not '
                         'NAME=value; not set',
                         "job hello there"], lines
    # An eexec that fails: the job does not run and exits with its code.
    _prog(serverdir / "eexec", "echo refusing; exit 5\n")
    out2 = tmp_path / "job2.out"
    jobid = cluster.submit("-o", str(out2), "echo never")
    cluster.wait_stat(jobid, "EXIT")
    lines = out2.read_text().splitlines()
    assert lines[0] == "refusing" and "never" not in lines, lines
    assert cluster.stored_job(jobid)["exit_code"] in (5, 5 << 8)


def test_migrated_lsf_serverdir_reaches_bsub(tmp_path):
    """xce-migrate carries lsf.conf's LSF_SERVERDIR into xce.yaml and the
    lsf.conf it writes, where bsub finds the site's esub."""
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parents[2]
    src = tmp_path / "lsf"
    src.mkdir()
    for f in (repo / "tests" / "unit" / "data" / "lsf" / "site").iterdir():
        if f.is_file():
            (src / f.name).write_text(f.read_text())
    conf = src / "lsf.conf"
    conf.write_text(conf.read_text() + f"LSF_SERVERDIR={tmp_path}/sbin\n")
    done = subprocess.run(
        [sys.executable, "-m", "xce.cli.xce_migrate", "--from", str(src),
         "--to", str(tmp_path / "etc")], capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=str(repo)), timeout=120)
    assert done.returncode == 0, done
    assert f"LSF_SERVERDIR={tmp_path}/sbin\n" in (
        tmp_path / "etc" / "lsf.conf").read_text()
