"""lsb.params JOB_DEP_LAST_SUB: with 1, a dependency on a job name that
several jobs share means the most recently submitted of them, as LSF."""

from tests.lib.xcecluster import wait_for


def test_a_shared_name_means_its_newest_job(make_cluster):
    cluster = make_cluster(extra_params="  JOB_DEP_LAST_SUB: 1\n")
    cluster.submit("-J", "stage", "-H", "true")      # held: never done
    newest = cluster.submit("-J", "stage", "true")
    cluster.wait_stat(newest, "DONE")
    after = cluster.submit("-w", "done(stage)", "true")
    cluster.wait_stat(after, "DONE")


def test_without_it_a_shared_name_means_every_such_job(make_cluster):
    cluster = make_cluster()
    cluster.submit("-J", "stage", "-H", "true")
    newest = cluster.submit("-J", "stage", "true")
    cluster.wait_stat(newest, "DONE")
    after = cluster.submit("-w", "done(stage)", "true")
    # The scheduler has looked at it: it pends on its dependency.
    wait_for(lambda: "dependency" in cluster.run(
        "bjobs", "-p", str(after)).out.lower(), what="the pend reason")
    r = cluster.run("bjobs", "-noheader", "-o", "stat", str(after))
    assert r.out.strip() == "PEND", r
