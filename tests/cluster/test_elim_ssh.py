"""Elims on hosts reached over SSH: each agent runs LSF_SERVERDIR's elims
on its own host, lsload -l shows what they report, select[] and order[]
place jobs by it, and a crashing elim beside them stops nothing."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.lib.xcecluster import shared_cluster, wait_for

HOSTS = ("xh1", "xh2", "xh3")
VALUES = {"xh1": 7, "xh2": 3, "xh3": 10}
RESOURCES = """\
resources:
  myres:
    TYPE: Numeric
    INTERVAL: 5
    INCREASING: 'N'
    DESCRIPTION: a value the site's elim reports
"""
# The host's own name (each test host has its own), and XCE_HOST agrees.
GOOD = """#!/bin/sh
d=$(dirname "$0")
[ "$(hostname)" = "$XCE_HOST" ] || exit 1
while :; do cat "$d/values.$(hostname)" || exit 1; sleep 1; done
"""
CRASH = '#!/bin/sh\necho "1 myres 99"\nexit 3\n'


@pytest.fixture(scope="module")
def user(ssh_hosts):
    if ssh_hosts.mode != "netns":
        pytest.skip("elims read their host's own name: " +
                    str(ssh_hosts.why_no_cut))
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    return ssh_hosts.users[0]


@pytest.fixture(scope="module")
def clu(ssh_hosts, user):
    serverdir = Path(tempfile.mkdtemp(prefix="xceelimd-"))
    os.chmod(serverdir, 0o755)
    for name, text in (("elim.site", GOOD), ("elim.crash", CRASH)):
        (serverdir / name).write_text(text)
        (serverdir / name).chmod(0o755)
    for host, value in VALUES.items():
        (serverdir / f"values.{host}").write_text(f"1 myres {value}\n")
    try:
        with shared_cluster("xceelim-", ssh_hosts=ssh_hosts, mxj=2,
                            extra=RESOURCES,
                            extra_params=f"  LSF_SERVERDIR: {serverdir}") \
                as c:
            yield c
    finally:
        shutil.rmtree(serverdir, ignore_errors=True)


def _myres(clu):
    r = clu.run("lsload", "-l")
    assert (r.rc, r.err) == (0, ""), r
    head, *rows = [line.split() for line in r.out.splitlines()]
    if "myres" not in head:
        return {}
    at = head.index("myres")
    return {row[0]: row[at] for row in rows if len(row) > at}


def _run(clu, user, *opts):
    r = clu.run("bsub", "-o", "/dev/null", *opts, "true",
                user=user.name, cwd=user.home)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    clu.wait_stat(jobid, "DONE", timeout=40)
    r = clu.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    assert r.rc == 0, r
    return r.out.strip()


def test_each_host_reports_its_own_values(clu):
    wait_for(lambda: _myres(clu) == {"xh1": "7.0", "xh2": "3.0",
                                     "xh3": "10.0"},
             timeout=60, what="lsload -l showing every host's myres")


def test_select_and_order_place_jobs_by_the_reported_value(clu, user):
    wait_for(lambda: len(_myres(clu)) == 3, timeout=60, what="myres")
    assert _run(clu, user, "-R", "select[myres<5]") == "xh2"
    assert _run(clu, user, "-R", "order[myres]") == "xh3"
    assert _run(clu, user, "-R", "select[myres>5] order[-myres]") == "xh1"


def test_a_crashing_elim_is_logged_and_the_agents_keep_reporting(clu):
    def logged():
        found = []
        for host in HOSTS:
            log = clu.spool / "hosts" / host / "agents" / host / "agent.log"
            text = log.read_text() if log.exists() else ""
            found.append("elim elim.crash ended (exit code 3)" in text)
        return all(found)
    wait_for(logged, timeout=60, what="every agent logging the crash")
    wait_for(lambda: _myres(clu) == {"xh1": "7.0", "xh2": "3.0",
                                     "xh3": "10.0"},
             timeout=60, what="the good values, not the crashed elim's")
