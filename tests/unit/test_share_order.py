"""Hierarchical fairshare in the scheduler: the dynamic priority of each
level of a queue's share tree from the use of its whole subtree, and the
dispatch order walking the tree from the top (xce.scheduler.share_order)."""

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xce.model.fairshare import Policy as fairshare_policy, Usage
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.share_order import Order

from tests.lib.builders import host, pending
from tests.unit.test_share_tree import _policy


# --------------------------------------------------------------- priorities
def _order(jobs, usage=None, running=None, policy=None):
    return Order(policy or _policy(), usage or {}, dict(running or {}), jobs)


def _job(n, user):
    return SimpleNamespace(id=n, user=user)


@pytest.mark.parametrize("usage, running, node, expected", [
    # LSF's formula at a group level, from the whole subtree's use:
    # 3 / ((1 + 0 slots) x 3) with nothing used.
    ({}, {}, ("eng",), 3 / 3.0),
    # ann and bob's run hours both count against eng.
    ({"ann": Usage(1.0, 0, 0), "bob": Usage(2.0, 0, 0)}, {}, ("eng",),
     3 / (3 * 0.7 + 3.0)),
    # their slots too: (1 + 3) x 3.
    ({}, {"ann": 1, "bob": 2}, ("eng",), 3 / 12.0),
    # below, each member only its own: 1 / (2 x 0.7 + (1 + 2) x 3).
    ({"ann": Usage(1.0, 0, 0), "bob": Usage(2.0, 0, 0)}, {"bob": 2},
     ("eng", "bob"), 1 / (2 * 0.7 + 9.0)),
    # CPU hours weigh with CPU_TIME_FACTOR.
    ({"carl": Usage(0, 0, 10.0)}, {}, ("ops",), 1 / (10 * 0.7 + 3.0)),
])
def test_priority_of_a_level_counts_its_whole_subtree(usage, running, node,
                                                       expected):
    jobs = [_job(1, "ann"), _job(2, "bob"), _job(3, "carl")]
    got = _order(jobs, usage, running).priorities()[node]
    assert got == pytest.approx(expected)


def test_descends_to_the_highest_priority_child_at_each_level():
    # eng's users have used a lot: ops goes first although eng has more
    # shares; within eng ann (2 shares) goes before bob (1).
    usage = {"ann": Usage(10.0, 0, 0), "bob": Usage(10.0, 0, 0)}
    jobs = [_job(1, "bob"), _job(2, "ann"), _job(3, "carl")]
    assert [j.id for j in _order(jobs, usage)] == [3, 2, 1]


def test_group_without_shares_of_its_own_runs_fcfs():
    jobs = [_job(1, "dora"), _job(2, "carl"), _job(3, "dora")]
    p = _policy([("ops", 1.0)])
    assert [j.id for j in _order(jobs, policy=p)] == [1, 2, 3]


def test_started_jobs_lower_the_priority_of_every_level_above():
    policy = _policy([("eng", 1.0), ("ops", 1.0)])
    jobs = [_job(n, u) for n, u in ((1, "ann"), (2, "ann"), (3, "bob"),
                                    (4, "carl"), (5, "carl"))]
    running = {}
    order = Order(policy, {}, running, jobs)
    seen = []
    for job in order:
        seen.append(job.id)
        running[job.user] = running.get(job.user, 0) + 1   # it started
    # eng and ops alternate (ties go by name); within eng ann (2 shares)
    # first, and with one slot she ties bob (1 share, none): by name again.
    assert seen == [1, 4, 2, 5, 3]


# ------------------------------------------------------------ property test
_users = st.sampled_from(["ann", "bob", "carl", "dora", "zed"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_users, min_size=1, max_size=30),
       st.dictionaries(_users, st.floats(0, 50), max_size=5))
def test_every_pending_job_comes_out_once_fcfs_within_each_account(
        users, hours):
    jobs = [_job(n, u) for n, u in enumerate(users)]
    usage = {u: Usage(h, 0, 0) for u, h in hours.items()}
    out = list(_order(jobs, usage))
    assert sorted(j.id for j in out) == list(range(len(jobs)))
    policy = _policy()
    for account in {policy.path(u) for u in users}:
        mine = [j.id for j in out if policy.path(j.user) == account]
        assert mine == sorted(mine)


@settings(max_examples=100, deadline=None)
@given(st.lists(_users, min_size=1, max_size=20))
def test_first_job_is_from_the_best_child_at_every_level(users):
    jobs = [_job(n, u) for n, u in enumerate(users)]
    order = _order(jobs)
    prio = order.priorities()
    first = next(iter(order))
    path = tuple(n for n, _ in _policy().path(first.user))
    for depth in range(1, len(path) + 1):
        here = path[:depth]
        rivals = [p for p in prio if len(p) == depth and p[:-1] == here[:-1]]
        best = max(prio[p] for p in rivals)
        assert prio[here] == best


# ---------------------------------------------------------- through schedule
def test_scheduler_follows_the_tree():
    q = QueueView("fair", 30, fairshare=_policy([("eng", 2.0),
                                                 ("ops", 1.0)]),
                  fair_usage={"ann": Usage(6.0, 0, 0)})
    jobs = [pending(n, user=u, queue="fair")
            for n, u in ((1, "ann"), (2, "bob"), (3, "carl"), (4, "carl"))]
    out = schedule([q], [host("h", 2, ncpus=2, maxmem=1000, mem=1000)], jobs)
    # ann's 6 hours weigh on eng: ops (1/3) before eng (2/7.2); once carl
    # holds a slot eng (2/7.2) beats ops (1/6), and inside eng bob (1/3)
    # beats ann (2/7.2).
    assert sorted(k[0] for k, _ in out.dispatch) == [2, 3]


# ------------------------------------------------------------------ bsub -G
def _gjob(n, user, group=None):
    return SimpleNamespace(id=n, user=user, user_group=group)


def _two_groups():
    from tests.unit.test_share_tree import TWO, TWO_SHARES
    return fairshare_policy([("eng", 1.0), ("ops", 1.0)], TWO,
                            group_shares=TWO_SHARES, members=TWO)


@pytest.mark.parametrize("usage, started, first", [
    # nothing used: eng and ops tie, eng by name: kim's -G eng job.
    ({}, {}, 1),
    # her use under -G eng weighs on eng only: ops (her -G ops job) first.
    ({("kim", "eng"): Usage(5.0, 0, 0)}, {}, 2),
    ({}, {("kim", "eng"): 2}, 2),
    # the same use under -G ops: eng first.
    ({("kim", "ops"): Usage(5.0, 0, 0)}, {("kim", "ops"): 1}, 1),
    # without -G her use is charged to eng, the first group listed.
    ({("kim", None): Usage(5.0, 0, 0)}, {}, 2),
])
def test_bsub_G_jobs_are_ordered_and_charged_in_their_group(usage, started,
                                                            first):
    jobs = [_gjob(1, "kim", "eng"), _gjob(2, "kim", "ops")]
    order = Order(_two_groups(), usage, {}, jobs, started)
    assert next(iter(order)).id == first


def test_bsub_G_job_lowers_its_own_group_as_it_starts():
    jobs = [_gjob(1, "kim", "eng"), _gjob(2, "kim", "eng"),
            _gjob(3, "kim", "ops"), _gjob(4, "carl")]
    running = {}
    seen = []
    for job in Order(_two_groups(), {}, running, jobs, {}):
        seen.append(job.id)
        running[job.user] = running.get(job.user, 0) + 1
    # eng and ops alternate: kim's -G ops job and carl's share ops, FCFS.
    assert seen == [1, 3, 2, 4]


def test_scheduler_charges_started_slots_by_group():
    q = QueueView("fair", 30, fairshare=_two_groups(),
                  fair_slots={("kim", "eng"): 3})
    jobs = [pending(1, user="kim", queue="fair", user_group="eng"),
            pending(2, user="kim", queue="fair", user_group="ops")]
    out = schedule([q], [host("h", 1, ncpus=1, maxmem=1000, mem=1000)],
                   jobs)
    assert [k[0] for k, _ in out.dispatch] == [2]


def test_scheduler_charges_one_users_jobs_to_two_accounts_in_one_pass():
    # The pass the controller and xce sim share: kim's two jobs without
    # -G on two slots start through eng, then ops (eng's slot makes ops
    # the higher), and each view keeps the account it started in.
    q = QueueView("fair", 30, fairshare=_two_groups(), fair_slots={})
    jobs = [pending(1, user="kim", queue="fair"),
            pending(2, user="kim", queue="fair")]
    out = schedule([q], [host("h", 2, ncpus=2, maxmem=1000, mem=1000)],
                   jobs)
    assert sorted(k[0] for k, _ in out.dispatch) == [1, 2]
    assert [j.share_group for j in jobs] == ["eng", "ops"]


# ------------------------------------- without -G: the highest priority account
@pytest.mark.parametrize("usage, started, account", [
    # nothing used: eng and ops tie, eng by name.
    ({}, {}, "eng"),
    # her eng use (under -G eng or charged there before) makes ops the
    # less used: her job without -G goes there.
    ({("kim", "eng"): Usage(5.0, 0, 0)}, {}, "ops"),
    ({}, {("ann", "eng"): 1}, "ops"),
    # carl's slots in ops: eng.
    ({}, {("carl", None): 2}, "eng"),
])
def test_a_job_without_G_goes_to_its_users_highest_priority_account(
        usage, started, account):
    job, other = _gjob(1, "kim"), _gjob(2, "ann")
    order = Order(_two_groups(), usage, {}, [job, other], started)
    # Before the walk: the account ranking first (for a job placed out
    # of turn); it waits in both of kim's accounts.
    assert job.share_group == account
    assert other.share_group is None        # ann has one account only
    assert (order.pending[("eng",)], order.pending[("ops",)]) == (2, 1)
    out = [j for j in order if j is job]
    assert out and job.share_group == account


def _kim_and_carl():
    """kim is in eng (dividing its shares: ann 1, kim 2) and in ops
    (FCFS, with carl); eng and ops have 1 share each."""
    return _two_groups()


def _walk(order, start=lambda job: True):
    """(job id, account group) as jobs come out, each starting (one slot
    for its user) when start(job)."""
    seen, running = [], order.user_used
    for job in order:
        seen.append((job.id, job.share_group))
        if start(job):
            running[job.user] = running.get(job.user, 0) + 1
    return seen


def test_one_users_jobs_go_to_different_accounts_within_one_pass():
    # eng and ops tie: kim's first job through eng (by name); eng then
    # holds a slot (1/6) and ops (1/3) wins: her second job goes there,
    # before carl's (FCFS in ops); tie again: eng takes her third; then
    # ops, carl's.
    jobs = [_gjob(1, "kim"), _gjob(2, "kim"), _gjob(3, "kim"),
            _gjob(4, "carl")]
    assert _walk(Order(_kim_and_carl(), {}, {}, jobs, {})) == [
        (1, "eng"), (2, "ops"), (3, "eng"), (4, None)]


def test_a_job_that_does_not_start_charges_no_account():
    # kim's first job (through eng) finds no room: eng keeps its
    # priority and still ties ops, so her next job goes through eng too.
    jobs = [_gjob(1, "kim"), _gjob(2, "kim"), _gjob(3, "carl")]
    seen = _walk(Order(_kim_and_carl(), {}, {}, jobs, {}),
                 start=lambda job: job.id != 1)
    assert seen == [(1, "eng"), (2, "eng"), (3, None)]


def test_several_users_in_several_groups_share_out_by_priority():
    # kim in eng and ops, lee in ops and qa; ann only in eng, carl only
    # in ops, and a use on eng that makes it last.
    groups = {"eng": ["ann", "kim"], "ops": ["carl", "kim", "lee"],
              "qa": ["lee"]}
    policy = fairshare_policy([("eng", 1.0), ("ops", 1.0), ("qa", 1.0)],
                              groups, members=groups)
    jobs = [_gjob(1, "kim"), _gjob(2, "lee"), _gjob(3, "kim"),
            _gjob(4, "lee"), _gjob(5, "ann"), _gjob(6, "carl")]
    usage = {("ann", None): Usage(1.0, 0, 0)}
    # ops and qa tie (1/3), eng 1/3.7: ops takes kim's 1; qa (1/3) lee's
    # 2; eng (1/3.7) now beats ops and qa (1/6): kim's 3 goes to eng;
    # then ops and qa tie: ops takes lee's 4 (FCFS there, before carl);
    # qa, with none left, is out; eng (1/6.7) and ops (1/9): ann's 5;
    # then carl's 6.
    assert _walk(Order(policy, usage, {}, jobs, {})) == [
        (1, "ops"), (2, "qa"), (3, "eng"), (4, "ops"), (5, None),
        (6, None)]


def test_own_share_and_a_group_both_take_the_users_jobs():
    # LSF: a user with a share of her own and in a group with shares has
    # her job considered when either is the highest priority account.
    groups = {"eng": ["ann", "kim"]}
    policy = fairshare_policy([("kim", 1.0), ("eng", 1.0)], groups,
                              members=groups)
    assert [tuple(n for n, _ in p) for p in policy.choices("kim")] == \
        [("kim",), ("eng",)]
    jobs = [_gjob(1, "kim"), _gjob(2, "kim"), _gjob(3, "ann")]
    # eng and kim tie (eng by name): kim's 1 goes through eng; then her
    # own account (1/3 against eng's 1/6): her 2; then eng: ann's.
    assert _walk(Order(policy, {}, {}, jobs, {})) == [
        (1, "eng"), (2, None), (3, None)]


def test_accounts_below_a_shared_group_each_take_the_users_jobs():
    # dept divides its shares between eng and ops, kim in both: her jobs
    # alternate between /dept/eng/kim and /dept/ops; x (1 share at the
    # top, sam's) comes in as dept's slots pile up.
    direct = {"eng": ["ann", "kim"], "ops": ["carl", "kim"],
              "dept": ["eng", "ops"], "x": ["sam"]}
    groups = dict(direct, dept=["ann", "kim", "carl"])
    shares = {"dept": [("eng", 1.0), ("ops", 1.0)],
              "eng": [("ann", 1.0), ("kim", 1.0)]}
    policy = fairshare_policy([("dept", 2.0), ("x", 1.0)], groups,
                              group_shares=shares, members=direct)
    jobs = [_gjob(n, "kim") for n in range(1, 5)] + [_gjob(5, "sam")]
    seen = _walk(Order(policy, {}, {}, jobs, {}))
    assert seen == [(1, "eng"), (2, "ops"), (5, None), (3, "eng"),
                    (4, "ops")]
    for _, group in seen[:2]:
        assert policy.path("kim", group) in policy.choices("kim")


_members = st.sets(st.sampled_from(["ann", "bob", "kim", "lee"]),
                   min_size=1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["ann", "bob", "kim", "lee"]), min_size=1,
                max_size=25),
       st.lists(st.booleans(), min_size=25, max_size=25),
       _members, _members, _members)
def test_every_job_comes_out_once_charged_to_an_account_of_its_user(
        users, starts, eng, ops, qa):
    groups = {"eng": sorted(eng), "ops": sorted(ops), "qa": sorted(qa)}
    policy = fairshare_policy(
        [("ann", 1.0), ("eng", 2.0), ("ops", 1.0), ("qa", 3.0)], groups,
        group_shares={"eng": [("kim", 1.0), ("default", 1.0)]},
        members=groups)
    jobs = [_gjob(n, u) for n, u in enumerate(users)]
    seen = _walk(Order(policy, {}, {}, jobs, {}),
                 start=lambda job: starts[job.id])
    assert sorted(n for n, _ in seen) == list(range(len(jobs)))
    through = {}
    for n, group in seen:
        user = jobs[n].user
        path = policy.path(user, group)
        assert path in policy.choices(user)
        through.setdefault(path, []).append(n)
    for ids in through.values():            # FCFS within each account
        assert ids == sorted(ids)


def test_a_started_job_stays_charged_to_the_account_chosen_for_it():
    from xce.controller import apply
    from xce.model import fairshare
    job = {"stat": "PEND", "spec": {}, "attempt": 0}
    apply.apply(job, "START", {"hosts": ["h"], "attempt": 1,
                               "share_group": "ops"}, 10.0)
    assert fairshare.account_group(job["spec"]) == "ops"
    # A -G group chosen at submission counts when nothing was chosen.
    assert fairshare.account_group({"user_group": "eng"}) == "eng"
    assert fairshare.account_group({}) is None
    # Its slots are charged to ops: kim's next job without -G goes to eng.
    nxt = _gjob(3, "kim")
    Order(_two_groups(), {}, {}, [nxt], {("kim", "ops"): 1})
    assert nxt.share_group == "eng"


def test_a_G_group_outside_the_tree_goes_to_DEFAULT_USER_GROUPs_account():
    from tests.unit.test_share_tree import TWO, TWO_SHARES
    groups = dict(TWO, lab=["kim"])             # lab: not in the tree
    policy = fairshare_policy([("eng", 1.0), ("ops", 1.0)], groups,
                              group_shares=TWO_SHARES, members=groups,
                              default_group="eng")
    # eng is the more used, yet kim's -G lab job is charged to eng, the
    # default group; without -G, the less used ops.
    lab, plain = _gjob(1, "kim", "lab"), _gjob(2, "kim")
    Order(policy, {("kim", "eng"): Usage(5.0, 0, 0)}, {}, [lab, plain], {})
    assert (lab.share_group, plain.share_group) == ("eng", "ops")
    # A default group the user cannot reach: the less used account too.
    policy = fairshare_policy([("eng", 1.0), ("ops", 1.0)], groups,
                              group_shares=TWO_SHARES, members=groups,
                              default_group="nobody")
    lab = _gjob(1, "kim", "lab")
    Order(policy, {("kim", "eng"): Usage(5.0, 0, 0)}, {}, [lab], {})
    assert lab.share_group == "ops"
    # A -G group in the tree keeps its own account, nothing chosen.
    eng = _gjob(1, "kim", "eng")
    Order(policy, {("kim", "eng"): Usage(5.0, 0, 0)}, {}, [eng], {})
    assert eng.share_group is None
