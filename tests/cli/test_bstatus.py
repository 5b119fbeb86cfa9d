"""bstatus: a job's external status is its message 0, shared with
bpost/bread; set by the owner while the job is unfinished."""

import re

ROW = r"{label} root       \w{{3}} [ \d]\d \d\d:\d\d   {text}$"


def _row(label, text):
    return re.compile(ROW.format(label=re.escape(f"{label:<8}"), text=text))


def test_set_then_get_shares_message_zero_with_bread(cluster):
    jobid = cluster.submit("sleep 60")
    r = cluster.run("bstatus", "-d", "step 1", str(jobid))
    assert (r.rc, r.out, r.err) == (0, "", "")
    r = cluster.run("bstatus", str(jobid))
    lines = r.out.splitlines()
    assert r.rc == 0 and r.err == ""
    assert lines[0] == "JOBID    FROM       UPDATE_TIME    STATUS"
    assert _row(jobid, "step 1").match(lines[1]), lines
    # bread's message 0 is the status, and bpost changes it.
    r = cluster.run("bread", "-i", "0", str(jobid))
    assert r.out.splitlines()[2].split()[-2:] == ["1", "N"]
    cluster.run("bpost", "-d", "step2", str(jobid))
    r = cluster.run("bstatus", str(jobid))
    assert _row(jobid, "step2").match(r.out.splitlines()[1])


def test_by_name_with_a_wildcard_and_array_elements(cluster):
    jobid = cluster.submit("-J", "stat[1-2]", "sleep 60")
    r = cluster.run("bstatus", "-d", "half", "-J", "st*")
    assert (r.rc, r.out, r.err) == (0, "", "")
    r = cluster.run("bstatus", "-J", "stat")
    lines = r.out.splitlines()
    assert r.rc == 0 and len(lines) == 3
    assert _row(f"{jobid}[1]", "half").match(lines[1])
    assert _row(f"{jobid}[2]", "half").match(lines[2])
    r = cluster.run("bstatus", f"{jobid}[2]")
    assert len(r.out.splitlines()) == 2


def test_errors(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    r = cluster.run("bstatus", "-d", "late", str(done))
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{done}>: Job has already finished\n")
    r = cluster.run("bstatus", str(done))
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{done}>: No message available\n")
    r = cluster.run("bstatus", "999999")
    assert (r.rc, r.err) == (255, "Job <999999>: No matching job found\n")
    r = cluster.run("bstatus", "-J", "nosuch*")
    assert (r.rc, r.err) == (255, "Job <nosuch*> is not found\n")
    r = cluster.run("bstatus", "12x")
    assert (r.rc, r.err) == (255, "12x: Illegal job ID.\n")
    r = cluster.run("bstatus")
    assert r.rc == 255 and r.err.startswith(
        "bstatus: Specify either a job ID or -J job_name\nUsage: bstatus ")
    r = cluster.run("bstatus", "-Z", "1")
    assert r.rc == 255 and "illegal option -- Z" in r.err
    assert cluster.run("bstatus", "-h").rc == 0
