"""bsub -Q and queue REQUEUE_EXIT_VALUES end to end: a job that exits with
one of its requeue exit values goes back to PEND (LSF's bhist line, its
lsb.events records, LSB_EXIT_REQUEUE in the job), EXCLUDE() values keep it
off the host it exited on, and bad lists are refused with nothing
submitted."""

from tests.lib.xcecluster import wait_for

REQUEUED = "Pending: Requeued job is waiting for rescheduling;(exit code 3)"
# Exits 3 on its first run and 0 on the next, counting runs in a file.
TWICE = ('n=$(cat runs 2>/dev/null || echo 0); n=$((n+1)); echo $n >runs; '
         'echo "requeue=$LSB_EXIT_REQUEUE"; [ $n -ge 2 ] || exit 3')


def _long(cluster, cmd, jobid):
    r = cluster.run(cmd, "-l", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    return r.joined


def test_job_exiting_with_a_Q_value_is_requeued_then_runs_again(
        make_cluster, tmp_path):
    cluster = make_cluster()
    jobid = cluster.submit("-Q", "3 7", "-o", str(tmp_path / "out"), TWICE,
                           cwd=tmp_path)
    cluster.wait_stat(jobid, "DONE")
    assert (tmp_path / "runs").read_text() == "2\n"
    out = (tmp_path / "out").read_text()
    assert out.count("requeue=3 7\n") == 2      # LSB_EXIT_REQUEUE
    hist = _long(cluster, "bhist", jobid)
    assert REQUEUED in hist
    assert hist.count("Dispatched") == 2
    assert "Done successfully." in hist
    assert "Requeue Exit Values <3 7>" in _long(cluster, "bjobs", jobid)
    # lsb.events: JOB_REQUEUE, then a JOB_STATUS back to PEND (1) with
    # the exit value as a wait status (3 << 8).  The files follow the
    # commit that the store shows: polled.
    cluster.wait_lsb_records("lsb.events", "JOB_REQUEUE", jobid)
    pend = [w for w in cluster.wait_lsb_records(
        "lsb.events", "JOB_STATUS", jobid,
        until=lambda r: any(w[4] == "1" for w in r)) if w[4] == "1"]
    assert pend[0][11] == str(3 << 8), pend   # exitStatus


def test_queue_requeue_exit_values_all_but_the_tilde_ones(make_cluster,
                                                          tmp_path):
    cluster = make_cluster(extra_queues="  retry:\n    PRIORITY: 20\n"
                           "    REQUEUE_EXIT_VALUES: all ~1\n"
                           "    RERUNNABLE: yes\n")
    again = cluster.submit("-q", "retry", TWICE, cwd=tmp_path)
    cluster.wait_stat(again, "DONE")
    assert REQUEUED in _long(cluster, "bhist", again)
    ended = cluster.submit("-q", "retry", "exit 1", cwd=tmp_path)
    cluster.wait_stat(ended, "EXIT")
    assert "Requeued" not in _long(cluster, "bhist", ended)
    # The job's own -Q replaces the queue's list.
    own = cluster.submit("-q", "retry", "-Q", "9", "exit 2", cwd=tmp_path)
    cluster.wait_stat(own, "EXIT")
    r = cluster.run("bqueues", "-l", "retry")
    assert r.rc == 0 and "\nREQUEUE_EXIT_VALUES:  all ~1\n" in r.out, r
    assert "\nRERUNNABLE :  yes\n" in r.out, r


def test_exclude_value_never_runs_the_job_on_that_host_again(make_cluster,
                                                             tmp_path):
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"], mxj=1)
    jobid = cluster.submit("-Q", "EXCLUDE(4)", "exit 4", cwd=tmp_path)
    # It exits 4 on one host, then on the other, then has nowhere to go.
    wait_for(lambda: _long(cluster, "bhist", jobid).count(
        "(exit code 4)") == 2, timeout=30, what="two exclusive requeues")
    cluster.wait_stat(jobid, "PEND")
    hist = _long(cluster, "bhist", jobid)
    assert "<vh000>" in hist and "<vh001>" in hist
    assert sorted(cluster.stored_job(jobid)["spec"]["requeue_excluded"]) \
        == ["vh000", "vh001"]
    r = cluster.run("bjobs", "-l", "-p3", str(jobid))
    assert "The job was requeued with an EXCLUDE exit value on this host" \
        in r.joined, r
    # Still pending, with nowhere to run: other jobs run as usual.
    other = cluster.submit("true", cwd=tmp_path)
    cluster.wait_stat(other, "DONE")
    assert cluster.stat(jobid) == "PEND"


def test_bad_requeue_lists_are_refused_and_nothing_is_submitted(
        make_cluster, tmp_path):
    cluster = make_cluster()
    for bad in ("abc", "1 all", "~2", "256", "EXCLUDE()", ""):
        r = cluster.run("bsub", "-Q", bad, "true", cwd=tmp_path)
        assert r.rc == 255 and r.out == "", (bad, r)
        assert r.err == (f"{bad}: Bad requeue exit value list; use "
                         "\"[all] [~number ...] | [number ...] "
                         "[EXCLUDE(number ...)]\" with numbers 0-255. "
                         "Job not submitted.\n"), (bad, r)
    r = cluster.run("bjobs", "-a")
    assert "No job found" in r.out + r.err, r
    assert cluster.proc.poll() is None      # the controller runs on
