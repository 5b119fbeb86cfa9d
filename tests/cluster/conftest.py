"""Fixtures for tests over real SSH between test hosts on this machine."""

import pytest

from tests.cluster import hosts

N_HOSTS = 3


@pytest.fixture(scope="session")
def ssh_hosts(tmp_path_factory):
    """Three hosts xh1..xh3 for the whole session.  Namespace hosts where
    possible; see HostSet.mode and HostSet.why_no_cut for the fallback."""
    reason = hosts.unavailable_reason()
    if reason:
        pytest.skip(reason)
    hs = hosts.build_hosts(N_HOSTS, tmp_path_factory.mktemp("hosts"))
    try:
        yield hs
    finally:
        hs.teardown()


@pytest.fixture
def needs_netns(ssh_hosts):
    """Skip a test that cuts links or needs per-host identity on loopback hosts."""
    if ssh_hosts.mode != "netns":
        pytest.skip(ssh_hosts.why_no_cut)
    return ssh_hosts
