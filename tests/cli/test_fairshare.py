"""Queue fairshare end to end: two real users share a queue with
FAIRSHARE = USER_SHARES[...]; slots go by dynamic priority, not FCFS."""

import os
import shutil
import tempfile

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import Cluster, wait_for

NAMES = user_names("f")
users = users_fixture(NAMES)


@pytest.fixture
def fair_cluster(users):
    """Two slots; queue fair shares them. Under a world-readable root so
    the users can submit."""
    root = tempfile.mkdtemp(prefix="xce-fair-")
    os.chmod(root, 0o755)
    a, b = users
    c = Cluster(root, mxj=2, extra_queues=(
        "  fair:\n    PRIORITY: 20\n"
        f"    FAIRSHARE: USER_SHARES[[{a.name}, 1] [default, 1]]\n")).start()
    try:
        yield c
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def _submit(cluster, user, *argv):
    r = cluster.run("bsub", *argv, user=user.name, cwd=user.home)
    assert r.rc == 0, r
    return int(r.out.split("<")[1].split(">")[0])


def _running_users(cluster):
    r = cluster.run("bjobs", "-u", "all", "-noheader", "-r", "-o", "user",
                    "-q", "fair")
    return sorted(r.out.split())


def test_two_users_get_equal_slots_whatever_the_submit_order(fair_cluster,
                                                             users):
    a, b = users
    blocker = fair_cluster.submit("-n", "2", "sleep 60")
    fair_cluster.wait_stat(blocker, "RUN")
    first = [_submit(fair_cluster, a, "-q", "fair", "sleep 60")
             for _ in range(3)]
    later = [_submit(fair_cluster, b, "-q", "fair", "sleep 60")
             for _ in range(3)]
    fair_cluster.run("bkill", str(blocker))
    # FCFS would start two of a's jobs; fairshare starts one of each.
    wait_for(lambda: len(_running_users(fair_cluster)) == 2,
             what="two fair jobs to start")
    assert _running_users(fair_cluster) == sorted([a.name, b.name])
    # When one of a's jobs ends, a (now holding no slot) goes next.
    fair_cluster.run("bkill", str(first[0]))
    wait_for(lambda: fair_cluster.stat(first[1]) == "RUN",
             what="a's next job to start")
    assert all(fair_cluster.stat(j) == "PEND" for j in later[1:])
