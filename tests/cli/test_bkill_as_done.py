"""bkill -d: the job is killed and recorded DONE once it exits (LSF 10.1),
in bjobs, bhist, bacct and lsb.events/lsb.acct alike."""


def test_bkill_d_records_a_running_job_done(cluster):
    jobid = cluster.submit("-o", "d.out", "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bkill", "-d", str(jobid))
    assert (r.rc, r.out, r.err) == (0, f"Job <{jobid}> is being terminated\n",
                                    "")
    cluster.wait_stat(jobid, "DONE")
    assert cluster.stat(jobid) == "DONE"
    hist = cluster.run("bhist", "-l", str(jobid))
    assert hist.rc == 0
    assert "Signal <KILL> requested by user or administrator" in hist.joined
    assert "Done successfully." in hist.joined
    assert "Completed <exit>" not in hist.joined
    acct = cluster.run("bacct", "-l", str(jobid))
    assert acct.rc == 0 and ": Completed <done>." in acct.joined, acct
    assert ("Total number of done jobs:       1      "
            "Total number of exited jobs:     0") in acct.joined
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH", jobid)
    status = [r[4] for r in cluster.wait_lsb_records(   # 64: DONE
        "lsb.events", "JOB_STATUS", jobid,
        until=lambda r: "64" in [w[4] for w in r])]
    assert "32" not in status                    # never EXIT


def test_bkill_d_of_a_pending_job_is_a_plain_kill(make_cluster):
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    pending = cluster.submit("true")
    r = cluster.run("bkill", "-d", str(pending))
    assert (r.rc, r.out) == (0, f"Job <{pending}> is being terminated\n")
    assert cluster.stat(pending) == "EXIT"      # LSF: -d acts on started jobs
    # A plain bkill of a running job is still EXIT.
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(blocker, "EXIT")


def test_bkill_d_with_r_or_s_is_refused(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    for other in (["-r"], ["-s", "TERM"]):
        r = cluster.run("bkill", "-d", *other, str(jobid))
        assert r.rc == 255 and r.out == ""
        assert r.err.splitlines()[0] == (f"bkill: {other[0]} and -d cannot "
                                         "be used together")
    r = cluster.run("bkill", "-C", "why", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err.startswith("bkill: option -C is not supported by xce: ")
    assert cluster.stat(jobid) == "RUN"         # nothing happened to it
    assert cluster.run("bjobs").rc == 0         # the controller still answers
