"""bpeek on array elements and by job name (with a wildcard)."""

from tests.lib.xcecluster import wait_for


def _array(cluster):
    jobid = cluster.submit("-J", "peekarr[1-2]",
                           "echo hello $LSB_JOBINDEX; sleep 60")
    for i in (1, 2):
        cluster.wait_stat(f"{jobid}[{i}]", "RUN")
    return jobid


def _peek(cluster, *argv):
    """bpeek once the job's first line is written."""
    wait_for(lambda: "hello" in cluster.run("bpeek", *argv).out,
             what="the job's output")
    return cluster.run("bpeek", *argv)


def test_bpeek_of_an_array_element(make_cluster):
    cluster = make_cluster(mxj=2)
    jobid = _array(cluster)
    r = _peek(cluster, f"{jobid}[2]")
    assert (r.rc, r.out, r.err) == (
        0, "<< output from stdout >>\nhello 2\n", "")
    r = cluster.run("bpeek", str(jobid))
    assert (r.rc, r.out, r.err) == (
        255, "", "bpeek: Cannot operate on job array\n")
    r = cluster.run("bpeek", f"{jobid}[7]")
    assert (r.rc, r.out, r.err) == (255, "", f"Job <{jobid}[7]> is not "
                                    "found\n")


def test_bpeek_by_name_takes_wildcards_and_element_names(make_cluster):
    cluster = make_cluster(mxj=2)
    _array(cluster)
    # The latest match: the array's last element.
    for name in ("peekarr", "peek*", "*arr", "peekarr[2]"):
        r = _peek(cluster, "-J", name)
        assert (r.rc, r.out) == (0, "<< output from stdout >>\nhello 2\n"), \
            name
    r = _peek(cluster, "-J", "peekarr[1]")
    assert r.out == "<< output from stdout >>\nhello 1\n"
    r = cluster.run("bpeek", "-J", "other*")
    assert (r.rc, r.out, r.err) == (255, "", "Job <other*> is not found\n")
    # -m: the latest job on the host, the array's last element again.
    host = cluster.run("bhosts", "-w").out.splitlines()[1].split()[0]
    r = _peek(cluster, "-m", host)
    assert (r.rc, r.out) == (0, "<< output from stdout >>\nhello 2\n"), r
    r = cluster.run("bpeek", "-m", "otherhost")
    assert (r.rc, r.out, r.err) == (
        255, "", "No unfinished job found on host/group <otherhost>\n"), r
