"""Job group permissions as two real users and root: a user may delete and
change the groups they created (and those under them), not another
user's; an administrator (root) may delete any.  Run under the real-users
lock."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster

NAMES = user_names("jg")

users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    with shared_cluster("xce-jg-", mxj=4) as c:
        yield c


def test_users_own_their_groups_and_admins_any(shared, users):
    ann, bob = users
    home = {u.name: u.home for u in users}

    def run(user, *argv):
        return shared.run(*argv, user=user.name, cwd=home[user.name])

    assert run(ann, "bgadd", "-L", "4", "/ann/proj").rc == 0
    assert run(bob, "bgadd", "/bob").rc == 0
    rows = {l.split()[0]: l.split()[-1]
            for l in shared.run("bjgroup").out.splitlines()[1:]}
    assert rows == {"/ann": ann.name, "/bob": bob.name,
                    "/ann/proj": ann.name}
    for argv in (("bgdel", "/ann/proj"), ("bgmod", "-L", "1", "/ann/proj"),
                 ("xce", "gang", "set", "/ann/proj", "--size", "2")):
        r = run(bob, *argv)
        assert (r.rc, r.out, r.err) == (
            255, "", "/ann/proj: User permission denied\n"), argv
    # A job under another user's group: the group is still not bob's.
    r = run(bob, "bsub", "-g", "/ann/proj/bob", "true")
    assert r.rc == 0, r.err
    r = run(ann, "bgmod", "-L", "2", "/ann/proj")
    assert (r.rc, r.out) == (0, "Job group </ann/proj> was modified.\n")
    r = shared.run("bgdel", "/bob")                 # root: an administrator
    assert (r.rc, r.out) == (0, "Job group </bob> was deleted.\n")
    names = [l.split()[0] for l in shared.run("bjgroup").out.splitlines()[1:]]
    assert "/bob" not in names and "/ann/proj" in names
