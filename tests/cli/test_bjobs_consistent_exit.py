"""lsf.conf LSB_BJOBS_CONSISTENT_EXIT_CODE=Y: bjobs exits 0 only when it
finds an unfinished job, and 255 when it shows none (no job, or finished
jobs only) or when any job id asked for is unknown (scripts poll
`until ! bjobs ...`); without it, LSF's default (0 unless every id asked
for is unknown)."""

from tests.lib.xcecluster import wait_for


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


def test_consistent_exit_is_255_when_only_finished_jobs_are_found(
        make_cluster):
    cluster = make_cluster(
        extra_params="  LSB_BJOBS_CONSISTENT_EXIT_CODE: Y\n")
    done = cluster.submit("true")
    _wait_stat(cluster, done, "DONE")
    # The finished job is shown, but no unfinished one is found.
    for argv in ((str(done),), ("-d",), ("-a",)):
        r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", *argv)
        assert (r.rc, r.out, r.err) == (255, f"{done} DONE\n", ""), (argv, r)
    r = cluster.run("bjobs")
    assert (r.rc, r.out, r.err) == (255, "", "No unfinished job found\n"), r
    running = cluster.submit("sleep 60")
    _wait_stat(cluster, running, "RUN")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid", "-a")
    assert (r.rc, sorted(r.out.split()), r.err) == (
        0, sorted([str(running), str(done)]), ""), r
    r = cluster.run("bjobs", "-noheader", "-o", "jobid", str(done),
                    str(running))
    assert (r.rc, r.err) == (0, ""), r
    # -d shows finished jobs only: never an unfinished one.
    r = cluster.run("bjobs", "-noheader", "-o", "jobid", "-d")
    assert (r.rc, r.out, r.err) == (255, f"{done}\n", ""), r
    cluster.run("bkill", str(running))
    _wait_stat(cluster, running, "EXIT")


def _wait_stat(cluster, jobid, stat):
    """Cluster.wait_stat, which takes bjobs' 255 for no answer: the row is
    read here whatever bjobs exits."""
    wait_for(lambda: cluster.run("bjobs", "-noheader", "-o", "stat",
                                 str(jobid)).out == f"{stat}\n",
             what=f"job {jobid} to reach {stat}")


def test_default_exit_codes_without_the_setting(make_cluster):
    cluster = make_cluster()
    r = cluster.run("bjobs")
    assert (r.rc, r.err) == (0, "No unfinished job found\n"), r
    job = cluster.submit("sleep 60")
    r = cluster.run("bjobs", str(job), "99999")
    assert (r.rc, r.err) == (0, "Job <99999> is not found\n"), r
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    for argv in ((str(done),), ("-d",)):
        r = cluster.run("bjobs", "-noheader", "-o", "jobid", *argv)
        assert (r.rc, r.out, r.err) == (0, f"{done}\n", ""), (argv, r)
