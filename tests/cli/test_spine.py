"""One job the whole way: bsub -> spool -> controller -> agent -> bjobs."""

import os


def test_submit_runs_and_finishes_done_with_output_and_report(cluster):
    r = cluster.run("bsub", "-o", "out.%J", "echo", "hello")
    assert r.rc == 0 and r.err == ""
    assert r.out.startswith("Job <") and \
        r.out.endswith("> is submitted to default queue <normal>.\n")
    jobid = int(r.out.split("<")[1].split(">")[0])
    cluster.wait_stat(jobid, "DONE")
    out = (cluster.root / f"out.{jobid}").read_text()
    assert out.startswith("hello\n")
    assert f"Subject: Job {jobid}: <echo hello> in cluster <testclu> Done" in out
    assert "Successfully completed." in out
    assert "The output (if any) is above this job summary." in out


def test_explicit_queue_message_names_the_queue(cluster):
    r = cluster.run("bsub", "-q", "short", "true")
    assert r.rc == 0
    assert r.out.endswith("> is submitted to queue <short>.\n")


def test_exit_code_shows_exit_state(cluster):
    jobid = cluster.submit("-o", "o.txt", "exit 3")
    cluster.wait_stat(jobid, "EXIT")
    assert "Exited with exit code 3." in (cluster.root / "o.txt").read_text()


def test_bjobs_default_lists_unfinished_only(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    r = cluster.run("bjobs")
    assert r.rc == 0
    assert r.out == "" and r.err == "No unfinished job found\n"
    r = cluster.run("bjobs", "-a")
    assert r.out.splitlines()[0].split() == [
        "JOBID", "USER", "STAT", "QUEUE", "FROM_HOST", "EXEC_HOST",
        "JOB_NAME", "SUBMIT_TIME"]
    assert r.out.splitlines()[1].split()[:3] == [str(done), "root", "DONE"]


def test_job_environment_has_lsf_variables(cluster):
    jobid = cluster.submit("-J", "envjob", "-o", "env.out",
                           "env | sort")
    cluster.wait_stat(jobid, "DONE")
    env = dict(line.split("=", 1) for line in
               (cluster.root / "env.out").read_text().split("\n\n")[0]
               .splitlines() if "=" in line)
    assert env["LSB_JOBID"] == str(jobid)
    assert env["LSB_JOBINDEX"] == "0"
    assert env["LSB_JOBNAME"] == "envjob"
    assert env["LSB_QUEUE"] == "normal"
    host = env["LSB_HOSTS"]
    assert env["LSB_MCPU_HOSTS"] == f"{host} 1"
    assert env["LSB_DJOB_HOSTFILE"].endswith(".hosts")
    assert env["LSB_OUTPUTFILE"] == "env.out"
    assert env["LSB_SUBCWD"] == str(cluster.root)


def test_hostfile_has_one_line_per_slot(cluster):
    jobid = cluster.submit("-n", "2", "-o", "hf.out",
                           'cat "$LSB_DJOB_HOSTFILE"; echo "$LSB_HOSTS"')
    cluster.wait_stat(jobid, "DONE")
    lines = (cluster.root / "hf.out").read_text().splitlines()
    host = lines[0]
    assert lines[:3] == [host, host, f"{host} {host}"]


def test_stdin_script_with_bsub_lines_and_deleted_file(cluster):
    script = "#!/bin/sh\n#BSUB -J scripted\n#BSUB -o script.out\necho from-script\n"
    r = cluster.run("bsub", input=script)
    assert r.rc == 0, r
    jobid = int(r.out.split("<")[1].split(">")[0])
    cluster.wait_stat(jobid, "DONE")
    assert (cluster.root / "script.out").read_text().startswith("from-script\n")
    r = cluster.run("bjobs", "-a", "-J", "scripted")
    assert "scripted" in r.out


def test_script_file_not_executable_is_copied_and_run(cluster):
    path = cluster.root / "job.sh"
    path.write_text("#BSUB -o copied.out\necho copied $1\n")
    os.chmod(path, 0o644)
    jobid = cluster.submit("job.sh", "arg1")
    path.unlink()
    cluster.wait_stat(jobid, "DONE")
    assert (cluster.root / "copied.out").read_text().startswith("copied arg1\n")
