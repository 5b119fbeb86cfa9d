"""bkill -b 0 and bkill -stat skip, without a word, the jobs the caller
may not kill (LSF 10.1), where a plain bkill -u all 0 reports each.
Two real users.  Run under the real-users lock."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster

NAMES = user_names("bk")

users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    with shared_cluster("xce-bk-", mxj=1) as c:
        yield c


def _submit(cluster, user):
    return cluster.submit("sleep 60", user=user.name, cwd=user.home)


def _bkill(cluster, user, *argv):
    return cluster.run("bkill", *argv, user=user.name, cwd=user.home)


def test_bkill_b_and_stat_skip_other_users_jobs_silently(shared, users):
    alice, bob = users
    blocker = _submit(shared, alice)
    shared.wait_stat(blocker, "RUN")
    theirs = _submit(shared, alice)
    mine = _submit(shared, bob)
    r = _bkill(shared, bob, "-u", "all", "-stat", "pend")
    assert (r.rc, r.out, r.err) == (0, f"Job <{mine}> is being terminated\n",
                                    "")
    assert shared.stat(mine) == "EXIT"
    mine = _submit(shared, bob)
    r = _bkill(shared, bob, "-b", "-u", "all", "0")
    assert (r.rc, r.out, r.err) == (0, f"Job <{mine}> is being terminated\n",
                                    "")
    assert shared.stat(mine) == "EXIT"
    # Without them each job of another user is reported.
    r = _bkill(shared, bob, "-u", "all", "0")
    assert r.rc == 255 and r.out == ""
    assert sorted(r.err.splitlines()) == sorted(
        [f"Job <{blocker}>: User permission denied",
         f"Job <{theirs}>: User permission denied"])
    assert shared.stat(blocker) == "RUN" and shared.stat(theirs) == "PEND"
    shared.run("bkill", "-u", "all", "0")
