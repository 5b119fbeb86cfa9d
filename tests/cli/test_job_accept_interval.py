"""JOB_ACCEPT_INTERVAL end to end: on a one-host cluster of 4 slots with
a 4-second wait after each dispatch (2 x MBD_SLEEP_TIME 2), a job
submitted just after another started pends with LSF's "Just started a job
recently" and starts once the wait is over, with no other event to wake
the controller; bparams shows the interval."""

from tests.lib.xcecluster import wait_for


def _reasons(cluster, jobid):
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r.rc == 0, r
    return r.out


def _held_back(cluster, first, second, wait):
    """*second* pends with LSF's reason, then starts: seconds between the
    two jobs' starts."""
    wait_for(lambda: " Just started a job recently: 1 host;" in
             _reasons(cluster, second), timeout=wait,
             what="the second job held back by the interval")
    cluster.wait_stat(second, "RUN", timeout=wait + 12)
    return cluster.stored_job(second)["start_time"] - \
        cluster.stored_job(first)["start_time"]


def test_a_host_takes_its_next_job_only_after_the_interval(make_cluster):
    cluster = make_cluster(mxj=4, extra_params="  MBD_SLEEP_TIME: 2\n"
                           "  JOB_ACCEPT_INTERVAL: 2\n")
    r = cluster.run("bparams")
    assert r.rc == 0 and "Job Accepting Interval:  4 seconds" in r.out, r
    first = cluster.submit("sleep 30")
    cluster.wait_stat(first, "RUN")
    second = cluster.submit("sleep 30")
    gap = _held_back(cluster, first, second, 4)
    assert gap >= 3.5, gap          # the wait, not a slot, held it
    assert cluster.stored_job(second)["exec_hosts"] == \
        cluster.stored_job(first)["exec_hosts"]
    for job in (first, second):
        assert cluster.run("bkill", str(job)).rc == 0
    cluster.wait_stat(second, "EXIT")


def test_a_controller_restart_does_not_cut_the_interval(make_cluster):
    """The wait is found again from the first job's start time: a job
    submitted right after a restart still waits it out (LSF's reason)."""
    cluster = make_cluster(mxj=4, extra_params="  MBD_SLEEP_TIME: 2\n"
                           "  JOB_ACCEPT_INTERVAL: 4\n")
    first = cluster.submit("sleep 30")
    cluster.wait_stat(first, "RUN")
    cluster.kill_controller()
    cluster.start()
    second = cluster.submit("sleep 30")
    gap = _held_back(cluster, first, second, 8)
    assert gap >= 7.5, gap          # the 8 s wait, across the restart
    for job in (first, second):
        assert cluster.run("bkill", str(job)).rc == 0
    cluster.wait_stat(second, "EXIT")
