"""Job groups through a real cluster: bgadd, bgmod, bgdel, bjgroup, bsub -g
creating groups, the hierarchical JOB_LIMIT with LSF's pend reason, and
bkill/bstop/bresume -g."""

from tests.lib.xcecluster import wait_for

HEADER = ["GROUP_NAME", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "FINISH",
          "SLA", "JLIMIT", "OWNER"]


def _groups(cluster, *argv):
    r = cluster.run("bjgroup", *argv)
    assert r.rc == 0, r.err
    lines = [l.split() for l in r.out.splitlines()]
    assert lines[0] == HEADER
    return {l[0]: l[1:] for l in lines[1:]}, [l[0] for l in lines[1:]]


def test_bgadd_bgmod_bjgroup_and_bgdel(make_cluster):
    cluster = make_cluster(mxj=4)
    r = cluster.run("bgadd", "-L", "10", "/A")
    assert (r.rc, r.out, r.err) == (0, "Job group </A> was added.\n", "")
    assert cluster.run("bgadd", "/X/Y").rc == 0       # parents created
    assert cluster.run("bgadd", "-L", "5", "/A/B").rc == 0
    rows, order = _groups(cluster)
    assert order == ["/A", "/X", "/X/Y", "/A/B"]     # by depth, as made
    assert rows["/A"][-2:] == ["0/10", "root"]
    assert rows["/X"][-2] == "0/-"
    _, order = _groups(cluster, "-s")
    assert order == ["/A", "/A/B", "/X", "/X/Y"]
    _, order = _groups(cluster, "-s", "/A/")
    assert order == ["/A"]
    r = cluster.run("bgmod", "-L", "3", "/A/B")
    assert (r.rc, r.out) == (0, "Job group </A/B> was modified.\n")
    assert _groups(cluster, "-s", "/A/B")[0]["/A/B"][-2] == "0/3"
    assert cluster.run("bgmod", "-Ln", "/A/B").rc == 0
    assert _groups(cluster, "-s", "/A/B")[0]["/A/B"][-2] == "0/-"
    r = cluster.run("bgdel", "/X")
    assert (r.rc, r.out) == (0, "Job group </X> was deleted.\n")
    _, order = _groups(cluster)
    assert order == ["/A", "/A/B"]


def test_bad_group_requests_change_nothing(make_cluster):
    cluster = make_cluster(mxj=2)
    assert cluster.run("bgadd", "-L", "2", "/G").rc == 0
    before = cluster.run("bjgroup").out
    assert "/G " in before
    for argv, err in [
            (("bgadd", "/bad name"), "/bad name: Bad job group name\n"),
            (("bgadd", "rel/path"), "rel/path: Bad job group name\n"),
            (("bgadd", "/G"), "/G: Job group already exists\n"),
            (("bgmod", "-L", "1", "/nope"), "/nope: No such job group\n"),
            (("bgdel", "/nope"), "/nope: No such job group\n"),
            (("bgadd", "-L", "5", "/G/H"),
             "/G/H: The job limit exceeds a parent job group's limit\n"),
            (("bjgroup", "-s", "/nope"), "/nope: No such job group\n")]:
        r = cluster.run(*argv)
        assert (r.rc, r.out, r.err) == (255, "", err), argv
    r = cluster.run("bgadd", "-sla", "gold", "/S")
    assert r.rc == 255 and r.out == "" and "-sla" in r.err
    jobid = cluster.submit("-g", "/G", "sleep 60")
    r = cluster.run("bgdel", "/G")
    assert (r.rc, r.err) == (
        255, "/G: Job group has unfinished jobs; not deleted\n")
    rows, _ = _groups(cluster)
    assert rows["/G"][-2] in ("0/2", "1/2") and len(rows) == 1
    assert cluster.stat(jobid) in ("PEND", "RUN")


def test_bsub_g_creates_groups_and_the_limit_holds_jobs(make_cluster):
    cluster = make_cluster(mxj=4)
    assert cluster.run("bgadd", "-L", "1", "/lim").rc == 0
    first = cluster.submit("-g", "/lim/sub", "sleep 60")
    second = cluster.submit("-g", "/lim/sub", "sleep 60")
    free = cluster.submit("-g", "/other/deep", "sleep 60")
    cluster.wait_stat(first, "RUN")
    cluster.wait_stat(free, "RUN")
    wait_for(lambda: "The job group has reached its job limit" in
             cluster.run("bjobs", "-p", str(second)).out,
             what="the job group pend reason")
    assert cluster.stat(second) == "PEND"
    rows, _ = _groups(cluster, "-s")
    assert rows["/lim"][:4] == ["2", "1", "1", "0"]
    assert rows["/lim"][-2] == "1/1"
    assert rows["/lim/sub"][-2:] == ["1/-", "root"]
    assert "/other/deep" in rows and "/other" in rows
    # Raising the limit lets the second job start.
    assert cluster.run("bgmod", "-L", "2", "/lim").rc == 0
    cluster.wait_stat(second, "RUN")


def test_bkill_bstop_bresume_g_act_on_the_group_only(make_cluster):
    cluster = make_cluster(mxj=4)
    a = cluster.submit("-g", "/ctl", "sleep 60")
    b = cluster.submit("-g", "/ctl/sub", "sleep 60")
    for j in (a, b):
        cluster.wait_stat(j, "RUN")
    r = cluster.run("bstop", "-g", "/ctl", "0")
    assert (r.rc, r.out) == (0, f"Job <{a}> is being stopped\n")
    cluster.wait_stat(a, "USUSP")
    r = cluster.run("bresume", "-g", "/ctl", "0")
    assert (r.rc, r.out) == (0, f"Job <{a}> is being resumed\n")
    cluster.wait_stat(a, "RUN")
    r = cluster.run("bkill", "-g", "/ctl/sub", "0")
    assert (r.rc, r.out) == (0, f"Job <{b}> is being terminated\n")
    cluster.wait_stat(b, "EXIT")
    assert cluster.stat(a) == "RUN"
    r = cluster.run("bkill", "-g", "/bad name", "0")
    assert (r.rc, r.err) == (255, "/bad name: Bad job group name\n")


def test_default_jobgroup_substitutes_the_user(make_cluster):
    cluster = make_cluster(extra_params="  DEFAULT_JOBGROUP: /def/%u\n")
    jobid = cluster.submit("sleep 30")
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Job Group </def/root>" in r.joined, r
    rows, _ = _groups(cluster)
    assert "/def/root" in rows
    # The submitter's LSB_DEFAULT_JOBGROUP wins over DEFAULT_JOBGROUP;
    # -g wins over both.
    env = {"LSB_DEFAULT_JOBGROUP": "/mine/%q"}
    mine = cluster.submit("true", env=env)
    assert cluster.stored_job(mine)["spec"]["job_group"] == "/mine/normal"
    given = cluster.submit("-g", "/given", "true", env=env)
    assert cluster.stored_job(given)["spec"]["job_group"] == "/given"


def test_groups_and_limits_survive_a_controller_restart(make_cluster):
    cluster = make_cluster(mxj=4)
    assert cluster.run("bgadd", "-L", "1", "/keep").rc == 0
    first = cluster.submit("-g", "/keep", "sleep 60")
    cluster.wait_stat(first, "RUN")
    cluster.kill_controller()
    cluster.start()
    second = cluster.submit("-g", "/keep", "sleep 60")
    wait_for(lambda: "The job group has reached its job limit" in
             cluster.run("bjobs", "-p", str(second)).out,
             what="the limit after the restart")
    r = cluster.run("bgadd", "/keep")
    assert (r.rc, r.err) == (255, "/keep: Job group already exists\n")


def test_bgdel_sweeps_empty_groups_0_c_d_and_u(make_cluster):
    cluster = make_cluster(mxj=2)
    for path in ("/s/a", "/s/b", "/s/a/deep", "/t"):
        assert cluster.run("bgadd", path).rc == 0
    busy = cluster.submit("-g", "/s/b", "sleep 60")
    # -c: the group and the empty groups below it; /s/b holds a job, so
    # /s stays too.
    r = cluster.run("bgdel", "-c", "/s")
    assert r.rc == 0, r
    assert r.out.splitlines() == ["Job group </s/a/deep> was deleted.",
                                  "Job group </s/a> was deleted."]
    assert set(_groups(cluster)[1]) == {"/s", "/s/b", "/t"}
    # -d: unused for longer than 3600 seconds: none yet.
    r = cluster.run("bgdel", "-d", "3600")
    assert (r.rc, r.out) == (0, "No job group was deleted.\n")
    # 0: the requester's empty groups (root's, here; -u all the same).
    r = cluster.run("bgdel", "-u", "all", "0")
    assert (r.rc, r.out) == (0, "Job group </t> was deleted.\n")
    cluster.run("bkill", str(busy))
    cluster.wait_stat(busy, "EXIT")
    r = cluster.run("bgdel", "-d", "0")
    assert r.rc == 0 and "Job group </s> was deleted." in r.out, r
    # Bad forms: nothing or two of them, a bad idle time.
    for argv in (("bgdel",), ("bgdel", "-c", "/x", "0"),
                 ("bgdel", "-d", "soon")):
        r = cluster.run(*argv)
        assert r.rc == 255 and r.out == "", (argv, r)


def test_bjgroup_N_counts_slots_not_jobs(make_cluster):
    cluster = make_cluster(mxj=4)
    jobid = cluster.submit("-g", "/wide", "-n", "3", "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bjgroup", "-N", "-s", "/wide")
    assert r.rc == 0, r
    header, row = [line.split() for line in r.out.splitlines()]
    assert header == ["GROUP_NAME", "NSLOTS", "PEND", "RUN", "SSUSP", "USUSP",
                      "RSV", "SLA", "OWNER"]
    assert row[:4] == ["/wide", "3", "0", "3"], r
    assert _groups(cluster, "-s", "/wide")[0]["/wide"][:3] == ["1", "0", "1"]
    cluster.run("bkill", str(jobid))
