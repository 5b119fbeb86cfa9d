"""A gang of four over four real SSH hosts (network namespaces where
possible): the members start together, one on each host, and each runs
on the host the store names."""

import pytest

from tests.cluster import hosts
from tests.lib.xcecluster import shared_cluster, wait_for

GANG = "/ring"


@pytest.fixture(scope="module")
def four_hosts(tmp_path_factory):
    reason = hosts.unavailable_reason()
    if reason:
        pytest.skip(reason)
    with hosts.build_hosts(4, tmp_path_factory.mktemp("gang"),
                           names=[f"gx{i}" for i in range(1, 5)]) as hs:
        yield hs


def test_a_gang_of_four_starts_on_four_ssh_hosts_at_once(four_hosts,
                                                         tmp_path):
    with shared_cluster("xcegang-", ssh_hosts=four_hosts, mxj=1) as c:
        assert c.run("bgadd", GANG).rc == 0
        assert c.run("xce", "gang", "set", GANG, "--size", "4").rc == 0
        # Three members first: nothing starts while the gang is short.
        members = [c.submit("-g", GANG, "-o", f"{tmp_path}/%J",
                            "hostname; sleep 1") for _ in range(3)]
        wait_for(lambda: "3 of 4 members ready" in " ".join(
            c.run("bjobs", "-l", str(members[0])).joined.split()),
            timeout=20, what="the gang's reason")
        assert [c.stat(j) for j in members] == ["PEND"] * 3
        members.append(c.submit("-g", GANG, "-o", f"{tmp_path}/%J",
                                "hostname; sleep 1"))
        for jobid in members:
            c.wait_stat(jobid, "DONE", timeout=60)
        rows = [c.stored_job(j) for j in members]
        assert sorted(r["exec_hosts"] for r in rows) == sorted(
            four_hosts.hosts)
        if four_hosts.mode == "netns":
            for r in rows:
                ran = (tmp_path / str(r["jobid"])).read_text().split()[0]
                assert ran == r["exec_hosts"]
