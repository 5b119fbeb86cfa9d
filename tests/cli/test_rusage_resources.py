"""rusage[] of a site resource end to end: a host with one licence runs
one licence job at a time, the next waits with LSF's reason and starts
when the licence comes back; a resource no host offers is refused by bsub."""

import pytest


@pytest.fixture
def lic_cluster(make_cluster):
    return make_cluster(mxj=4, host_extra="resources: [lic=1]")


def test_one_licence_one_job_at_a_time(lic_cluster):
    c = lic_cluster
    first = c.submit("-R", "rusage[lic=1]", "sleep 2")
    second = c.submit("-R", "rusage[lic=1]", "true")
    c.wait_stat(first, "RUN")
    c.wait_stat(second, "PEND")
    r = c.run("bjobs", "-l", str(second))
    assert r.rc == 0 and r.err == ""
    assert "Job's requirements for reserving resource (lic) not satisfied" \
        in " ".join(r.joined.split())
    c.wait_stat(first, "DONE")
    c.wait_stat(second, "DONE")


@pytest.mark.parametrize("rr, message", [
    ("rusage[nolic=1]", "nolic: Bad resource name. Job not submitted.\n"),
    ("rusage[mem=1 || nolic=1]",
     "nolic: Bad resource name. Job not submitted.\n"),
])
def test_reserving_what_no_host_offers_is_refused(lic_cluster, rr, message):
    r = lic_cluster.run("bsub", "-R", rr, "true")
    assert (r.rc, r.out, r.err) == (255, "", message)
    r = lic_cluster.run("bjobs", "-a")
    assert r.rc == 0
    assert "No job found" in r.err or r.out.count("\n") <= 1
