"""bkill -s of a signal LSF's mbatchd keeps out of lsb.events: CHLD, WINCH
and IO reach the job but leave no JOB_SIGNAL record and no bhist line, as
the stop and continue signals do; URG, like any other, is recorded."""

import signal

from tests.lib.xcecluster import wait_for

EXIT = 0x20                     # JOB_STATUS jStatus (lsb.events(5))
# The job writes down WINCH and URG when it catches them (bash runs a
# trap once its `sleep` is over); IO, not caught, ends it.
CATCHER = ("for s in WINCH URG; do "
           "trap \"echo $s >> sig.$LSB_JOBID\" $s; done; "
           "echo READY >> sig.$LSB_JOBID; while :; do sleep 0.2; done")


def _signaled(cluster, jobid, sig):
    r = cluster.run("bkill", "-s", sig, str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{jobid}> is being signaled\n", ""), (sig, r)


def test_bkill_s_chld_winch_io_write_no_job_signal_record(make_cluster):
    cluster = make_cluster(mxj=1)
    jobid = cluster.submit(CATCHER)
    wait_for(lambda: "READY" in cluster.caught(jobid),
             what="the job to set its traps")
    for sig in ("CHLD", "SIGWINCH", "URG"):
        _signaled(cluster, jobid, sig)
    for name in ("WINCH", "URG"):
        wait_for(lambda: name in cluster.caught(jobid),
                 what=f"the job to catch {name}")
    assert cluster.stat(jobid) == "RUN"
    _signaled(cluster, jobid, str(int(signal.SIGIO)))
    cluster.wait_stat(jobid, "EXIT")
    assert f"Exited with exit code {128 + int(signal.SIGIO)}." in \
        cluster.long(jobid)
    # The job's end is recorded after every signal sent before it.
    cluster.wait_lsb_events(
        "JOB_STATUS", jobid,
        until=lambda rs: any(r["jStatus"] == EXIT for r in rs))
    assert [r["signalSymbol"] for r in
            cluster.lsb_events("JOB_SIGNAL", jobid)] == ["SIGURG"]
    text = cluster.run("bhist", "-l", str(jobid)).joined
    assert "Signal <URG> requested by user" in text, text
    for name in ("CHLD", "WINCH", "IO", "POLL"):
        assert f"Signal <{name}>" not in text, text
