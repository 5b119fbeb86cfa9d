"""Hierarchical fairshare end to end: a queue shares its slots between two
user groups (3 and 1 shares), the first dividing its shares between its
two real users (USER_SHARES of user_groups, lsb.users); the slots go down
the share tree, and bqueues -l / -r show its levels."""

import re

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("t") + [user_names("t")[0][:-1] + "c"]
users = users_fixture(NAMES)

HEADER = (" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  "
          "RUN_TIME   ADJUST")


@pytest.fixture
def tree_cluster(users):
    """Four slots; queue fair splits them big 3 : small 1, big splits its
    part a 1 : b 1."""
    a, b, c = users
    with shared_cluster("xce-ftree-", mxj=4, extra_queues=(
            "  fair:\n    PRIORITY: 20\n"
            "    FAIRSHARE: USER_SHARES[[big, 3] [small, 1]]\n"),
            extra=("user_groups:\n"
                   f"  big:\n    members: [{a.name}, {b.name}]\n"
                   f"    USER_SHARES: ([{a.name}, 1] [{b.name}, 1])\n"
                   f"  small:\n    members: [{c.name}]\n")) as cluster:
        yield cluster


def _submit(cluster, user, n):
    out = []
    for _ in range(n):
        r = cluster.run("bsub", "-q", "fair", "sleep 60", user=user.name,
                        cwd=user.home)
        assert r.rc == 0, r
        out.append(int(r.out.split("<")[1].split(">")[0]))
    return out


def _running(cluster):
    r = cluster.run("bjobs", "-u", "all", "-noheader", "-r", "-o", "user",
                    "-q", "fair")
    return sorted(r.out.split())


def _rows(out, title):
    """{account: (shares, started)} of one SHARE_INFO_FOR table."""
    lines = out.splitlines()
    at = lines.index(title)
    assert lines[at + 1] == HEADER
    rows = {}
    for line in lines[at + 2:]:
        if not line.strip():
            break
        name, shares, _prio, started = line.split()[:4]
        rows[name] = (shares, int(started))
    return rows


def test_slots_go_down_the_share_tree_and_bqueues_shows_it(tree_cluster,
                                                           users):
    a, b, c = users
    blocker = tree_cluster.submit("-n", "4", "sleep 60")
    tree_cluster.wait_stat(blocker, "RUN")
    # FCFS would start a's three jobs and one of c's; flat group shares
    # (big one account, FCFS inside) would do the same.
    jobs_a = _submit(tree_cluster, a, 3)
    jobs_c = _submit(tree_cluster, c, 3)
    jobs_b = _submit(tree_cluster, b, 3)
    tree_cluster.run("bkill", str(blocker))
    wait_for(lambda: len(_running(tree_cluster)) == 4,
             what="four fair jobs to start")
    # big (3 shares) takes three slots, small (1) one; inside big, a and
    # b (1 share each) take turns: a, b, then a at the tie (by name).
    assert _running(tree_cluster) == sorted([a.name, a.name, b.name,
                                             c.name])
    assert [tree_cluster.stat(j) for j in jobs_a] == ["RUN", "RUN", "PEND"]
    assert [tree_cluster.stat(j) for j in jobs_b] == ["RUN", "PEND", "PEND"]
    assert [tree_cluster.stat(j) for j in jobs_c] == ["RUN", "PEND", "PEND"]

    r = tree_cluster.run("bqueues", "-l", "fair")
    assert r.rc == 0 and r.err == "", r
    assert "USER_SHARES:  [big, 3] [small, 1]" in r.out.splitlines()
    top = _rows(r.out, "SHARE_INFO_FOR: fair/")
    assert top == {"big": ("3", 3), "small": ("1", 1)}
    assert "SHARE_INFO_FOR: fair/big/" not in r.out     # -l: top level

    r = tree_cluster.run("bqueues", "-r", "fair")
    assert r.rc == 0 and r.err == "", r
    assert _rows(r.out, "SHARE_INFO_FOR: fair/") == top
    below = _rows(r.out, "SHARE_INFO_FOR: fair/big/")
    assert below == {a.name: ("1", 2), b.name: ("1", 1)}
    # b (1 share, 1 slot) ranks above a (1 share, 2 slots) at its level.
    prio = {m.group(1): float(m.group(2)) for m in re.finditer(
        r"^ (\S+)\s+\d+\s+([\d.]+)", r.out, re.M)}
    assert prio[b.name] > prio[a.name]

    # When one of b's jobs ends, b goes next (not a, who holds two).
    tree_cluster.run("bkill", str(jobs_b[0]))
    wait_for(lambda: tree_cluster.stat(jobs_b[1]) == "RUN",
             what="b's next job to start")
    assert tree_cluster.stat(jobs_a[2]) == "PEND"


def test_bad_group_shares_are_refused_at_reconfig_and_the_cluster_keeps_going(
        tree_cluster, users):
    a, b, c = users
    conf = tree_cluster.envdir / "xce.yaml"
    good = conf.read_text()
    conf.write_text(good.replace(f"([{a.name}, 1] [{b.name}, 1])",
                                 f"([{a.name}, 0] [nobody, 1])"))
    r = tree_cluster.run("badmin", "reconfig")
    assert r.rc == 255, r
    assert re.search(r"xce\.yaml:\d+: USER_SHARES: user group big: \[" +
                     a.name + r", 0\]: the share count must be a whole "
                     "number above 0", r.err), r
    # The controller goes on with the configuration it had.
    job = tree_cluster.submit("sleep 1")
    tree_cluster.wait_stat(job, "DONE")
    r = tree_cluster.run("bqueues", "-r", "fair")
    assert "SHARE_INFO_FOR: fair/big/" in r.out
