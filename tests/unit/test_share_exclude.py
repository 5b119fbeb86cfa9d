"""bsub -G "~group ...": the accounts of a fairshare queue a job may be
charged to are its user's whose path passes through no excluded group
(xce.model.fairshare.Policy.candidates, xce.scheduler.share_order), and
how the option is read (xce.model.ugroupsel)."""

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xce.model import ugroupsel
from xce.model.fairshare import Policy, Usage, charged_path
from xce.scheduler.core import (QueueView, R_NO_SHARE_ACCOUNT,
                                schedule)
from xce.scheduler.share_order import Order

from tests.lib.builders import host, pending


def _two_paths():
    """LSF's example: userA's paths are /groupA/groupB/userA and
    /groupB/userA (groupB is a member of groupA and is at the top too)."""
    groups = {"groupA": ["userA", "userB"], "groupB": ["userA"]}
    members = {"groupA": ["groupB", "userB"], "groupB": ["userA"]}
    return Policy([("groupA", 1.0), ("groupB", 1.0)], groups,
                  group_shares={"groupA": [("groupB", 1.0),
                                           ("userB", 1.0)],
                                "groupB": [("userA", 1.0)]},
                  members=members)


def _job(n, user, excluded=None, group=None):
    return SimpleNamespace(id=n, user=user, user_group=group,
                           excluded_groups=excluded)


def _names(path):
    return tuple(name for name, _ in path)


def test_the_two_paths_of_LSFs_example():
    p = _two_paths()
    assert sorted(_names(s) for s in p.choices("userA")) == [
        ("groupA", "groupB", "userA"), ("groupB", "userA")]


def test_excluding_a_middle_node_leaves_the_other_path_to_the_group_below():
    p = _two_paths()
    assert [_names(s) for s in p.candidates("userA", ["groupA"])] == [
        ("groupB", "userA")]
    # groupB is on both paths: nothing is left.
    assert p.candidates("userA", ["groupB"]) == []


def test_a_job_excluding_groupA_waits_and_is_charged_through_groupB_only():
    p = _two_paths()
    # groupA is the less used: without exclusion its path would win.
    usage = {("userA", "groupB"): Usage(9.0, 0, 0)}
    job = _job(1, "userA", ("groupA",))
    order = Order(p, usage, {}, [job], {})
    assert list(order.jobs) == [("groupB", "userA")]
    assert [j.id for j in order] == [1]
    path = charged_path(p, "userA", {"share_group": job.share_group})
    assert path == ["groupB", "userA"]
    # The same job without exclusion goes through groupA.
    plain = _job(2, "userA")
    list(Order(p, usage, {}, [plain], {}))
    assert charged_path(p, "userA", {"share_group": plain.share_group}) \
        == ["groupA", "groupB", "userA"]


def test_a_job_with_no_account_left_comes_out_last_and_waits():
    p = _two_paths()
    none, other = _job(1, "userA", ("groupB",)), _job(2, "userB")
    order = Order(p, {}, {}, [none, other], {})
    assert [j.id for j in order] == [2, 1]
    assert none.share_none and none.share_group is None
    assert not other.share_none


def test_the_scheduler_gives_the_pend_reason_and_starts_the_others():
    q = QueueView("fair", 30, fairshare=_two_paths(), fair_slots={})
    jobs = [pending(1, user="userA", queue="fair",
                    excluded_groups=("groupB",)),
            pending(2, user="userA", queue="fair",
                    excluded_groups=("groupA",))]
    out = schedule([q], [host("h", 2, ncpus=2, maxmem=1000, mem=1000)],
                   jobs)
    assert [k[0] for k, _ in out.dispatch] == [2]
    assert jobs[1].share_group == "groupB"
    assert [text for text, _ in out.reasons[(1, 0)]] == [R_NO_SHARE_ACCOUNT]


_users = ["ann", "bob", "kim"]
_members = st.sets(st.sampled_from(_users + ["sub"]), min_size=1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_users),
                          st.sets(st.sampled_from(["eng", "ops", "sub"]))),
                min_size=1, max_size=20),
       st.lists(st.booleans(), min_size=20, max_size=20),
       _members, _members, st.sets(st.sampled_from(_users), min_size=1))
def test_no_job_is_ever_charged_through_an_excluded_group(
        asked, starts, eng, ops, sub):
    # sub may sit inside eng and ops and at the top: a user has up to
    # five paths, some through a middle node.
    direct = {"eng": sorted(eng), "ops": sorted(ops), "sub": sorted(sub)}
    expanded = {g: sorted(set().union(*(
        direct["sub"] if m == "sub" else [m] for m in ms)))
        for g, ms in direct.items()}
    shares = {"eng": [("default", 1.0)], "ops": [("sub", 2.0),
                                                 ("default", 1.0)],
              "sub": [("default", 1.0)]}
    policy = Policy([("eng", 2.0), ("ops", 1.0), ("sub", 1.0)], expanded,
                    group_shares=shares, members=direct)
    jobs = [_job(n, user, tuple(sorted(ex)) or None)
            for n, (user, ex) in enumerate(asked)]
    order = Order(policy, {}, {}, jobs, {})
    running = order.user_used
    seen = []
    for job in order:
        seen.append(job.id)
        if job.share_none:
            continue
        path = _names(policy.path(job.user, job.share_group))
        assert not set(path) & set(job.excluded_groups or ())
        assert policy.path(job.user, job.share_group) in \
            policy.choices(job.user)
        if starts[job.id]:
            running[job.user] = running.get(job.user, 0) + 1
    assert sorted(seen) == list(range(len(jobs)))
    for job in jobs:        # none left only when every path is excluded
        assert job.share_none == (
            bool(job.excluded_groups) and
            not policy.candidates(job.user, job.excluded_groups))


@pytest.mark.parametrize("value, parsed", [
    ("eng", ("eng", ())),
    ("~eng", (None, ("eng",))),
    ("~eng  ~ops ~eng", (None, ("eng", "ops"))),
])
def test_G_value_is_one_group_or_groups_with_tildes(value, parsed):
    assert ugroupsel.parse(value) == parsed


@pytest.mark.parametrize("value, key", [
    ("groupC ~groupD", "UGROUP_MIXED"),
    ("~groupD groupC", "UGROUP_MIXED"),
    ("eng ops", "BAD_UGROUP"),
    ("~", "BAD_UGROUP"),
    ("~~eng", "BAD_UGROUP"),
])
def test_G_value_mixing_forms_or_malformed_is_refused(value, key):
    with pytest.raises(ugroupsel.BadGroupOption) as e:
        ugroupsel.parse(value)
    assert e.value.key == key


def test_bjobs_shows_the_G_value_as_given():
    assert ugroupsel.shown({"user_group_exclude": ["a", "b"]}) == "~a ~b"
    assert ugroupsel.shown({"user_group": "eng"}) == "eng"
    assert ugroupsel.shown({}) == ""


class _Refused(Exception):
    pass


def _ctl():
    cfg = SimpleNamespace(user_groups={"big": ["ann", "kim"],
                                       "small": ["kim"],
                                       "outer": ["small"]})
    return SimpleNamespace(cfg=cfg, is_admin=lambda user: False)


@pytest.mark.parametrize("spec, message", [
    # A request that sends both fields (not bsub: it never does).
    ({"user_group": "big", "user_group_exclude": ["small"]},
     "~small big: A job cannot be both associated with a user group and "
     "excluded from user groups"),
    # A user_group holding tildes (an esub's LSB_SUB_USER_GROUP).
    ({"user_group": "big ~small"}, "big ~small: A job cannot be both "
     "associated with a user group and excluded from user groups"),
    ({"user_group_exclude": ["nosuch"]}, "~nosuch: Bad user group name"),
    ({"user_group_exclude": ["small"]},
     "~small: User not in the specified user group"),
])
def test_controller_refuses_what_bsub_refuses(spec, message):
    from xce.controller import ugroupcheck
    with pytest.raises(_Refused) as e:
        ugroupcheck.check(_ctl(), spec, "ann", _Refused)
    assert str(e.value) == message


def test_controller_reads_tildes_in_user_group_and_takes_a_middle_node():
    from xce.controller import ugroupcheck
    spec = {"user_group": "~outer ~small"}
    ugroupcheck.check(_ctl(), spec, "kim", _Refused)   # outer: via small
    assert spec == {"user_group_exclude": ["outer", "small"]}
