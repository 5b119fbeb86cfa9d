"""Index lists ("123[1-10:2,15]") in bmod, btop and bbot, job id 0 in
bjobs (every job the other options select), and bjobs -A, which takes
array ids without an index list, end to end through a real controller."""

import json

from tests.lib.xcecluster import blocked


def _runlimits(cluster, jobid):
    """{index: run limit} of an array's elements, as the controller
    stored them."""
    from xce.store.reader import Reader
    with Reader(cluster.spool / "store" / "xce.db") as reader:
        rows = reader.jobs("jobid=?", (jobid,))
    return {r["idx"]: json.loads(r["spec"] or "{}").get("runlimit")
            for r in rows}


def _changed(job, *indices):
    return "".join(f"Parameters of job <{job}[{i}]> are being changed\n"
                   for i in indices)


def test_bmod_changes_each_listed_element(make_cluster):
    cluster, _ = blocked(make_cluster)
    job = cluster.submit("-J", "arr[1-5]", "sleep 1")
    r = cluster.run("bmod", "-W", "30", f"{job}[1-5:2]")
    assert (r.rc, r.out, r.err) == (0, _changed(job, 1, 3, 5), ""), r
    assert _runlimits(cluster, job) == {1: 30, 2: None, 3: 30, 4: None,
                                        5: 30}
    # Indices the array does not have are reported one by one; the
    # others change.
    r = cluster.run("bmod", "-W", "40", f"{job}[4-7]")
    assert (r.rc, r.out) == (255, _changed(job, 4, 5)), r
    assert r.err == "".join(f"Job <{job}[{i}]>: No matching job found. "
                            "Job not modified.\n" for i in (6, 7))
    assert _runlimits(cluster, job)[4] == 40
    assert cluster.proc.poll() is None


def test_bmod_of_an_index_list_changes_all_elements_or_none(make_cluster):
    cluster, _ = blocked(make_cluster)
    job = cluster.submit("-J", "arr[1-3]", "sleep 1")
    cluster.run("bkill", f"{job}[2]")
    cluster.wait_stat(f"{job}[2]", "EXIT")
    r = cluster.run("bmod", "-W", "30", f"{job}[1,2,3]")
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{job}[2]>: Job has already finished. "
        "Job not modified.\n"), r
    assert _runlimits(cluster, job) == {1: None, 2: None, 3: None}
    r = cluster.run("bjobs", "-noheader", "-o", "stat", f"{job}[1,3]")
    assert r.out.split() == ["PEND", "PEND"]
    # A refusal about the queue, not the jobs, is said once.
    r = cluster.run("bmod", "-q", "nosuch", f"{job}[1,3]")
    assert (r.rc, r.out) == (255, ""), r
    assert len(r.err.splitlines()) == 1 and "nosuch" in r.err, r
    assert r.err == cluster.run("bmod", "-q", "nosuch", f"{job}[1]").err


def test_bmod_refuses_a_malformed_index_list(make_cluster):
    cluster, _ = blocked(make_cluster)
    job = cluster.submit("-J", "arr[1-3]", "sleep 1")
    for word in (f"{job}[3-1]", f"{job}[1-", f"{job}[a]", f"{job}[]"):
        r = cluster.run("bmod", "-W", "30", word)
        assert (r.rc, r.out, r.err) == (255, "", f"{word}: Illegal job ID.\n")
    assert _runlimits(cluster, job) == {1: None, 2: None, 3: None}
    r = cluster.run("bmod", "-W", "30", "0")
    assert (r.rc, r.out, r.err) == (255, "", "0: Illegal job ID.\n")


def _order(cluster):
    r = cluster.run("bjobs", "-noheader", "-w", "-p")
    return [line.split()[0] for line in r.out.splitlines()
            if line and "PEND" in line.split()]


def test_btop_and_bbot_move_each_listed_element(make_cluster):
    cluster, _ = blocked(make_cluster)
    plain = cluster.submit("sleep 1")
    job = cluster.submit("-J", "arr[1-3]", "sleep 1")
    assert _order(cluster) == [str(plain), f"{job}[1]", f"{job}[2]",
                               f"{job}[3]"]
    # Each element in turn, as btop of each would move it.
    r = cluster.run("btop", f"{job}[2-3]")
    assert (r.rc, r.out) == (0, ""), r
    assert r.err == f"Job <{job}[2]> has been moved to position 1 from top.\n" \
                    f"Job <{job}[3]> has been moved to position 1 from top.\n"
    assert _order(cluster) == [f"{job}[3]", f"{job}[2]", str(plain),
                               f"{job}[1]"]
    r = cluster.run("bbot", f"{job}[3,9]")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"Job <{job}[3]> has been moved to position 1 from " \
                    f"bottom.\n{job}[9]: No matching job found\n"
    assert _order(cluster)[-1] == f"{job}[3]"
    r = cluster.run("btop", f"{job}[2-1]")
    assert (r.rc, r.out, r.err) == (255, "", f"{job}[2-1]: Illegal job ID.\n")


def test_bjobs_0_selects_every_job_the_other_options_select(make_cluster):
    cluster = make_cluster()
    done = cluster.submit("-o", "/dev/null", "true")
    cluster.wait_stat(done, "DONE")
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    r = cluster.run("bjobs", "-noheader", "0")
    assert (r.rc, r.err) == (0, ""), r
    assert [line.split()[0] for line in r.out.splitlines()] == [str(running)]
    assert r.out == cluster.run("bjobs", "-noheader").out
    r = cluster.run("bjobs", "-noheader", "-a", "-u", "all", "0")
    assert (r.rc, r.err) == (0, ""), r
    assert sorted(line.split()[0] for line in r.out.splitlines()) == \
        sorted([str(done), str(running)])
    r = cluster.run("bjobs", "-d", "-noheader", "0")
    assert r.rc == 0 and [line.split()[0] for line in r.out.splitlines()] \
        == [str(done)], r
    cluster.run("bkill", str(running))
    cluster.wait_stat(running, "EXIT")
    r = cluster.run("bjobs", "0")
    assert (r.rc, r.out, r.err) == (0, "", "No unfinished job found\n")


def test_bjobs_A_refuses_an_index_list(make_cluster):
    cluster = make_cluster(mxj=1)
    job = cluster.submit("-J", "arr[1-3]", "sleep 60")
    cluster.wait_stat(f"{job}[1]", "RUN")
    for word in (f"{job}[1-2]", f"{job}[2]"):
        r = cluster.run("bjobs", "-A", word)
        assert (r.rc, r.out, r.err) == (
            255, "", f"{word}: -A takes job array IDs without an index "
            "list\n"), r
    r = cluster.run("bjobs", "-A", "-noheader", str(job))
    assert r.rc == 0 and r.out.split()[0] == str(job), r
