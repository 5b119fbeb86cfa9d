"""HOSTLIMIT_PER_JOB end to end: a queue limited to 2 hosts on a cluster
of 4 virtual hosts of 2 slots each, through bsub, bjobs and badmin."""

import re

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import virtual_names, wait_for

from xce.scheduler.views import R_HOST_LIMIT

QUEUE = """\
  two:
    PRIORITY: 20
    HOSTLIMIT_PER_JOB: 2
"""


def _cluster(make_cluster):
    cluster = make_cluster(virtual_hosts=virtual_names(4), mxj=2,
                           extra_queues=QUEUE, start=False)
    return cluster.start(timeout=60)


def _until_file(cluster, name):
    """A job command that runs until the test creates file NAME."""
    path = cluster.root / name
    return f"while [ ! -e {path} ]; do sleep 0.1; done"


def _hosts_of(cluster, jobid):
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return {part.split("*")[-1] for part in r.out.split()[0].split(":")}


def test_a_limited_job_spreads_over_at_most_two_hosts(make_cluster):
    cluster = _cluster(make_cluster)
    go = _until_file(cluster, "go")
    four = cluster.submit("-q", "two", "-n", "4", go)
    cluster.wait_stat(four, "RUN")
    assert len(_hosts_of(cluster, four)) == 2
    # -n 2,8: as many slots as two hosts hold, never a third host.
    wide = cluster.submit("-q", "two", "-n", "2,8", go)
    cluster.wait_stat(wide, "RUN")
    hosts = _hosts_of(cluster, wide)
    assert len(hosts) == 2 and not hosts & _hosts_of(cluster, four)
    (cluster.root / "go").touch()
    cluster.wait_stat(four, "DONE")
    cluster.wait_stat(wide, "DONE")


def test_a_job_needing_three_hosts_pends_with_the_reason(make_cluster):
    cluster = _cluster(make_cluster)
    six = cluster.submit("-q", "two", "-n", "6", "true")
    wait_for(lambda: R_HOST_LIMIT in cluster.run(
        "bjobs", "-p", str(six)).out, what="the host limit reason")
    r = cluster.run("bjobs", "-p", str(six))
    assert r.rc == 0 and r.err == "", r
    assert re.search(rf"^ {re.escape(R_HOST_LIMIT)};$", r.out, re.M), r.out
    assert cluster.stat(six) == "PEND"
    # The same job in a queue without the limit starts at once.
    r = cluster.run("bswitch", "normal", str(six))
    assert r.rc == 0, r
    cluster.wait_stat(six, "DONE")


def test_a_ptile_job_needing_too_many_hosts_is_refused_at_submit(
        make_cluster):
    cluster = _cluster(make_cluster)
    r = cluster.run("bsub", "-q", "two", "-n", "3", "-R", "span[ptile=1]",
                    "true")
    assert r.rc == 255 and r.out == "", r
    assert r.err == ("two: The number of hosts requested exceeds the "
                     "queue's per-job host limit. Job not submitted.\n"), r
    # Two hosts' worth of ptile=1 is accepted and runs on two hosts.
    ok = cluster.submit("-q", "two", "-n", "2", "-R", "span[ptile=1]", "true")
    cluster.wait_stat(ok, "DONE")


def test_bad_host_limit_is_refused_by_reconfig(make_cluster):
    cluster = _cluster(make_cluster)
    assert_reconfig_refuses(
        cluster, "HOSTLIMIT_PER_JOB: 2", "HOSTLIMIT_PER_JOB: 0",
        "HOSTLIMIT_PER_JOB: 0 is not a whole number above 0")
    # The controller runs on with the limit it had.
    four = cluster.submit("-q", "two", "-n", "4", "true")
    cluster.wait_stat(four, "DONE")
