"""Gang groups through a real cluster of four virtual hosts: a gang of
four that cannot all be placed (one host busy) stays entirely pending
with the gang's reason, then starts on the four hosts in one pass once
the host frees; a member that fails ends the others (policy kill); a
member whose pre-exec fails has the started others requeued and the four
start again together (policy continue); bad `xce gang` input gets one
line and exit 255."""

from tests.lib.xcecluster import virtual_names, wait_for

GANG = "/train"


def _squash(text):
    """One blank between words: a reason may follow its heading on the
    next line."""
    return " ".join(text.split())


def _long(cluster, jobid, command="bjobs"):
    """bjobs -l or bhist -l, its folded lines joined, blanks squeezed."""
    r = cluster.run(command, "-l", str(jobid))
    assert r.rc == 0, r
    return _squash(r.joined)


def _dispatch_times(cluster, jobids):
    """The times of the jobs' START events: one pass, one time."""
    from xce.store.reader import Reader
    with Reader(cluster.spool / "store" / "xce.db") as reader:
        steps = reader.job_events([(j, 0) for j in jobids])
    return {t for events in steps.values() for t, kind, _ in events
            if kind == "START"}


def test_a_gang_of_four_starts_on_four_hosts_at_once_or_not_at_all(
        make_cluster):
    names = virtual_names(4, prefix="gh")
    cluster = make_cluster(virtual_hosts=names, mxj=1, start=False)
    cluster.start(timeout=60)
    assert cluster.run("bgadd", GANG).rc == 0
    r = cluster.run("xce", "gang", "set", GANG, "--size", "4",
                    "--on-failure", "kill")
    assert (r.rc, r.out, r.err) == (
        0, "Job group </train> is a gang of 4 members (on failure: kill).\n",
        ""), r
    blocker = cluster.submit("-m", names[0], "sleep 60")
    cluster.wait_stat(blocker, "RUN")

    # One member fails soon after the start; the others would run on.
    members = [cluster.submit("-g", GANG, "sleep 60") for _ in range(3)]
    members.append(cluster.submit("-g", GANG, "sleep 1; exit 3"))
    want = _squash("Gang group </train>: only 3 of 4 members can be placed")
    for jobid in members:
        wait_for(lambda: want in _long(cluster, jobid), timeout=20,
                 what=f"job {jobid}'s gang reason")
    assert [cluster.stat(j) for j in members] == ["PEND"] * 4

    assert cluster.run("bkill", str(blocker)).rc == 0
    wait_for(lambda: all(cluster.stat(j) != "PEND" for j in members),
             timeout=20, what="the gang to start")
    rows = [cluster.stored_job(j) for j in members]
    assert sorted(r["exec_hosts"] for r in rows) == names
    assert len(_dispatch_times(cluster, members)) == 1     # one pass

    cluster.wait_stat(members[-1], "EXIT")
    for jobid in members[:-1]:
        cluster.wait_stat(jobid, "EXIT", timeout=30)
        text = _long(cluster, jobid)
        assert _squash("TERM_GANG: job killed because another member of "
                       "its gang group failed") in text, text
    text = _long(cluster, members[0], "bhist")
    assert _squash(f"gang </train>: job <{members[-1]}> exited") in text, \
        text
    assert cluster.stored_job(members[-1])["exit_code"] == 3


def test_policy_continue_and_bad_gang_requests(make_cluster):
    """With policy continue a failed member leaves the others running;
    bad requests get one line, exit 255, and change nothing."""
    cluster = make_cluster(mxj=2)
    assert cluster.run("bgadd", "/pair").rc == 0
    r = cluster.run("xce", "gang", "set", "/pair", "--size", "2",
                    "--on-failure", "continue")
    assert r.rc == 0, r
    a = cluster.submit("-g", "/pair", "exit 1")
    b = cluster.submit("-g", "/pair", "sleep 1")
    cluster.wait_stat(a, "EXIT")
    cluster.wait_stat(b, "DONE")
    r = cluster.run("xce", "gang", "list")
    assert r.out.split() == ["GROUP_NAME", "SIZE", "ON_FAILURE", "/pair",
                             "2", "continue"], r
    _bad_requests(cluster)


def _bad_requests(cluster):
    assert cluster.run("bgadd", "/g").rc == 0
    for argv, err in [
            (("--size", "0"), "0: Bad gang size; a positive integer is "
                              "needed\n"),
            (("--size", "x"), "x: Bad gang size; a positive integer is "
                              "needed\n"),
            (("--size", "2", "--on-failure", "stop"),
             "stop: Bad failure policy; use kill or continue\n")]:
        r = cluster.run("xce", "gang", "set", "/g", *argv)
        assert (r.rc, r.out, r.err) == (255, "", err), (argv, r)
    r = cluster.run("xce", "gang", "set", "/nope", "--size", "2")
    assert (r.rc, r.out, r.err) == (255, "", "/nope: No such job group\n")
    r = cluster.run("xce", "gang", "set", "/g")
    assert (r.rc, r.err) == (255, "/g: A new gang needs its size "
                                  "(--size)\n"), r
    r = cluster.run("xce", "gang", "unset", "/g")
    assert (r.rc, r.err) == (255, "/g: Job group is not a gang\n"), r
    # Nothing changed, and the controller still answers.
    r = cluster.run("xce", "gang", "list")
    assert (r.rc, r.out.split()[3:]) == (0, ["/pair", "2", "continue"]), r
    assert cluster.run("xce", "gang", "set", "/g", "--size", "1").rc == 0


def test_a_member_whose_pre_exec_fails_starts_the_gang_again_whole(
        make_cluster, tmp_path):
    """Policy continue: a member's failed pre-exec sends it back to
    pending, the three that started are requeued, and the four start
    again together once it may be dispatched (MBD_SLEEP_TIME later)."""
    names = virtual_names(4, prefix="gp")
    cluster = make_cluster(virtual_hosts=names, mxj=1, start=False,
                           extra_params="  MBD_SLEEP_TIME: 2")
    cluster.start(timeout=60)
    assert cluster.run("bgadd", GANG).rc == 0
    assert cluster.run("xce", "gang", "set", GANG, "--size", "4",
                       "--on-failure", "continue").rc == 0
    once = tmp_path / "tried"
    members = [cluster.submit("-g", GANG, "sleep 60") for _ in range(3)]
    members.append(cluster.submit(
        "-g", GANG, "-E", f"test -e {once} || {{ touch {once}; exit 1; }}",
        "sleep 60"))
    wait_for(lambda: all(cluster.stored_job(j)["attempt"] == 2 and
                         cluster.stat(j) == "RUN" for j in members),
             timeout=30, what="the gang to start again")
    assert once.exists()
    assert len(_dispatch_times(cluster, members)) == 2     # two passes
    text = _long(cluster, members[0], "bhist")
    assert _squash(f"Pending: Job has been requeued (gang </train>: job "
                   f"<{members[-1]}> did not start)") in text, text
    assert cluster.run("bkill", *map(str, members)).rc == 0
    for jobid in members:
        cluster.wait_stat(jobid, "EXIT")
