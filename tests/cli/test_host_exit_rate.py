"""Host EXIT_RATE end to end: on a host with EXIT_RATE 2 (jobs per minute
over JOB_EXIT_RATE_DURATION 1), jobs killed with bkill do not count; the
third job that exits by itself within the minute closes the host as LSF's
default eadmin does (closed_Adm, its comment and the rate in bhosts -l), a
controller restart in between losing none of the exits counted and one
after keeping the close and its comment; badmin hopen opens it again."""

import socket

from tests.lib.xcecluster import wait_for

HOST = socket.gethostname()


def _status(cluster):
    r = cluster.run("bhosts", "-w", HOST)
    assert r.rc == 0, r
    return r.out.splitlines()[1].split()[1]


def _exits(cluster, n):
    for _ in range(n):
        jobid = cluster.submit("exit 3")
        cluster.wait_stat(jobid, "EXIT")


def test_a_host_whose_jobs_exit_fast_is_closed_until_hopen(make_cluster):
    cluster = make_cluster(mxj=4, host_extra="EXIT_RATE: 2",
                           extra_params="  JOB_EXIT_RATE_DURATION: 1\n")
    for _ in range(3):
        jobid = cluster.submit("sleep 60")
        cluster.wait_stat(jobid, "RUN")
        assert cluster.run("bkill", str(jobid)).rc == 0
        cluster.wait_stat(jobid, "EXIT")
    _exits(cluster, 2)
    assert _status(cluster) == "ok"     # 3 killed + 2 exits: still open
    cluster.kill_controller()
    cluster.start()
    _exits(cluster, 1)
    wait_for(lambda: _status(cluster) == "closed_Adm", timeout=10,
             what="the host closed by its exit rate")
    cluster.wait_lsb_records("lsb.events", "HOST_CTRL", until=lambda r: any(
        "JOB EXIT THRESHOLD EXCEEDED" in " ".join(w) for w in r))
    r = cluster.run("bhosts", "-l", HOST)
    assert r.rc == 0, r
    assert ' ADMIN ACTION COMMENT: "eadmin: JOB EXIT THRESHOLD EXCEEDED"' \
        in r.out.splitlines()
    block = r.out[r.out.index(" THRESHOLD AND LOAD USED FOR EXCEPTIONS:"):]
    assert block.splitlines()[1:4] == [
        "            JOB_EXIT_RATE", " Threshold           2.00",
        " Load                3.00"]
    cluster.kill_controller()           # the close and its comment stay
    cluster.start(wait_hosts=False)
    wait_for(lambda: ' ADMIN ACTION COMMENT: "eadmin: JOB EXIT THRESHOLD '
             'EXCEEDED"' in cluster.run("bhosts", "-l", HOST).out and
             _status(cluster) == "closed_Adm",
             what="the host still closed, with its comment, after a restart")
    waiting = cluster.submit("sleep 30")
    wait_for(lambda: cluster.stat(waiting) == "PEND", what="a pending job")
    r = cluster.run("badmin", "hopen", HOST)
    assert (r.rc, r.err) == (0, f"Open <{HOST}> ...... done\n"), r
    cluster.wait_stat(waiting, "RUN")
    assert _status(cluster) == "ok"
    assert cluster.run("bkill", str(waiting)).rc == 0
