"""busers shows, for a user without a row of its own, the MAX_JOBS and JL/P
that limit its slots: the tightest of the group@ rows of its groups or,
when none names it, the default row's (as the scheduler enforces)."""

from xce.client.cluster.users import busers_row


def _sec(users, groups):
    return {"users": users, "user_groups": groups}


def _cells(row):
    return row.split()[:3]


def test_a_user_without_a_row_shows_the_default_rows_limits():
    sec = _sec({"default": {"MAX_JOBS": 10, "JL/P": 2}}, {})
    assert _cells(busers_row("zed", sec, {}, False)) == ["zed", "2.0", "10"]


def test_a_group_at_row_is_each_members_and_the_tightest_shows():
    sec = _sec({"default": {"MAX_JOBS": 10}, "chem@": {"MAX_JOBS": 5},
                "phys@": {"MAX_JOBS": 7}},
               {"chem": {"members": ["carol", "dan"]}, "phys": ["carol"]})
    assert _cells(busers_row("carol", sec, {}, False)) == ["carol", "-", "5"]
    assert _cells(busers_row("erin", sec, {}, False)) == ["erin", "-", "10"]


def test_a_users_own_row_is_its_limit_and_nothing_set_shows_a_dash():
    sec = _sec({"default": {"MAX_JOBS": 10}, "alice": {"MAX_JOBS": 20}}, {})
    assert _cells(busers_row("alice", sec, {}, False)) == \
        ["alice", "-", "20"]
    assert _cells(busers_row("bob", _sec({}, {}), {}, False)) == \
        ["bob", "-", "-"]


def test_a_group_at_row_above_default_is_the_members_limit():
    """lsb.users(5): default is for each user not named; group@ names its
    members, so the default row does not cap them."""
    sec = _sec({"default": {"MAX_JOBS": 2, "JL/P": 1},
                "chem@": {"MAX_JOBS": 8}},
               {"chem": ["carol"]})
    assert _cells(busers_row("carol", sec, {}, False)) == ["carol", "-", "8"]
    assert _cells(busers_row("erin", sec, {}, False)) == ["erin", "1.0", "2"]
