"""bsub -x end to end: only a queue with EXCLUSIVE = Y takes it; the job
starts on an idle host, which bhosts shows closed_Excl and which takes no
other job until the exclusive job is gone."""

from tests.lib.xcecluster import wait_for

QUEUES = """\
  excl:
    PRIORITY: 35
    EXCLUSIVE: Y
"""


def _status(cluster, host):
    r = cluster.run("bhosts", "-w", host)
    assert r.rc == 0 and r.err == "", r
    return r.out.splitlines()[1].split()[1]


def _pend_text(cluster, jobid):
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r.rc == 0, r
    return r.out


def _exec_host(cluster, jobid):
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    return r.out.strip()


def test_exclusive_job_refused_by_a_queue_without_exclusive(cluster):
    r = cluster.run("bsub", "-x", "sleep", "1")
    assert r.rc == 255 and r.out == ""
    assert r.err.strip() == ("normal: Queue does not accept EXCLUSIVE jobs. "
                             "Job not submitted.")
    r = cluster.run("bhosts")          # the controller goes on
    assert r.rc == 0, r


def test_host_of_an_exclusive_job_is_closed_excl_and_takes_nothing_else(
        make_cluster):
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"], mxj=2,
                           extra_queues=QUEUES)
    excl = cluster.submit("-x", "-q", "excl", "sleep", "60")
    cluster.wait_stat(excl, "RUN")
    host = _exec_host(cluster, excl)
    other = ({"vh000", "vh001"} - {host}).pop()
    wait_for(lambda: _status(cluster, host) == "closed_Excl",
             what="closed_Excl")
    assert _status(cluster, other) == "ok"
    r = cluster.run("bhosts", host)
    assert r.out.splitlines()[1].split()[1] == "closed", r
    r = cluster.run("bjobs", "-l", str(excl))
    assert "Exclusive Execution" in r.joined, r

    # Ordinary jobs fill the other host; the third waits.
    jobs = [cluster.submit("sleep", "60") for _ in range(3)]
    for jobid in jobs[:2]:
        cluster.wait_stat(jobid, "RUN")
        assert _exec_host(cluster, jobid) == other
    wait_for(lambda: "Running an exclusive job: 1 host" in
             _pend_text(cluster, jobs[2]), what="the closed_Excl reason")
    assert cluster.stat(jobs[2]) == "PEND"

    # Another exclusive job finds no idle host.
    excl2 = cluster.submit("-x", "-q", "excl", "sleep", "60")
    text = wait_for(lambda: "Job's requirement for exclusive execution not "
                    "satisfied: 1 host" in _pend_text(cluster, excl2) and
                    _pend_text(cluster, excl2),
                    what="the exclusive job's pend reason")
    assert "Running an exclusive job: 1 host" in text
    assert cluster.stat(excl2) == "PEND"

    # The exclusive job gone, its host opens and the waiting job runs.
    assert cluster.run("bkill", str(excl2)).rc == 0
    assert cluster.run("bkill", str(excl)).rc == 0
    cluster.wait_stat(jobs[2], "RUN")
    assert _exec_host(cluster, jobs[2]) == host
    assert _status(cluster, host) == "ok"
    r = cluster.run("bkill", "0")
    assert r.rc == 0, r
