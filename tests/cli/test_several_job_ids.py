"""Commands given several job ids in one call: bkill terminates each, and
bjobs -noheader -o 'jobid stat' lists each (and says which is not found)."""

from tests.lib.xcecluster import blocked


def test_bkill_of_several_ids_terminates_each(make_cluster):
    cluster, blocker = blocked(make_cluster)
    pending = [cluster.submit("sleep 60") for _ in range(3)]
    ids = [blocker] + pending
    r = cluster.run("bkill", *map(str, ids))
    assert (r.rc, r.err) == (0, "")
    assert r.out == "".join(f"Job <{j}> is being terminated\n" for j in ids)
    for j in ids:
        cluster.wait_stat(j, "EXIT")


def test_bjobs_noheader_jobid_stat_for_given_ids(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    live = cluster.submit("sleep 60")
    cluster.wait_stat(live, "RUN")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", str(done),
                    str(live))
    assert (r.rc, r.err) == (0, "")
    # started jobs before finished ones, as LSF's mbatchd lists them
    assert [l.split() for l in r.out.splitlines()] == [
        [str(live), "RUN"], [str(done), "DONE"]]
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", str(live),
                    "99999")
    assert r.rc == 0 and r.out.split() == [str(live), "RUN"]
    assert r.err == "Job <99999> is not found\n"
