"""bjobs lists jobs in LSF's order, in every layout: started jobs first,
then pending ones by queue priority and position, then finished ones."""

import json
import re


def _scene(cluster):
    """Jobs made in an order unlike the listing's: (in the listing's
    order) the running job, a pending job of the higher-priority queue
    short, a held and a pending job of normal, a finished job."""
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    held = cluster.submit("-H", "sleep 60")
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    pending = cluster.submit("sleep 60")
    high = cluster.submit("-q", "short", "sleep 60")
    return [running, high, held, pending, done]


def test_every_layout_lists_started_pending_then_finished(make_cluster):
    cluster = make_cluster(mxj=1)
    want = _scene(cluster)
    try:
        r = cluster.run("bjobs", "-a")
        assert (r.rc, r.err) == (0, ""), r
        assert [int(x.split()[0]) for x in r.out.splitlines()[1:]] == want
        r = cluster.run("bjobs", "-a", "-w", "-noheader")
        assert (r.rc, r.err) == (0, ""), r
        assert [int(x.split()[0]) for x in r.out.splitlines()] == want
        r = cluster.run("bjobs", "-a", "-o", "jobid", "-noheader")
        assert (r.rc, r.err) == (0, ""), r
        assert [int(x) for x in r.out.split()] == want
        r = cluster.run("bjobs", "-a", "-o", "jobid", "-json")
        assert (r.rc, r.err) == (0, ""), r
        assert [int(rec["JOBID"]) for rec in json.loads(r.out)["RECORDS"]] \
            == want
        r = cluster.run("bjobs", "-a", "-l")
        assert (r.rc, r.err) == (0, ""), r
        heads = re.findall(r"^Job <(\d+)>", r.joined, re.M)
        assert [int(x) for x in heads] == want
        # Without -a: the unfinished ones, in the same order.
        r = cluster.run("bjobs", "-o", "jobid", "-noheader")
        assert [int(x) for x in r.out.split()] == want[:-1], r
    finally:
        cluster.run("bkill", *map(str, want[:-1]))


def test_pending_jobs_of_a_queue_are_listed_by_their_sp_priority(
        make_cluster):
    # With MAX_USER_PRIORITY, -sp orders a queue's pending jobs (read from
    # their spec); without it bjobs reads no priority at all.
    cluster = make_cluster(mxj=1, extra_params="  MAX_USER_PRIORITY: 100\n")
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    low = cluster.submit("-sp", "10", "sleep 60")
    high = cluster.submit("-sp", "90", "sleep 60")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid")
    assert (r.rc, r.err) == (0, ""), r
    assert [int(x) for x in r.out.split()] == [running, high, low]
    assert cluster.run("bkill", "0").rc == 0
