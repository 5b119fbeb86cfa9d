"""rusage[] of resources whose values elims report, end to end on two
virtual hosts: a shared resource (ResourceMap [all]) whose value the
elim of the licence-server host reports is shown by bhosts -s and
lsload -s and reserved by rusage[] against that value, never overbooked
between the elim's reports; a select[] on a host's reported value lets a
job start once the elim reports enough; an elim writing garbage for the
shared resource is logged, the resource has no value, and the agent goes
on."""

import time

import pytest

from tests.lib import elims
from tests.lib.xcecluster import wait_for

HOSTS = ["vh000", "vh001"]
RESOURCES = """\
resources:
  licfree:
    TYPE: Numeric
    INTERVAL: 2
    LOCATION: "[all]"
    DESCRIPTION: free licences the licence server has
  scratch:
    TYPE: Numeric
    INTERVAL: 2
    DESCRIPTION: free scratch space an elim measures
"""
RESERVE = "Job's requirements for reserving resource (licfree) not satisfied"


@pytest.fixture
def two(make_cluster, tmp_path):
    d = elims.serverdir(tmp_path / "serverdir",
                        {"elim.site": elims.READS_VALUES},
                        {"vh000": "1 licfree 2", "vh001": "1 scratch 0"})
    c = make_cluster(virtual_hosts=HOSTS, mxj=4, extra=RESOURCES,
                     extra_params=elims.params(d))
    c.serverdir = d
    return c


def _shared_row(cluster, command):
    r = cluster.run(*command)
    assert (r.rc, r.err) == (0, ""), r
    rows = [line.split() for line in r.out.splitlines()[1:]]
    found = [row for row in rows if row and row[0] == "licfree"]
    return found[0] if found else None


def _pend_reasons(cluster, jobid):
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r.rc == 0, r
    return r.out


def test_licences_an_elim_reports_are_reserved_not_overbooked(two):
    wait_for(lambda: _shared_row(two, ("bhosts", "-s")) ==
             ["licfree", "2", "0.0", "vh000", "vh001"], timeout=30,
             what="bhosts -s showing the licences vh000's elim reports")
    assert _shared_row(two, ("lsload", "-s")) == [
        "licfree", "2", "vh000", "vh001"]
    # lshosts -s lists static resources only, as LSF's.
    assert _shared_row(two, ("lshosts", "-s")) is None
    jobs = [two.submit("-R", "rusage[licfree=1]", "sleep", "600")
            for _ in range(3)]
    two.wait_stat(jobs[0], "RUN")
    two.wait_stat(jobs[1], "RUN")
    wait_for(lambda: RESERVE in _pend_reasons(two, jobs[2]), timeout=30,
             what="the third job waiting for a licence")
    assert _shared_row(two, ("bhosts", "-s"))[1:3] == ["0", "2.0"]
    # The elim now counts licences the jobs checked out: lsload -s shows
    # what it reports, and the reservations (for the jobs' lives) stay
    # held against it, so the third job keeps waiting.
    elims.report(two.serverdir, "vh000", "1 licfree 1")
    wait_for(lambda: _shared_row(two, ("lsload", "-s"))[1] == "1",
             timeout=30, what="lsload -s showing one licence free")
    assert two.stat(jobs[2]) == "PEND"
    # A job ends and gives its licence back: the third starts.
    assert two.run("bkill", str(jobs[0])).rc == 0
    elims.report(two.serverdir, "vh000", "1 licfree 2")
    two.wait_stat(jobs[2], "RUN")
    for job in jobs[1:]:
        assert two.run("bkill", str(job)).rc == 0


def test_a_job_starts_once_the_elim_reports_enough(two):
    job = two.submit("-R", "select[scratch>5]", "true")
    wait_for(lambda: "resource requirements" in _pend_reasons(two, job),
             timeout=30, what="the job waiting for scratch space")
    reported = time.time()
    elims.report(two.serverdir, "vh001", "1 scratch 10")
    # INTERVAL 2: the agent reports the change within seconds, not at its
    # next 15 s load report.  Timed to the job's start in the store: its
    # end and the polling of bjobs, slow on a loaded machine, do not count.
    two.wait_stat(job, "DONE")
    assert two.stored_job(job)["start_time"] - reported < 15
    r = two.run("bjobs", "-noheader", "-o", "exec_host", str(job))
    assert r.out.strip() == "vh001", r


def test_garbage_for_the_shared_resource_is_logged_and_the_agent_goes_on(
        two):
    # vh001's scratch space is reported from the start: the job that
    # needs it below then starts at its submission's own pass, not at a
    # load-driven one.
    elims.report(two.serverdir, "vh001", "1 scratch 10")
    wait_for(lambda: _shared_row(two, ("bhosts", "-s")) is not None,
             timeout=30, what="the licences reported")
    elims.report(two.serverdir, "vh000", "1 licfree lots")
    log = two.spool / "agents" / "vh000" / "agent.log"
    wait_for(lambda: "licfree: 'lots' is not a Numeric value" in
             log.read_text(), timeout=30, what="the garbage logged")
    # The other agent's values still count, and this agent runs jobs.
    job = two.submit("-R", "select[scratch>5]", "true")
    two.wait_stat(job, "DONE", timeout=20)
    ran = two.submit("-m", "vh000", "true")
    two.wait_stat(ran, "DONE")
    # Good values again: the licences are reserved as before.
    elims.report(two.serverdir, "vh000", "1 licfree 1")
    lic = two.submit("-R", "rusage[licfree=1]", "sleep", "600")
    two.wait_stat(lic, "RUN")
    assert two.run("bkill", str(lic)).rc == 0
