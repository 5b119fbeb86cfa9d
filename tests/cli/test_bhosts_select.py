"""bhosts -R: hosts filtered by a select[] expression, through a real
cluster."""

import socket

import pytest

HOST = socket.gethostname()
HEADER = ("HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  "
          "USUSP    RSV")


@pytest.fixture
def tagged(make_cluster):
    """One host with two slots and the resources bigmem and os=rhel8."""
    return make_cluster(mxj=2, host_extra="resources: [bigmem, os=rhel8]")


@pytest.mark.parametrize("res_req", [
    "select[bigmem]", "bigmem && maxslots >= 2", f"select[hname == {HOST}]",
    "select[os == rhel8] order[r15s]", "select[defined(bigmem)]",
])
def test_hosts_that_satisfy_the_select_are_listed(tagged, res_req):
    r = tagged.run("bhosts", "-R", res_req)
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    assert lines[0] == HEADER and len(lines) == 2
    assert lines[1].startswith(HOST[:18])


@pytest.mark.parametrize("res_req", [
    "select[!bigmem]", "select[maxslots > 2]", "select[os == sles]",
    "select[nosuchthing]",
])
def test_no_qualifying_host_is_an_error(tagged, res_req):
    r = tagged.run("bhosts", "-R", res_req)
    assert (r.rc, r.out, r.err) == (
        255, "", "Not enough host(s) currently eligible\n")


def test_bad_syntax_and_the_other_layouts(tagged):
    r = tagged.run("bhosts", "-R", "select[(bigmem]")
    assert (r.rc, r.out, r.err) == (
        255, "", "Bad resource requirement syntax\n")
    r = tagged.run("bhosts", "-w", "-R", "select[bigmem]")
    assert r.rc == 0 and r.out.splitlines()[1].split()[0] == HOST
    r = tagged.run("bhosts", "-l", "-R", "select[bigmem]")
    assert r.rc == 0 and r.out.startswith(f"HOST  {HOST}\n"), r
    # the daemon is still there after a bad request
    assert tagged.run("bhosts").rc == 0
