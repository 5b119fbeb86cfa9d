"""The rusage `||` alternative a job started with is what it holds, also
after a controller restart (not the first alternative again)."""

HOST_MEM = "maxmem: 100000"         # KB, as LSF_UNIT_FOR_LIMITS says


def test_the_alternative_taken_survives_a_controller_restart(make_cluster):
    cluster = make_cluster(mxj=4, host_extra=HOST_MEM)
    blocker = cluster.submit("-R", "rusage[mem=50000]", "sleep 120")
    cluster.wait_stat(blocker, "RUN")
    # 80000 does not fit beside the blocker: the second alternative does.
    job = cluster.submit("-R", "rusage[mem=80000 || mem=30000]", "sleep 120")
    cluster.wait_stat(job, "RUN")
    cluster.kill_controller()
    cluster.start()
    # 20000 KB are left only if the job still holds 30000, not 80000.
    small = cluster.submit("-R", "rusage[mem=15000]", "true")
    cluster.wait_stat(small, "DONE")
    big = cluster.submit("-R", "rusage[mem=25000]", "true")
    cluster.wait_stat(big, "PEND")
    r = cluster.run("bjobs", "-p", "-noheader", str(big))
    assert "Job requirements for reserving resource (mem) not satisfied" \
        in r.out, r
