"""bsub -G in a fairshare queue end to end: a real user in two user groups
of the queue's share tree submits jobs with -G to each; each job is charged
to, and ordered in, its group's branch of the tree (bqueues -l/-r show the
use there), and -G to a group the user is not a direct member of is
refused.  Without -G, each of the user's jobs goes to the account that
wins when it is dispatched (bjobs -l: Share group charged)."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for
from tests.cli.test_fairshare_tree import _rows

NAMES = user_names("g") + [user_names("g")[0][:-1] + "c"]
users = users_fixture(NAMES)


@pytest.fixture
def two_groups(users):
    """Two slots; queue fair splits them big 1 : small 1; c is in both,
    and big divides its shares between a and c; outer (not in the tree)
    holds small as a subgroup."""
    a, b, c = users
    with shared_cluster("xce-fgrp-", mxj=2, extra_queues=(
            "  fair:\n    PRIORITY: 20\n"
            "    FAIRSHARE: USER_SHARES[[big, 1] [small, 1]]\n"),
            extra=("user_groups:\n"
                   f"  big:\n    members: [{a.name}, {c.name}]\n"
                   f"    USER_SHARES: ([{a.name}, 1] [{c.name}, 1])\n"
                   f"  small:\n    members: [{b.name}, {c.name}]\n"
                   "  outer:\n    members: [small]\n")
    ) as cluster:
        yield cluster


def _submit(cluster, user, *args):
    r = cluster.run("bsub", "-q", "fair", *args, "sleep 60", user=user.name,
                    cwd=user.home)
    assert r.rc == 0, r
    return int(r.out.split("<")[1].split(">")[0])


def _one_slot_each(cluster, a, c):
    """bqueues -r: big and small hold one started slot each, big's being
    c's (a's none)."""
    r = cluster.run("bqueues", "-r", "fair")
    assert r.rc == 0 and r.err == "", r
    assert _rows(r.out, "SHARE_INFO_FOR: fair/") == {"big": ("1", 1),
                                                     "small": ("1", 1)}
    assert _rows(r.out, "SHARE_INFO_FOR: fair/big/") == {
        a.name: ("1", 0), c.name: ("1", 1)}


def test_bsub_G_charges_and_orders_the_job_in_its_groups_branch(two_groups,
                                                                 users):
    a, b, c = users
    blocker = two_groups.submit("-n", "2", "sleep 60")
    two_groups.wait_stat(blocker, "RUN")
    big1 = _submit(two_groups, c, "-G", "big")
    big2 = _submit(two_groups, c, "-G", "big")
    small1 = _submit(two_groups, c, "-G", "small")
    other = _submit(two_groups, b)
    two_groups.run("bkill", str(blocker))
    wait_for(lambda: two_groups.stat(small1) == "RUN",
             what="c's -G small job to start")
    # big and small tie: big (by name) takes c's first -G big job, then
    # small its first job (c's -G small, before b's): charged to big
    # alone, c's second -G big job would have had the slot.
    assert [two_groups.stat(j) for j in (big1, big2, other)] == \
        ["RUN", "PEND", "PEND"]
    _one_slot_each(two_groups, a, c)
    r = two_groups.run("bjobs", "-o", "ugroup", "-noheader",
                       str(big1), str(small1))
    assert r.out.split() == ["big", "small"], r

    # When c's -G small job ends, small goes next (b's job), not c's
    # waiting -G big job.
    two_groups.run("bkill", str(small1))
    wait_for(lambda: two_groups.stat(other) == "RUN",
             what="b's job to start")
    assert two_groups.stat(big2) == "PEND"


def test_bsub_G_of_a_group_the_user_is_not_in_is_refused(two_groups, users):
    a, b, c = users
    r = two_groups.run("bsub", "-q", "fair", "-G", "small", "sleep 1",
                       user=a.name, cwd=a.home)
    assert (r.rc, r.out) == (255, ""), r
    assert r.err.strip() == ("small: User not in the specified user group. "
                             "Job not submitted."), r
    # b and c are in small, a subgroup of outer, not in outer itself.
    r = two_groups.run("bsub", "-q", "fair", "-G", "outer", "sleep 1",
                       user=c.name, cwd=c.home)
    assert (r.rc, r.out) == (255, ""), r
    assert r.err.strip() == ("outer: User not in the specified user group. "
                             "Job not submitted."), r
    r = two_groups.run("bjobs", "-u", "all", "-a", "-noheader")
    assert r.out == "", r
    # The controller goes on: c's -G small job is taken.
    assert two_groups.stat(_submit(two_groups, c, "-G", "small")) in \
        ("PEND", "RUN")


def test_one_users_jobs_go_to_two_accounts_in_one_pass(two_groups, users):
    """c (in big and small) submits two jobs without -G while the slots
    are taken; when they free, one pass starts both: the first through
    big (tied with small, first by name), the second through small
    (big now holds a slot), as LSF charges each job to the account that
    wins when it is dispatched -- not both to one account."""
    a, b, c = users
    blocker = two_groups.submit("-n", "2", "sleep 60")
    two_groups.wait_stat(blocker, "RUN")
    first = _submit(two_groups, c)
    second = _submit(two_groups, c)
    two_groups.run("bkill", str(blocker))
    wait_for(lambda: two_groups.stat(first) == "RUN" and
             two_groups.stat(second) == "RUN", what="c's two jobs to start")
    _one_slot_each(two_groups, a, c)
    for job, path in ((first, f"/big/{c.name}"),
                      (second, f"/small/{c.name}")):
        r = two_groups.run("bjobs", "-l", str(job))
        assert r.rc == 0, r
        assert f"Share group charged <{path}>" in r.joined, r.out


def test_default_user_group_takes_jobs_without_G(users):
    """DEFAULT_USER_GROUP small: c's job without -G is submitted under
    small (bjobs shows it) and charged to small's account, not big's
    (listed first); a, not in small, submits with no group and is
    charged to big."""
    a, b, c = users
    with shared_cluster("xce-fdug-", mxj=2, extra_params=(
            "  DEFAULT_USER_GROUP: small"), extra_queues=(
            "  fair:\n    PRIORITY: 20\n"
            "    FAIRSHARE: USER_SHARES[[big, 1] [small, 1]]\n"),
            extra=("user_groups:\n"
                   f"  big:\n    members: [{a.name}, {c.name}]\n"
                   f"  small:\n    members: [{b.name}, {c.name}]\n")
    ) as cluster:
        mine = _submit(cluster, c)
        theirs = _submit(cluster, a)
        wait_for(lambda: cluster.stat(mine) == "RUN" and
                 cluster.stat(theirs) == "RUN", what="both jobs to start")
        r = cluster.run("bjobs", "-o", "ugroup", "-noheader", str(mine),
                        str(theirs))
        assert r.out.split() == ["small", "-"], r
        r = cluster.run("bjobs", "-l", str(mine))
        assert "User Group <small>" in r.joined, r
        r = cluster.run("bqueues", "-r", "fair")
        assert r.rc == 0 and r.err == "", r
        assert _rows(r.out, "SHARE_INFO_FOR: fair/") == {"big": ("1", 1),
                                                         "small": ("1", 1)}


def test_a_job_without_G_is_charged_to_the_less_used_group(two_groups,
                                                           users):
    """a's job holds a slot in big; c (in big, listed first, and small)
    submits without -G: the job is charged to small, the less used, and
    bqueues -r shows it there."""
    a, b, c = users
    theirs = _submit(two_groups, a)
    two_groups.wait_stat(theirs, "RUN")
    mine = _submit(two_groups, c)
    two_groups.wait_stat(mine, "RUN")
    r = two_groups.run("bqueues", "-r", "fair")
    assert r.rc == 0 and r.err == "", r
    assert _rows(r.out, "SHARE_INFO_FOR: fair/") == {"big": ("1", 1),
                                                     "small": ("1", 1)}
    r = two_groups.run("bjobs", "-o", "ugroup", "-noheader", str(mine))
    assert r.out.split() == ["-"], r    # charged there, not submitted so


def test_G_tilde_excludes_a_group_from_the_jobs_accounts(two_groups, users):
    """c is in big (listed first, tied with small: it wins) and small;
    with -G "~big" c's job is charged through small only; bjobs -l shows
    the -G value as given."""
    a, b, c = users
    job = _submit(two_groups, c, "-G", "~big")
    two_groups.wait_stat(job, "RUN")
    r = two_groups.run("bjobs", "-l", str(job))
    assert r.rc == 0, r
    assert "User Group <~big>" in r.joined, r.out
    assert f"Share group charged </small/{c.name}>" in r.joined, r.out
    r = two_groups.run("bjobs", "-o", "ugroup", "-noheader", str(job))
    assert r.out.split() == ["~big"], r
    r = two_groups.run("bqueues", "-r", "fair")
    assert _rows(r.out, "SHARE_INFO_FOR: fair/") == {"big": ("1", 0),
                                                     "small": ("1", 1)}


@pytest.mark.parametrize("who, value, message", [
    (2, "big ~small", "big ~small: A job cannot be both associated with a "
     "user group and excluded from user groups"),
    (2, "~small big", "~small big: A job cannot be both associated with a "
     "user group and excluded from user groups"),
    (2, "~nosuch", "~nosuch: Bad user group name"),
    (0, "~small", "~small: User not in the specified user group"),
    (2, "~big ~small", "Queue <fair>: the excluded user groups leave the "
     "job no fairshare account"),
])
def test_G_tilde_bad_input_is_refused_and_nothing_is_submitted(
        two_groups, users, who, value, message):
    user = users[who]
    r = two_groups.run("bsub", "-q", "fair", "-G", value, "sleep 1",
                       user=user.name, cwd=user.home)
    assert (r.rc, r.out) == (255, ""), r
    assert r.err.strip() == message + ". Job not submitted.", r
    r = two_groups.run("bjobs", "-u", "all", "-a", "-noheader")
    assert r.out == "", r
    assert two_groups.stat(_submit(two_groups, user)) in ("PEND", "RUN")


def test_bmod_G_charges_a_pending_job_to_its_new_group(two_groups, users):
    """c's job submitted with -G big is moved to small by bmod -G before it
    starts: it is charged through small; a, not in small, is refused
    as bsub -G refuses it, and a's job keeps its group."""
    a, b, c = users
    blocker = two_groups.submit("-n", "2", "sleep 60")
    two_groups.wait_stat(blocker, "RUN")
    mine = _submit(two_groups, c, "-G", "big")
    theirs = _submit(two_groups, a, "-G", "big")
    r = two_groups.run("bmod", "-G", "small", str(mine), user=c.name,
                       cwd=c.home)
    assert (r.rc, r.err) == (0, ""), r
    r = two_groups.run("bmod", "-G", "small", str(theirs), user=a.name,
                       cwd=a.home)
    assert (r.rc, r.out, r.err) == (
        255, "", "small: User not in the specified user group. "
        "Job not modified.\n"), r
    two_groups.run("bkill", str(blocker))
    wait_for(lambda: two_groups.stat(mine) == "RUN", what="c's job to run")
    r = two_groups.run("bjobs", "-l", str(mine))
    assert f"Share group charged </small/{c.name}>" in r.joined, r.out
    assert "User Group <small>" in r.joined, r.out
    r = two_groups.run("bjobs", "-o", "ugroup", "-noheader", str(theirs))
    assert r.out.split() == ["big"], r
