"""bhosts -l's Reserved row: what the running jobs' rusage[] holds on
each host now (LSF: "Use bhosts -l to show the amount of resources
reserved on each host"), after duration and decay, and per task with
RESOURCE_RESERVE_PER_TASK=Y."""

from tests.lib.xcecluster import virtual_names, wait_for

MEM = 10   # the mem column of the load rows (after name and 10 indices)


def _reserved_mem(cluster, host):
    r = cluster.run("bhosts", "-l", host)
    assert r.rc == 0 and r.err == "", r
    row = next(line for line in r.out.splitlines()
               if line.startswith(" Reserved"))
    return row.split()[1 + MEM]


def test_reserved_row_shows_rusage_mem_held_on_each_host(make_cluster):
    hosts = virtual_names(3)
    cluster = make_cluster(virtual_hosts=hosts, mxj=4, start=False)
    cluster.start(timeout=60)
    a = cluster.submit("-m", hosts[0], "-o", "/dev/null",
                       "-R", "rusage[mem=500]", "sleep 60")
    # One reservation per host for a job of two slots there (not per task).
    b = cluster.submit("-m", hosts[1], "-n", "2", "-o", "/dev/null",
                       "-R", "rusage[mem=100:duration=1h]", "sleep 60")
    # Gone after its duration.
    c = cluster.submit("-m", hosts[1], "-o", "/dev/null",
                       "-R", "rusage[mem=200:duration=1s]", "sleep 60")
    for job in (a, b, c):
        cluster.wait_stat(job, "RUN")
    assert _reserved_mem(cluster, hosts[0]) == "500M"
    wait_for(lambda: _reserved_mem(cluster, hosts[1]) == "100M",
             what="the 1s reservation to lapse")
    assert _reserved_mem(cluster, hosts[2]) == "0M"
    cluster.run("bkill", str(a))
    cluster.wait_stat(a, "EXIT")
    assert _reserved_mem(cluster, hosts[0]) == "0M"


def test_reserved_row_per_task(make_cluster):
    hosts = virtual_names(1)
    cluster = make_cluster(virtual_hosts=hosts, mxj=4, start=False,
                           extra_params="  RESOURCE_RESERVE_PER_TASK: Y")
    cluster.start(timeout=60)
    job = cluster.submit("-n", "3", "-o", "/dev/null",
                         "-R", "rusage[mem=100]", "sleep 60")
    cluster.wait_stat(job, "RUN")
    assert _reserved_mem(cluster, hosts[0]) == "300M"
