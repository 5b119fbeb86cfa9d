"""select[] and order[] over the load indices the agents report (lsload):
a job whose requirement the host's load meets runs, one no load can meet
pends naming the host."""

import socket

from tests.lib.xcecluster import wait_for


def _pend(cluster, jobid, *args):
    r = cluster.run("bjobs", *args, "-p", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.out


def test_select_and_order_over_load_indices_run(cluster):
    jobid = cluster.submit("-R", "select[r1m<1000 && ut<=1 && it>=0] "
                           "order[r15s:pg]", "true")
    cluster.wait_stat(jobid, "DONE")
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    assert (r.rc, r.out.strip(), r.err) == (0, socket.gethostname(), ""), r


def test_select_no_load_can_meet_pends_naming_the_host(cluster):
    # ut is a fraction: never above 2.
    jobid = cluster.submit("-R", "select[ut>2]", "true")
    wait_for(lambda: " Job's resource requirements not satisfied: 1 host;"
             in _pend(cluster, jobid), what="the select[] pend reason")
    assert cluster.stat(jobid) == "PEND"
    out = _pend(cluster, jobid, "-p3")
    assert " Non-candidate host pending reasons (1 of 1 hosts):\n" \
        "   Job's resource requirements not satisfied: 1 host;" in out, out
    # -l names the host.
    out = " ".join(_pend(cluster, jobid, "-l").split())
    assert (f"Job's resource requirements not satisfied: "
            f"{socket.gethostname()};") in out, out
    r = cluster.run("bkill", str(jobid))
    assert r.rc == 0, r
