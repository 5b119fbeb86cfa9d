"""A queue's USERS and HOSTS as bqueues -l shows them
(xce.config.lsf.hostnames.as_shown)."""

import pytest

from xce.config.lsf import hostnames

GROUPS = {"devs": ["alice", "bob"], "nodes": ["node001"]}


@pytest.mark.parametrize("value, shown", [
    ("devs ~bob", ["devs/", "~bob"]),
    ("nodes+2 hostA", ["nodes/+2", "hostA"]),
    (["all", "~nodes"], ["all", "~nodes/"]),
    ("others+1 hostB+3", ["others+1", "hostB+3"]),
    (None, []),
])
def test_groups_are_followed_by_a_slash(value, shown):
    assert hostnames.as_shown(value, GROUPS) == shown
