"""MAX_PEND_JOBS and MAX_PEND_SLOTS (lsb.params, lsb.users): a submission
that would take a user or group past its pending threshold is refused
with LSF's message, nothing is submitted, and the controller goes on."""

import getpass

ME = getpass.getuser()


def _refused(r, who):
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"{who}: Pending job threshold reached. Job not " \
        "submitted.\n", r


def test_params_max_pend_jobs_counts_each_user_s_pending_jobs(make_cluster):
    cluster = make_cluster(extra_params="  MAX_PEND_JOBS: 2\n")
    first = cluster.submit("-H", "true")
    cluster.submit("-H", "true")
    _refused(cluster.run("bsub", "-H", "true"), f"User <{ME}>")
    # An array counts each of its elements.
    r = cluster.run("bkill", str(first))
    assert r.rc == 0, r
    cluster.wait_stat(first, "EXIT")
    _refused(cluster.run("bsub", "-H", "-J", "a[1-2]", "true"),
             f"User <{ME}>")
    assert len(cluster.run("bjobs", "-noheader").out.splitlines()) == 1
    # Running jobs are not pending: one more is taken and runs.
    job = cluster.submit("true")
    cluster.wait_stat(job, "DONE")


def test_users_max_pend_slots_and_group_rows(make_cluster):
    extra = (f"users:\n  {ME}:\n    MAX_PEND_SLOTS: 3\n"
             "  team:\n    MAX_PEND_JOBS: 1\n"
             f"user_groups:\n  team:\n    members: [{ME}, nobody]\n")
    cluster = make_cluster(mxj=4, extra=extra)
    cluster.submit("-H", "-n", "2", "true")
    _refused(cluster.run("bsub", "-H", "-n", "2", "true"), f"User <{ME}>")
    # Three slots would do for the user, but the group may have one
    # pending job in all.
    _refused(cluster.run("bsub", "-H", "true"), "Group <team>")
    assert len(cluster.run("bjobs", "-noheader").out.splitlines()) == 1
