"""bjobs -p0..-p3 (how much of the pending reasons to show) and -UF (the
long format without wrapping), through a real cluster."""

import re

from tests.lib.xcecluster import blocked


def test_bjobs_pending_levels(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    r0 = cluster.run("bjobs", "-p0", str(jobid))
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r0.out == r.out and r.rc == 0
    r1 = cluster.run("bjobs", "-p1", str(jobid))
    assert len(r1.out.splitlines()) == 4        # header, job, reason, blank
    r2 = cluster.run("bjobs", "-p2", str(jobid))
    assert " Candidate host pending reasons (1 of 1 hosts):" in r2.out
    assert re.search(r"^   Not enough job slot\(s\): 1 host;$", r2.out, re.M)
    assert " Non-candidate host pending reasons (0 of 1 hosts)." in r2.out
    r3 = cluster.run("bjobs", "-p3", str(jobid))
    assert re.search(r"^   Not enough job slot\(s\): \S+;$", r3.out, re.M)
    # LSB_BJOBS_PENDREASON_LEVEL is -p's level when none is given.
    level = {"LSB_BJOBS_PENDREASON_LEVEL": "2"}
    assert cluster.run("bjobs", "-p", str(jobid), env=level).out == r2.out
    assert cluster.run("bjobs", "-p1", str(jobid), env=level).out == r1.out


def test_bjobs_UF_is_long_format_without_wrapping(cluster):
    # Held, so that nothing about it changes between the two reads (a job
    # starting in between, or its run time ticking, made this flaky).
    jobid = cluster.submit("-H", "-J", "x" * 100, "sleep 30")
    long = cluster.run("bjobs", "-l", str(jobid)).joined
    uf = cluster.run("bjobs", "-UF", str(jobid))
    assert uf.rc == 0
    assert uf.out == long
    assert "x" * 100 in uf.out.splitlines()[1]
