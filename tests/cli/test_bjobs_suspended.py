"""bjobs -s: suspended jobs with the reason each is suspended, as LSF
prints them under the job's line (a held pending job: its pending reason)."""

import re

DATE = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d"


def test_suspended_jobs_come_with_their_reasons(make_cluster):
    cluster = make_cluster(mxj=1)
    running = cluster.submit("-J", "runner", "sleep 60")
    cluster.wait_stat(running, "RUN")
    held = cluster.submit("-H", "-J", "holder", "sleep 60")
    cluster.wait_stat(held, "PSUSP")
    r = cluster.run("bstop", str(running))
    assert r.rc == 0, r
    cluster.wait_stat(running, "USUSP")
    r = cluster.run("bjobs", "-s")
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    assert lines[0].startswith("JOBID   USER    STAT  QUEUE      FROM_HOST")
    assert re.fullmatch(rf"{running} +\S+ +USUSP normal +\S+ +\S+ +runner +"
                        rf"{DATE}", lines[1]), lines
    assert lines[2] == " The job was suspended by user;"
    assert re.fullmatch(rf"{held} +\S+ +PSUSP normal +\S+ +holder +{DATE}",
                        lines[3]), lines
    assert lines[4] == " The job was suspended by the user while pending;"
    assert lines[5:] == []
    r = cluster.run("bjobs", "-s", "-noheader", str(running))
    assert r.out.splitlines()[1:] == [" The job was suspended by user;"], r
