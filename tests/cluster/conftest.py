"""Fixtures for tests over real SSH between test hosts on this machine."""

import os

import pytest

from tests.cluster import hosts, users

N_HOSTS = 3
# Job owners on the hosts.  Namespace hosts copy /etc/passwd when they are
# built, so these exist first.  The pid in the name keeps test sessions that
# run at the same time from replacing each other's user (and its home).
HOST_USERS = [f"xcehu{os.getpid()}"]


@pytest.fixture(scope="session")
def ssh_hosts(tmp_path_factory):
    """Three hosts xh1..xh3 for the whole session.  Namespace hosts where
    possible; see HostSet.mode and HostSet.why_no_cut for the fallback.
    ``hs.users`` are test users (TestUser) that exist on every host."""
    reason = hosts.unavailable_reason()
    if reason:
        pytest.skip(reason)
    made = users.make_users(HOST_USERS) if os.geteuid() == 0 else []
    try:
        hs = hosts.build_hosts(N_HOSTS, tmp_path_factory.mktemp("hosts"),
                               users=[u.name for u in made])
        hs.users = made
        try:
            yield hs
        finally:
            hs.teardown()
    finally:
        users.remove_users([u.name for u in made])


@pytest.fixture
def needs_netns(ssh_hosts):
    """Skip a test that cuts links or needs per-host identity on loopback hosts."""
    if ssh_hosts.mode != "netns":
        pytest.skip(ssh_hosts.why_no_cut)
    return ssh_hosts
