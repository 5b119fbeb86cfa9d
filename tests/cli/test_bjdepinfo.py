"""bjdepinfo through a real cluster: parents, children and levels of a
job's dependencies, and its messages for no dependency or no job."""

from tests.lib.xcecluster import blocked


def test_bjdepinfo_parents_children_and_levels(make_cluster):
    cluster, _ = blocked(make_cluster)
    a = cluster.submit("-J", "first", "sleep 1")
    b = cluster.submit("-w", f"done({a})", "-J", "second", "sleep 1")
    c = cluster.submit("-w", "ended(second)", "-J", "third", "sleep 1")
    r = cluster.run("bjdepinfo", str(b))
    assert r.rc == 0, r
    assert r.out.splitlines() == [
        "JOBID          PARENT         PARENT_STATUS  PARENT_NAME  LEVEL",
        f"{b:<14} {a:<14} PEND           first        1"]
    r = cluster.run("bjdepinfo", "-r", "2", str(c))
    rows = [l.split() for l in r.out.splitlines()[1:]]
    assert rows == [[str(c), str(b), "PEND", "second", "1"],
                    [str(b), str(a), "PEND", "first", "2"]]
    r = cluster.run("bjdepinfo", "-c", str(a))
    assert r.out.splitlines()[0].split() == [
        "JOBID", "CHILD", "CHILD_STATUS", "CHILD_NAME", "LEVEL"]
    assert r.out.splitlines()[1].split() == [str(a), str(b), "PEND",
                                             "second", "1"]
    r = cluster.run("bjdepinfo", "-l", str(b))
    assert f"The dependency condition of job <{b}> is not satisfied: " \
        f"done({a})" in r.out


def test_bjdepinfo_without_dependencies_and_unknown_job(cluster):
    jobid = cluster.submit("sleep 30")
    r = cluster.run("bjdepinfo", str(jobid))
    assert (r.rc, r.out) == (
        0, f"Job <{jobid}> has no parent job dependencies.\n")
    r = cluster.run("bjdepinfo", "99999")
    assert (r.rc, r.out, r.err) == (
        255, "", "Job <99999>: No matching job found\n")
    r = cluster.run("bjdepinfo", "-c", "-p", str(jobid))
    assert r.rc == 255
