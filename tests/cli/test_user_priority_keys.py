"""Keys a migrated LSF site carries, acting on a live cluster: lsb.users
JL/P, lsb.params MAX_USER_PRIORITY (bsub/bmod -sp) and
JOB_PRIORITY_OVER_TIME."""

import os

import pytest

from tests.lib.xcecluster import wait_for

NOBODY = "65534"


def _pends_with(cluster, jobid, text):
    wait_for(lambda: text in cluster.run("bjobs", "-p", str(jobid)).out,
             what=f"pend reason {text!r} for job {jobid}")
    assert cluster.stat(jobid) == "PEND"


def test_jl_p_caps_a_users_slots_per_cpu_of_the_host(make_cluster):
    # 4 slots, 2 CPUs, JL/P 0.5: one slot of the user's on the host.
    cluster = make_cluster(mxj=4, host_extra="ncpus: 2",
                           extra="users:\n  root:\n    JL/P: 0.5\n")
    first = cluster.submit("sleep 60")
    cluster.wait_stat(first, "RUN")
    second = cluster.submit("sleep 60")
    _pends_with(cluster, second, "User's per-CPU job slot limit reached")
    r = cluster.run("busers")
    assert r.rc == 0 and "0.5" in r.out.splitlines()[1], r
    cluster.run("bkill", str(first))
    cluster.wait_stat(second, "RUN")


def test_sp_without_max_user_priority_is_refused(cluster):
    r = cluster.run("bsub", "-sp", "5", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == "Job priority control undefined. Job not submitted.\n"
    held = cluster.submit("-H", "true")
    r = cluster.run("bmod", "-sp", "5", str(held))
    assert r.rc != 0 and "Job priority control undefined" in r.err, r
    assert "Job Priority" not in cluster.long(held)
    cluster.run("bkill", str(held))


@pytest.mark.skipif(os.geteuid() != 0, reason="submitting as another user "
                    "needs root")
def test_max_user_priority_bounds_sp_and_orders_the_queue(open_cluster):
    cluster = open_cluster(mxj=1, extra_params="  MAX_USER_PRIORITY: 10\n")
    r = cluster.run("bsub", "-sp", "11", "true", user=NOBODY)
    assert (r.rc, r.out) == (255, "")
    assert r.err == "Bad user priority. Job not submitted.\n"
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    plain = cluster.submit("sleep 60")                  # 10 / 2 = 5
    low = _submit_as_nobody(cluster, "-sp", "3")
    high = cluster.submit("-sp", "20", "sleep 60")      # root: above 10
    assert "Job Priority <5>" in cluster.long(plain)
    r = cluster.run("bmod", "-sp", "11", str(low), user=NOBODY)
    assert r.rc != 0 and "Bad user priority" in r.err, r
    assert cluster.run("bmod", "-sp", "6", str(low), user=NOBODY).rc == 0
    wait_for(lambda: "Job Priority <6>" in
             cluster.long(low), what="bmod -sp 6")
    # Highest first: root's 20, then nobody's 6, then the default 5.
    for ended, following in ((blocker, high), (high, low)):
        cluster.run("bkill", str(ended))
        cluster.wait_stat(following, "RUN")
        assert cluster.stat(plain) == "PEND"
    cluster.run("bkill", str(low), str(plain))


def _submit_as_nobody(cluster, *argv):
    r = cluster.run("bsub", *argv, "sleep 60", user=NOBODY)
    assert r.rc == 0, r
    return int(r.out.split("<")[1].split(">")[0])
