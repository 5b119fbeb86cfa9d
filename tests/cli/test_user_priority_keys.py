"""Keys a migrated LSF site carries, acting on a live cluster: lsb.users
JL/P, lsb.params MAX_USER_PRIORITY (bsub/bmod -sp) and
JOB_PRIORITY_OVER_TIME."""

from tests.lib.xcecluster import wait_for


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
