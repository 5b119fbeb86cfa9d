"""The fairshare dispatch order of one queue's pending jobs: seconds to
order them all, flat (USER_SHARES[[default, 1]]) and down a two-level
share tree (10 groups of 3, 2, 1 ... shares, each dividing its shares
among 100 users), and with every user in two of those groups (each
job waits in both accounts and goes to the one that wins first), each
job starting as it comes out.

    .venv/bin/python bench/bench_share_order.py [--jobs N]

Figures: share_order_flat_s, share_order_tree_s, share_order_two_groups_s
(seconds for --jobs pending jobs from 1,000 users).
"""

import argparse
import random
import time
from types import SimpleNamespace

from _common import emit  # (puts the checkout on sys.path)

from xce.model import fairshare
from xce.scheduler.share_order import Order

USERS = [f"u{i:04d}" for i in range(1000)]


def _tree():
    groups = {f"g{g}": USERS[g * 100:(g + 1) * 100] for g in range(10)}
    shares = {g: [(u, float(1 + i % 3)) for i, u in enumerate(members)]
              for g, members in groups.items()}
    top = [(g, float(1 + i % 3)) for i, g in enumerate(groups)]
    return fairshare.Policy(top, groups, group_shares=shares,
                            members=groups)


def _two_groups():
    """Group g takes its own 100 users and the next group's 100."""
    own = {f"g{g}": USERS[g * 100:(g + 1) * 100] for g in range(10)}
    groups = {g: own[g] + own[f"g{(i + 1) % 10}"]
              for i, g in enumerate(own)}
    shares = {g: [(u, float(1 + i % 3)) for i, u in enumerate(members)]
              for g, members in groups.items()}
    top = [(g, float(1 + i % 3)) for i, g in enumerate(groups)]
    return fairshare.Policy(top, groups, group_shares=shares,
                            members=groups)


def _time(policy, jobs):
    used = {}
    start = time.process_time()
    for job in Order(policy, {}, used, jobs):
        used[job.user] = used.get(job.user, 0) + 1
    return time.process_time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=50000)
    n = ap.parse_args().jobs
    rng = random.Random(1)
    jobs = [SimpleNamespace(id=i, user=rng.choice(USERS)) for i in range(n)]
    emit("share_order_flat_s",
         _time(fairshare.Policy([("default", 1.0)]), jobs), "s")
    emit("share_order_tree_s", _time(_tree(), jobs), "s")
    emit("share_order_two_groups_s", _time(_two_groups(), jobs), "s")


if __name__ == "__main__":
    main()
