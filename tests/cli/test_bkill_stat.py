"""bkill -stat run|pend|susp: every job of the user (or of the other
selection options) in that status is killed, with or without job ID 0;
jobs in other states are left alone without a word (LSF 10.1)."""


def _three_states(make_cluster):
    """A cluster with one running, one stopped and one pending job."""
    cluster = make_cluster(mxj=2)
    running = cluster.submit("sleep 60")
    stopped = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    cluster.wait_stat(stopped, "RUN")
    assert cluster.run("bstop", str(stopped)).rc == 0
    cluster.wait_stat(stopped, "USUSP")
    pending = cluster.submit("sleep 60")
    return cluster, running, stopped, pending


def test_bkill_stat_kills_only_the_jobs_in_that_status(make_cluster):
    cluster, running, stopped, pending = _three_states(make_cluster)
    r = cluster.run("bkill", "-stat", "pend")
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{pending}> is being terminated\n", "")
    assert cluster.stat(pending) == "EXIT"
    assert cluster.stat(running) == "RUN"
    assert cluster.stat(stopped) == "USUSP"
    r = cluster.run("bkill", "-stat", "susp", "0")
    assert (r.rc, r.out) == (0, f"Job <{stopped}> is being terminated\n")
    cluster.wait_stat(stopped, "EXIT")
    assert cluster.stat(running) == "RUN"
    r = cluster.run("bkill", "-stat", "run", "-q", "normal")
    assert (r.rc, r.out) == (0, f"Job <{running}> is being terminated\n")
    cluster.wait_stat(running, "EXIT")


def test_bkill_stat_with_job_ids_skips_those_in_other_states(make_cluster):
    cluster, running, stopped, pending = _three_states(make_cluster)
    r = cluster.run("bkill", "-stat", "pend", str(running), str(pending))
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{pending}> is being terminated\n", "")
    assert cluster.stat(pending) == "EXIT"
    assert cluster.stat(running) == "RUN"
    # Nothing in that status: LSF's one line, exit 255, nothing killed.
    r = cluster.run("bkill", "-stat", "pend", str(running), str(stopped))
    assert (r.rc, r.out, r.err) == (255, "", "No matching job found\n")
    r = cluster.run("bkill", "-stat", "susp", "-J", "nosuchname")
    assert (r.rc, r.err) == (255, "No matching job found\n")
    assert cluster.stat(stopped) == "USUSP"
    assert cluster.stat(running) == "RUN"


def test_bkill_stat_bad_value_or_with_s_is_refused(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bkill", "-stat", "RUNNING", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err.splitlines()[0] == "bkill: -stat: bad value 'RUNNING'"
    r = cluster.run("bkill", "-stat", "run", "-s", "TERM", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err.splitlines()[0] == ("bkill: -stat and -s cannot be used "
                                     "together")
    assert cluster.stat(jobid) == "RUN"         # nothing happened to it
    assert cluster.run("bjobs").rc == 0         # the controller still answers
