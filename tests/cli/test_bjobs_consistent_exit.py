"""lsf.conf LSB_BJOBS_CONSISTENT_EXIT_CODE=Y: bjobs exits 255 when it
shows no job or when any job id asked for is unknown (scripts poll
`until ! bjobs ...`); without it, LSF's default (0 unless every id asked
for is unknown)."""


def test_consistent_exit_codes_when_the_site_asks_for_them(make_cluster):
    cluster = make_cluster(
        extra_params="  LSB_BJOBS_CONSISTENT_EXIT_CODE: Y\n")
    r = cluster.run("bjobs")
    assert (r.rc, r.out, r.err) == (255, "", "No unfinished job found\n"), r
    job = cluster.submit("sleep 60")
    r = cluster.run("bjobs")
    assert (r.rc, r.err) == (0, ""), r
    r = cluster.run("bjobs", str(job), "99999")
    assert (r.rc, r.err) == (255, "Job <99999> is not found\n"), r
    assert r.out.splitlines()[1].split()[0] == str(job)
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", "-J", "nomatch")
    assert (r.rc, r.out) == (255, ""), r
    r = cluster.run("bjobs", "-noheader", "-o", "jobid", str(job))
    assert (r.rc, r.out) == (0, f"{job}\n"), r


def test_default_exit_codes_without_the_setting(make_cluster):
    cluster = make_cluster()
    r = cluster.run("bjobs")
    assert (r.rc, r.err) == (0, "No unfinished job found\n"), r
    job = cluster.submit("sleep 60")
    r = cluster.run("bjobs", str(job), "99999")
    assert (r.rc, r.err) == (0, "Job <99999> is not found\n"), r
