"""Slot reservation and backfill end to end: a queue with SLOT_RESERVE and
BACKFILL on a one-host cluster of 4 slots, through bsub, bjobs, bhosts
and badmin."""

import re

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

QUEUE = """\
  resv:
    PRIORITY: 20
    SLOT_RESERVE: MAX_RESERVE_TIME[{cycles}]
    BACKFILL: Y
"""


def _cluster(make_cluster, cycles=1000, sleep=None):
    params = f"  MBD_SLEEP_TIME: {sleep}\n" if sleep else ""
    return make_cluster(mxj=4, extra_queues=QUEUE.format(cycles=cycles),
                        extra_params=params)


def _until_file(cluster, name):
    """A job command that runs until the test creates file NAME."""
    path = cluster.root / name
    return f"while [ ! -e {path} ]; do sleep 0.1; done"


def _rsv(cluster):
    """The RSV column of bhosts (one host)."""
    r = cluster.run("bhosts")
    assert r.rc == 0 and r.err == "", r
    return int(r.out.splitlines()[1].split()[-1])


def _long(cluster, jobid):
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.joined


def _long_then_wide(cluster, *limit):
    """Two of the four slots taken by a job of that run limit or estimate
    (until long.go exists); the wide job needs all four: it waits and
    holds the two free ones, and once started runs until wide.go exists.
    (long, wide)"""
    long = cluster.submit("-q", "resv", "-n", "2", *limit,
                          _until_file(cluster, "long.go"))
    cluster.wait_stat(long, "RUN")
    wide = cluster.submit("-q", "resv", "-n", "4",
                          _until_file(cluster, "wide.go"))
    wait_for(lambda: _rsv(cluster) == 2, what="two reserved slots")
    assert cluster.stat(wide) == "PEND"
    return long, wide


def test_short_job_backfills_and_the_wide_job_is_not_delayed(make_cluster):
    cluster = _cluster(make_cluster)
    # Two of the four slots run for at most 3 minutes (-W 3).
    long, wide = _long_then_wide(cluster, "-W", "3")
    text = _long(cluster, wide)
    assert re.search(r": Reserved <2> job slots on host\(s\) <2\*[^>]+>;",
                     text), text
    r = cluster.run("bhosts", "-l")
    reserved = [ln for ln in r.out.splitlines() if "Reserved" in ln]
    assert reserved and reserved[0].split()[-1] == "2", r.out
    r = cluster.run("bqueues", "-l", "resv")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    stats = lines[lines.index("PARAMETERS/STATISTICS") + 2].split()
    assert stats[-1] == "2", r.out                  # RSV
    assert "SCHEDULING POLICIES:  BACKFILL" in lines, r.out
    # MAX_RESERVE_TIME[1000] x MBD_SLEEP_TIME 10 (the default)
    assert "Maximum slot reservation time: 10000 seconds" in lines, r.out
    # A job without a run limit may not use the reserved slots...
    plain = cluster.submit("-q", "resv", "true")
    # ...one that ends (-W 1) before the wide job's predicted start may.
    short = cluster.submit("-q", "resv", "-W", "1", "true")
    cluster.wait_stat(short, "DONE")
    assert cluster.stat(plain) == "PEND"
    assert cluster.stat(wide) == "PEND"
    r = cluster.run("bjobs", "-p", str(plain))
    assert " Not enough job slot(s): 1 host;" in r.out, r
    # Room appears: the wide job starts first; the plain job comes after.
    (cluster.root / "long.go").touch()
    cluster.wait_stat(wide, "RUN")
    assert cluster.stat(plain) == "PEND"
    assert _rsv(cluster) == 0
    assert "Reserved <" not in _long(cluster, wide)
    (cluster.root / "wide.go").touch()
    cluster.wait_stat(plain, "DONE")
    assert cluster.stat(wide) == "DONE"


def test_reservation_expires_and_other_jobs_get_a_turn(make_cluster):
    # MAX_RESERVE_TIME[1] x MBD_SLEEP_TIME 1: the reservation lasts 1 s.
    cluster = _cluster(make_cluster, cycles=1, sleep=1)
    long = cluster.submit("-q", "resv", "-n", "3",
                          _until_file(cluster, "long.go"))
    cluster.wait_stat(long, "RUN")
    wide = cluster.submit("-q", "resv", "-n", "4", "true")
    wait_for(lambda: _rsv(cluster) == 1, what="one reserved slot")
    # A later job without a run limit waits, then runs once the wide
    # job's reservation has run out.
    later = cluster.submit("-q", "resv", "true")
    cluster.wait_stat(later, "DONE")
    assert cluster.stat(wide) == "PEND"
    # The wide job reserves again, and starts when room appears.
    wait_for(lambda: _rsv(cluster) == 1, what="the slot reserved again")
    (cluster.root / "long.go").touch()
    cluster.wait_stat(wide, "DONE")


def test_bad_slot_reserve_is_refused_by_reconfig(make_cluster):
    cluster = _cluster(make_cluster)
    assert_reconfig_refuses(
        cluster, "MAX_RESERVE_TIME[1000]", "MAX_RESERVE_TIME[soon]",
        r"SLOT_RESERVE: 'MAX_RESERVE_TIME\[soon\]' is not "
        r"MAX_RESERVE_TIME\[n\]")
    # The controller runs on with the configuration it had.
    job = cluster.submit("-q", "resv", "true")
    cluster.wait_stat(job, "DONE")


def test_a_stopped_pending_job_gives_its_slots_back(make_cluster):
    cluster = _cluster(make_cluster)
    long = cluster.submit("-q", "resv", "-n", "2",
                          _until_file(cluster, "long.go"))
    cluster.wait_stat(long, "RUN")
    wide = cluster.submit("-q", "resv", "-n", "4", "true")
    wait_for(lambda: _rsv(cluster) == 2, what="two reserved slots")
    r = cluster.run("bstop", str(wide))
    assert r.rc == 0, r
    wait_for(lambda: _rsv(cluster) == 0, what="the slots given back")
    assert cluster.stat(wide) == "PSUSP"
    r = cluster.run("bresume", str(wide))
    assert r.rc == 0, r
    wait_for(lambda: _rsv(cluster) == 2, what="the slots reserved again")
    (cluster.root / "long.go").touch()
    cluster.wait_stat(wide, "DONE")


def _only_the_short_estimate_backfills(cluster, *long_estimate):
    """The long job (of that estimate, or the queue's) predicts when the
    wide job starts: a job of -We 1 fits before it, one without -We (no
    estimate, or the queue's 3 minutes) does not."""
    long, wide = _long_then_wide(cluster, *long_estimate)
    plain = cluster.submit("-q", "resv", "true")
    short = cluster.submit("-q", "resv", "-We", "1", "true")
    cluster.wait_stat(short, "DONE")
    assert cluster.stat(plain) == "PEND"
    assert cluster.stat(wide) == "PEND"
    (cluster.root / "long.go").touch()
    (cluster.root / "wide.go").touch()
    for jobid in (long, wide, plain):
        cluster.wait_stat(jobid, "DONE", timeout=30)


def test_a_run_time_estimate_lets_a_job_without_run_limit_backfill(
        make_cluster):
    # -We is what backfill takes for a job with no run limit.
    _only_the_short_estimate_backfills(_cluster(make_cluster), "-We", "3")


def test_the_queues_estimated_runtime_lets_a_short_job_backfill(
        make_cluster):
    # The long job says nothing of its length: the queue's
    # ESTIMATED_RUNTIME (3 min) stands for it (without the key, the short
    # job waits too).
    cluster = make_cluster(mxj=4, extra_queues=QUEUE.format(cycles=1000) +
                           "    ESTIMATED_RUNTIME: 3\n")
    _only_the_short_estimate_backfills(cluster)


def test_busers_rsv_counts_the_slots_the_users_pending_jobs_hold(
        make_cluster):
    """busers' RSV: the slots reserved for the user's pending jobs, as
    bhosts' RSV counts them per host."""
    import getpass
    cluster = _cluster(make_cluster)
    long, wide = _long_then_wide(cluster)
    r = cluster.run("busers")
    assert r.rc == 0 and r.err == "", r
    row = r.out.splitlines()[1].split()
    assert row[0] == getpass.getuser()
    # NJOBS 6 (2 running, 4 pending), RSV 2.
    assert row[3:] == ["6", "4", "2", "0", "0", "2"], r.out
    (cluster.root / "long.go").touch()
    cluster.wait_stat(wide, "RUN", timeout=60)
    r = cluster.run("busers")
    assert r.out.splitlines()[1].split()[-1] == "0", r.out
    (cluster.root / "wide.go").touch()
    cluster.wait_stat(wide, "DONE", timeout=60)
