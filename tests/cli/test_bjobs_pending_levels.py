"""bjobs -p0..-p3 (how much of the pending reasons to show) and -UF (the
long format without wrapping), through a real cluster."""

import re

from tests.lib.xcecluster import blocked, virtual_names, wait_for


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
    # -p2 is about the candidate hosts alone (IBM's bjobs -p2).
    assert "Non-candidate" not in r2.out
    r3 = cluster.run("bjobs", "-p3", str(jobid))
    assert r3.out.startswith(r2.out.rstrip("\n")), r3
    assert " Non-candidate host pending reasons (0 of 1 hosts)." in r3.out
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


def test_p2_shows_candidate_hosts_p3_both_with_counts_most_common_first(
        make_cluster):
    """IBM's bjobs -p2: the candidate hosts' reasons; -p3: candidate and
    non-candidate hosts; each with the number of hosts, the most common
    reason first."""
    names = virtual_names(3)
    cluster = make_cluster(virtual_hosts=names, mxj=1, start=False)
    cluster.start(timeout=60)
    blocker = cluster.submit("-m", names[1], "-o", "/dev/null", "sleep 60")
    cluster.wait_stat(blocker, "RUN")
    assert cluster.run("badmin", "hclose", names[0]).rc == 0
    one = cluster.submit("-m", names[0], "-o", "/dev/null", "true")
    two = cluster.submit("-m", f"{names[0]} {names[1]}", "-o", "/dev/null",
                         "true")
    cluster.wait_stat(one, "PEND")

    def reasons(level, job):
        r = cluster.run("bjobs", level, str(job))
        assert r.rc == 0 and r.err == "", r
        return r.out.splitlines()[2:]

    wait_for(lambda: "Closed" in " ".join(reasons("-p3", two)),
             what="the pass to give the closed host's reason")
    assert reasons("-p2", one) == [
        " Candidate host pending reasons (0 of 3 hosts).", ""]
    assert reasons("-p3", one) == [
        " Candidate host pending reasons (0 of 3 hosts).", "",
        " Non-candidate host pending reasons (3 of 3 hosts):",
        "   Not specified in job submission: 2 hosts;",
        "   Closed by LSF administrator: 1 host;", ""]
    assert reasons("-p2", two) == [
        " Candidate host pending reasons (1 of 3 hosts):",
        "   Not enough job slot(s): 1 host;", ""]
    # -p1: the asked host's reason, not the hosts left out by -m; the
    # candidate host's when there is one.
    assert reasons("-p1", one) == [" Closed by LSF administrator: 1 host;",
                                   ""]
    assert reasons("-p1", two) == [" Not enough job slot(s): 1 host;", ""]
    assert reasons("-p3", two)[:3] == reasons("-p2", two)[:2] + [""]
    assert sorted(reasons("-p3", two)[3:]) == sorted([
        " Non-candidate host pending reasons (2 of 3 hosts):",
        "   Closed by LSF administrator: 1 host;",
        "   Not specified in job submission: 1 host;", ""])
