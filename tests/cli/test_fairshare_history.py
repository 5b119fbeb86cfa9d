"""Finished jobs' run time in fairshare end to end (ENABLE_HIST_RUN_TIME):
after a user's job has finished, the live controller still counts its run
time against the user, so with one slot another user's job goes first
instead of the tie being broken by user name."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("h")
users = users_fixture(NAMES)


@pytest.fixture
def hist_cluster(users):
    with shared_cluster("xce-fhist-", mxj=1,
                        extra_params="  ENABLE_HIST_RUN_TIME: Y\n",
                        extra_queues=(
                            "  fair:\n    PRIORITY: 20\n"
                            "    FAIRSHARE: USER_SHARES[[default, 1]]\n")
                        ) as cluster:
        yield cluster


def _submit(cluster, user, command):
    r = cluster.run("bsub", "-q", "fair", command, user=user.name,
                    cwd=user.home)
    assert r.rc == 0, r
    return int(r.out.split("<")[1].split(">")[0])


def test_a_finished_jobs_run_time_lowers_its_users_priority(hist_cluster,
                                                           users):
    a, b = users
    assert a.name < b.name      # a would win a tie
    done = _submit(hist_cluster, a, "sleep 1")
    hist_cluster.wait_stat(done, "DONE")
    blocker = hist_cluster.submit("sleep 60")
    hist_cluster.wait_stat(blocker, "RUN")
    later_a = _submit(hist_cluster, a, "sleep 60")
    later_b = _submit(hist_cluster, b, "sleep 60")
    hist_cluster.run("bkill", str(blocker))
    wait_for(lambda: "RUN" in (hist_cluster.stat(later_a),
                               hist_cluster.stat(later_b)),
             what="a fair job to start")
    assert (hist_cluster.stat(later_b), hist_cluster.stat(later_a)) == \
        ("RUN", "PEND")
