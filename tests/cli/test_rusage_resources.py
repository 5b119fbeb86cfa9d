"""rusage[] of a site resource end to end: a host with one licence runs
one licence job at a time, the next waits with LSF's reason and starts
when the licence comes back; a resource no host offers is refused by bsub."""

import pytest

from tests.lib.xcecluster import wait_for


@pytest.fixture
def lic_cluster(make_cluster):
    return make_cluster(mxj=4, host_extra="resources: [lic=1]")


def test_one_licence_one_job_at_a_time(lic_cluster):
    c = lic_cluster
    # The first job holds its licence until the test is done looking,
    # not for a guessed two seconds.
    go = c.root / "lic.go"
    first = c.submit("-R", "rusage[lic=1]",
                     f"while [ ! -e {go} ]; do sleep 0.1; done")
    second = c.submit("-R", "rusage[lic=1]", "true")
    c.wait_stat(first, "RUN")

    def reason():
        r = c.run("bjobs", "-l", str(second))
        assert r.rc == 0 and r.err == "", r
        return "Job's requirements for reserving resource (lic) not " \
            "satisfied" in " ".join(r.joined.split())
    wait_for(reason, what="the second job waiting for the licence")
    assert c.stat(second) == "PEND"
    go.write_text("")
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
