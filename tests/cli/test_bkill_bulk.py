"""bkill -b (LSF 10.1's bulk kill): the jobs are killed as by bkill, end
with the exit reason TERM_BUCKET_KILL and leave no lsb.acct record (so
bacct does not count them); -b is ignored with -r or -s, as in LSF."""


def _records(cluster, name, kind):
    """The job ids of the records *kind* of *name*."""
    return [r[3] for r in cluster.lsb_records(name, kind)]


def test_bkill_b_kills_with_term_bucket_kill_and_no_acct_record(
        make_cluster):
    cluster = make_cluster(mxj=1)
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    pending = cluster.submit("sleep 60")
    r = cluster.run("bkill", "-b", "0")
    assert (r.rc, r.err) == (0, "")
    assert sorted(r.out.splitlines()) == sorted(
        [f"Job <{running}> is being terminated",
         f"Job <{pending}> is being terminated"])
    cluster.wait_stat(running, "EXIT")
    cluster.wait_stat(pending, "EXIT")
    r = cluster.run("bjobs", "-noheader", "-o", "exit_reason", str(running),
                    str(pending))
    assert r.out.splitlines() == 2 * ["TERM_BUCKET_KILL: job killed with "
                                      "bkill -b"]
    # A plain kill afterwards has its JOB_FINISH: the writer has passed the
    # bulk-killed jobs' ends by then, and wrote none for them.
    plain = cluster.submit("sleep 60")
    cluster.run("bkill", str(plain))
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH", plain)
    finished = _records(cluster, "lsb.acct", "JOB_FINISH")
    assert str(running) not in finished and str(pending) not in finished
    cluster.wait_lsb_records("lsb.events", "JOB_STATUS", until=lambda r: {
        str(running), str(pending)} <= {w[3] for w in r})
    r = cluster.run("bacct", str(running), str(pending))
    assert (r.rc, r.err) == (255, "No matching job found\n")
    r = cluster.run("bacct", "-l", str(plain))
    assert r.rc == 0 and "TERM_OWNER" in r.joined


def test_bkill_b_is_ignored_with_r_or_s(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bkill", "-b", "-s", "STOP", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being stopped\n")
    assert cluster.stat(jobid) == "USUSP"       # bstop's, not a kill
    r = cluster.run("bkill", "-b", "-r", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being terminated\n")
    cluster.wait_stat(jobid, "EXIT")
    r = cluster.run("bjobs", "-noheader", "-o", "exit_reason", str(jobid))
    assert r.out.split(":")[0] != "TERM_BUCKET_KILL"


def test_bkill_b_with_stat_or_d_is_refused(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    for other in (["-stat", "run"], ["-d"]):
        r = cluster.run("bkill", "-b", *other, str(jobid))
        assert (r.rc, r.out) == (255, "")
        assert r.err.splitlines()[0] == (f"bkill: -b and {other[0]} cannot "
                                         "be used together")
    r = cluster.run("bkill", "-b", "-C", "why", str(jobid))
    assert r.rc == 255
    assert r.err.startswith("bkill: option -C is not supported by xce: ")
    assert cluster.stat(jobid) == "RUN"         # nothing happened to it
    assert cluster.run("bjobs").rc == 0         # the controller still answers
