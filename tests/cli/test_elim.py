"""Resources that hosts report through LSF_SERVERDIR's elims, end to end on
three virtual hosts: lsload -l shows them as extra columns, select[] runs
a job only where they hold (numeric, string and Boolean ones), order[]
sorts hosts by them; bad elims
(crashing, garbage, hanging, flooding) are logged, the agent keeps
reporting and jobs keep running."""

import os

import pytest

from tests.lib import elims
from tests.lib.xcecluster import wait_for

HOSTS = ["vh000", "vh001", "vh002"]
VALUES = {"vh000": "2 myres 7 os rhel8", "vh001": "2 myres 3 fast 1",
          "vh002": "2 myres 10 nosuch 1"}
RESOURCES = """\
resources:
  myres:
    TYPE: Numeric
    INTERVAL: 5
    INCREASING: 'N'
    DESCRIPTION: a value the site's elim reports
  os:
    TYPE: String
    INTERVAL: 5
    DESCRIPTION: the operating system release
  fast:
    TYPE: Boolean
    INTERVAL: 5
    DESCRIPTION: a flag the site's elim reports
  late:
    TYPE: Numeric
    INTERVAL: 5
    DESCRIPTION: reported by an elim added while the cluster runs
"""
BAD = {
    "elim.crash": '#!/bin/sh\necho "1 myres 99"\nexit 3\n',
    "elim.garbage": '#!/bin/sh\nwhile :; do echo "this is not it"; '
                    'echo "3 myres"; sleep 1; done\n',
    "elim.hang": '#!/bin/sh\nprintf "1 myres"\nexec sleep 3600\n',
    "elim.flood": "#!/bin/sh\nexec yes 1 myres 50\n",
}


def _serverdir(tmp_path, bad=False):
    return elims.serverdir(tmp_path / "serverdir",
                           {"elim.site": elims.READS_VALUES,
                            **(BAD if bad else {})}, VALUES)


def _cluster(make_cluster, serverdir):
    return make_cluster(virtual_hosts=HOSTS, mxj=2, extra=RESOURCES,
                        extra_params=elims.params(serverdir))


def _lsload_rows(cluster):
    r = cluster.run("lsload", "-l")
    assert (r.rc, r.err) == (0, ""), r
    head, *rows = r.out.splitlines()
    return head.split(), {row.split()[0]: row.split() for row in rows}


def _reported(cluster, expected):
    """Wait until lsload -l shows myres as EXPECTED {host: text}."""
    def shown():
        head, rows = _lsload_rows(cluster)
        if "myres" not in head:
            return False
        at = head.index("myres")
        got = {h: row[at] for h, row in rows.items() if len(row) > at}
        return got == expected and (head, rows)
    return wait_for(shown, timeout=40, what=f"lsload -l showing {expected}")


def _exec_host(cluster, jobid):
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.out.strip()


@pytest.fixture
def three(make_cluster, tmp_path):
    return _cluster(make_cluster, _serverdir(tmp_path))


def test_lsload_long_shows_what_the_elims_report(three):
    head, rows = _reported(three, {"vh000": "7.0", "vh001": "3.0",
                                   "vh002": "10.0"})
    # LSF's layout: the numeric external indices follow mem.
    assert head == ["HOST_NAME", "status", "r15s", "r1m", "r15m", "ut",
                    "pg", "ls", "io", "it", "tmp", "swp", "mem", "myres"]
    r = three.run("lsload")
    assert r.rc == 0 and "myres" not in r.out, r
    # An undefined resource is logged on the host and ignored.
    log = (three.spool / "agents" / "vh002" / "agent.log").read_text()
    assert "reports resource nosuch, which is not defined" in log
    assert "nosuch" not in three.run("lsload", "-l").out
    # bhosts -l: LSF's second block of the load, the external indices.
    r = three.run("bhosts", "-l", "vh002")
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    at = lines.index(" " * 12 + "  myres")
    assert lines[at + 1:at + 3] == [" Total         10.0",
                                    " Reserved       0.0"], r.out


def test_select_runs_only_where_the_reported_value_holds(three):
    _reported(three, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
    jobs = [three.submit("-R", "select[myres>5]", "sleep", "600")
            for _ in range(4)]
    for job in jobs:
        three.wait_stat(job, "RUN")
    assert sorted(_exec_host(three, j) for j in jobs) == [
        "vh000", "vh000", "vh002", "vh002"]
    # Their slots are wanted again (vh000 is full).
    for job in jobs:
        assert three.run("bkill", str(job)).rc == 0
    for job in jobs:
        three.wait_stat(job, "EXIT")
    # A string resource an elim reports.
    rhel = three.submit("-R", "select[os==rhel8]", "true")
    three.wait_stat(rhel, "DONE")
    assert _exec_host(three, rhel) == "vh000"
    # And a Boolean one (1: the host has it).
    fast = three.submit("-R", "select[fast]", "true")
    three.wait_stat(fast, "DONE")
    assert _exec_host(three, fast) == "vh001"
    # bhosts -R reads them too.
    r = three.run("bhosts", "-R", "select[myres>5]")
    assert r.rc == 0 and r.err == "", r
    assert [line.split()[0] for line in r.out.splitlines()[1:]] == [
        "vh000", "vh002"], r.out
    # No host reports that much: the job waits.
    big = three.submit("-R", "select[myres>50]", "true")
    r = three.run("bjobs", "-p", str(big))
    assert r.rc == 0 and "PEND" in r.out, r


def test_order_sorts_hosts_by_the_reported_value(three):
    _reported(three, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
    # INCREASING=N: more is better, so the largest value first; order[-]
    # reverses it.
    best = three.submit("-R", "order[myres]", "true")
    three.wait_stat(best, "DONE")
    assert _exec_host(three, best) == "vh002"
    least = three.submit("-R", "order[-myres]", "true")
    three.wait_stat(least, "DONE")
    assert _exec_host(three, least) == "vh001"


def test_bad_elims_are_logged_and_the_agent_keeps_working(
        make_cluster, tmp_path):
    cluster = _cluster(make_cluster, _serverdir(tmp_path, bad=True))
    log_path = cluster.spool / "agents" / "vh000" / "agent.log"

    def logged():
        log = log_path.read_text()
        return all(w in log for w in (
            "elim elim.crash ended (exit code 3)",
            "elim elim.garbage wrote not a load update string",
            "elim elim.flood (pid",
            "elim elim.hang: no complete load update string")) and log
    log = wait_for(logged, timeout=40, what="the bad elims logged")
    assert "killed: it wrote more than" in log
    # The good elim's values still arrive on every host (the crashed and
    # the killed elims' own values are gone), and jobs run.
    _reported(cluster, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
    job = cluster.submit("-R", "select[myres>1]", "true")
    cluster.wait_stat(job, "DONE")
    r = cluster.run("bhosts")
    assert r.rc == 0 and r.out.count(" ok ") == 3, r


def test_an_elim_added_at_reconfig_starts(three, tmp_path):
    _reported(three, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
    late = tmp_path / "serverdir" / "elim.late"
    late.write_text('#!/bin/sh\nwhile :; do echo "1 late 42"; sleep 1; '
                    'done\n')
    late.chmod(0o755)
    r = three.run("badmin", "reconfig")
    assert r.rc == 0, r

    def shown():
        head, rows = _lsload_rows(three)
        return "late" in head and all(
            row[head.index("late")] == "42.0" for row in rows.values())
    wait_for(shown, timeout=40, what="the new elim's values")


def _elim_pids(serverdir):
    """The running copies of the test's elim.site (by its path)."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if str(serverdir / "elim.site").encode() in argv:
            pids.append(int(pid))
    return pids


def test_a_restarted_agent_ends_its_elims_and_starts_them_again(
        three, tmp_path):
    _reported(three, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
    serverdir = tmp_path / "serverdir"
    before = _elim_pids(serverdir)
    assert len(before) == 3, before
    r = three.run("badmin", "hrestart", "vh000")
    assert r.rc == 0, r
    wait_for(lambda: len(_elim_pids(serverdir)) == 3 and
             set(_elim_pids(serverdir)) != set(before), timeout=40,
             what="vh000's elim ended and started again, once")
    _reported(three, {"vh000": "7.0", "vh001": "3.0", "vh002": "10.0"})
