"""Time windows and load thresholds on a running cluster, as LSF 10.1
applies them: a queue out of its dispatch window holds its jobs
(Inact_Win, "The queue is inactivated by its time windows") and
dispatches when it opens; a closing run window suspends a running job
(SSUSP) and its opening resumes it; a host out of its dispatch window is
closed_Wind, one beyond a load threshold closed_Busy, a stopping
threshold suspends a job, and a time-based lsb.resources limit value
([value time_window] ... [value ()]) changes at its window's edge, as a
queue's time-based PRIORITY and QJOB_LIMIT do.  Windows are chosen relative to now, at the
next minute boundaries (the controller wakes up at them); a cluster may
run in a time zone shifted by seconds so that its next minute boundary
is a few seconds away rather than up to a minute."""

import time

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.timezone import Zone
from tests.lib.xcecluster import wait_for


def _clock(t):
    return time.strftime("%H:%M", time.localtime(t))


def _zoned_cluster(make_cluster, zone, **kw):
    cluster = make_cluster(start=False, **kw)
    cluster.env["TZ"] = zone.tz
    return cluster.start()


def _reconfig(cluster, old, new):
    yaml = cluster.envdir / "xce.yaml"
    text = yaml.read_text()
    assert old in text, old
    yaml.write_text(text.replace(old, new))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r


def _pending_reasons(cluster, jobid):
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0, r
    return r.joined


def _queue_status(cluster, queue):
    r = cluster.run("bqueues", queue)
    assert r.rc == 0 and r.err == "", r
    return r.out.splitlines()[1].split()[2]


def test_a_queue_out_of_its_dispatch_window_holds_jobs_until_it_opens(
        make_cluster):
    zone = Zone(lead=12)
    cluster = _zoned_cluster(make_cluster, zone,
                             extra_queues="  night:\n    PRIORITY: 20\n")
    # First a window hours away: the job is held however long the checks
    # take on a loaded machine.
    later = time.time() + 3 * 3600
    closed = f"{zone.clock(later)}-{zone.clock(later + 1800)}"
    _reconfig(cluster, "  night:\n    PRIORITY: 20\n",
              f"  night:\n    PRIORITY: 20\n    DISPATCH_WINDOW: {closed}\n")
    jobid = cluster.submit("-q", "night", "true")
    wait_for(lambda: "The queue is inactivated by its time windows" in
             _pending_reasons(cluster, jobid), what="the window reason")
    assert cluster.stat(jobid) == "PEND"
    assert _queue_status(cluster, "night") == "Open:Inact_Win"
    r = cluster.run("bqueues", "-l", "night")
    assert r.rc == 0 and f"DISPATCH_WINDOW: {closed}" in r.out, r
    assert "Open:Inact_Win" in r.out
    # Then one that opens at the next minute boundary (the zone's first,
    # unless the above took longer than it leaves): the job starts then,
    # not before.
    opens = zone.next_minute(lead=3)
    window = f"{zone.clock(opens)}-{zone.clock(opens + 1800)}"
    _reconfig(cluster, f"DISPATCH_WINDOW: {closed}",
              f"DISPATCH_WINDOW: {window}")
    cluster.wait_stat(jobid, "DONE", timeout=opens - time.time() + 30)
    started = cluster.stored_job(jobid)["start_time"]
    assert started >= opens
    assert _queue_status(cluster, "night") == "Open:Active"


def test_a_closing_run_window_suspends_a_job_and_its_opening_resumes_it(
        make_cluster):
    zone = Zone(lead=9)
    cluster = _zoned_cluster(make_cluster, zone,
                             extra_queues="  day:\n    PRIORITY: 20\n")
    jobid = cluster.submit("-q", "day", "sleep 600")
    cluster.wait_stat(jobid, "RUN")
    # A run window open now that closes at the next minute boundary.
    closes = zone.next_minute(lead=4)
    window = f"{zone.clock(closes - 120)}-{zone.clock(closes)}"
    _reconfig(cluster, "  day:\n    PRIORITY: 20\n",
              f"  day:\n    PRIORITY: 20\n    RUN_WINDOW: {window}\n")
    # Open, it runs on; a reconfig slowed by load may end past the close,
    # and then the job is suspended at once.
    state = cluster.stat(jobid)
    if time.time() < closes:
        assert state == "RUN"
    cluster.wait_stat(jobid, "SSUSP", timeout=closes - time.time() + 20)
    assert time.time() >= closes
    out = _pending_reasons(cluster, jobid)
    assert " SUSPENDING REASONS:\n The run windows of the queue are " \
        "closed;" in out, out
    assert _queue_status(cluster, "day") == "Open:Inact_Win"
    # The window opens (now, by a new RUN_WINDOW): the job resumes.
    assert cluster.stat(jobid) == "SSUSP"
    opened = f"{zone.clock(closes)}-{zone.clock(closes + 1800)}"
    _reconfig(cluster, f"RUN_WINDOW: {window}", f"RUN_WINDOW: {opened}")
    cluster.wait_stat(jobid, "RUN", timeout=20)
    # Within the minute of the close: the reconfig opened it, no clock.
    assert time.time() < closes + 60
    assert "SUSPENDING REASONS" not in _pending_reasons(cluster, jobid)
    assert _queue_status(cluster, "day") == "Open:Active"
    r = cluster.run("bqueues", "-l", "day")
    assert r.rc == 0 and f"RUN_WINDOW: {opened}" in r.out, r
    r = cluster.run("bkill", str(jobid))
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "EXIT")


def _host_status(cluster):
    """The host's bhosts -w status (None until the controller is up)."""
    r = cluster.run("bhosts", "-w")
    if r.rc != 0:
        return None
    assert r.err == "", r
    return r.out.splitlines()[1].split()[1]


def _closed_host(make_cluster, host_key, status, reason):
    """A cluster whose one host is *status* by *host_key*, and a job
    pending there with *reason*."""
    cluster = make_cluster(mxj=2, host_extra=host_key,
                           start=False).start(wait_hosts=False)
    wait_for(lambda: _host_status(cluster) == status, what=status)
    jobid = cluster.submit("true")
    wait_for(lambda: reason in _pending_reasons(cluster, jobid),
             what=reason)
    return cluster, jobid


def test_a_host_out_of_its_dispatch_window_is_closed_wind(make_cluster):
    later = time.time() + 6 * 3600
    window = f"{_clock(later)}-{_clock(later + 3600)}"
    cluster, jobid = _closed_host(make_cluster, f"DISPATCH_WINDOW: {window}",
                                  "closed_Wind", "Dispatch windows closed")
    r = cluster.run("bhosts", "-l")
    assert r.rc == 0 and window in r.out.splitlines()[2], r
    # The window moved to now: the job runs.
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        f"DISPATCH_WINDOW: {window}", "DISPATCH_WINDOW: ()"))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "DONE")
    assert _host_status(cluster) == "ok"


def test_a_host_beyond_its_load_threshold_is_closed_busy(make_cluster):
    # No host has 100 TB of free memory: the host is beyond loadSched.
    cluster, _ = _closed_host(make_cluster, "mem: 100000000/", "closed_Busy",
                              "The available memory (mem) is low")
    r = cluster.run("bhosts", "-l")
    rows = r.out.splitlines()
    sched = next(x for x in rows if x.startswith(" loadSched"))
    assert sched.split()[-1] == "97656.2G", sched
    assert cluster.run("bhosts").out.splitlines()[1].split()[1] == "closed"


# A stopping threshold of the queue (lsb.queues) or of the host (lsb.hosts)
# the jobs run in, and the command whose loadStop row shows it.
STOPPERS = {"queue": ("    PRIORITY: 20\n", ("bqueues", "-l", "loaded")),
            "host": ("    MXJ: 2\n", ("bhosts", "-l"))}


@pytest.mark.parametrize("where", sorted(STOPPERS))
def test_a_stopping_threshold_suspends_a_job_until_it_is_lifted(
        make_cluster, where):
    cluster = make_cluster(mxj=2, extra_queues="  loaded:\n"
                                                "    PRIORITY: 20\n")
    jobs = [cluster.submit("-q", "loaded", "sleep 600") for _ in range(2)]
    for jobid in jobs:
        cluster.wait_stat(jobid, "RUN")
    yaml = cluster.envdir / "xce.yaml"
    good = yaml.read_text()
    key, shown_by = STOPPERS[where]
    assert good.count(key) == 1
    yaml.write_text(good.replace(key, key + "    mem: 100000000/100000000\n"))
    assert cluster.run("badmin", "reconfig").rc == 0
    wait_for(lambda: "SSUSP" in [cluster.stat(j) for j in jobs],
             what="a job suspended by load")
    stopped = next(j for j in jobs if cluster.stat(j) == "SSUSP")
    assert " Host load exceeded threshold: Available memory (mem)" in \
        _pending_reasons(cluster, stopped)
    r = cluster.run(*shown_by)
    stop = next(x for x in r.out.splitlines() if x.startswith(" loadStop"))
    assert stop.split()[-1] == "97656.2G", stop
    yaml.write_text(good)
    assert cluster.run("badmin", "reconfig").rc == 0
    cluster.wait_stat(stopped, "RUN")
    for jobid in jobs:
        assert cluster.run("bkill", str(jobid)).rc == 0


def test_reconfig_refuses_a_malformed_window_or_threshold(make_cluster):
    cluster = make_cluster(mxj=2)
    assert_reconfig_refuses(
        cluster, "DESCRIPTION: the default queue",
        "RUN_WINDOW: 8:00-24:00", r"RUN_WINDOW: bad time window: "
        r"8:00-24:00: 24:00 is not a time of day")
    (cluster.envdir / "xce.yaml").write_text(
        (cluster.envdir / "xce.yaml").read_text().replace(
            "RUN_WINDOW: 8:00-24:00", "DESCRIPTION: the default queue"))
    assert_reconfig_refuses(
        cluster, "MXJ: 2", "MXJ: 2\n    r1m: high/4",
        r"r1m: bad load threshold: 'high/4' is not loadSched\[/loadStop\]")
    # The controller runs on, on the configuration it had.
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")


def test_a_job_that_would_outrun_the_run_window_pends(make_cluster):
    now = time.time()
    window = f"{_clock(now - 3600)}-{_clock(now + 3600)}"
    cluster = make_cluster(extra_queues=f"  day:\n    PRIORITY: 20\n"
                                        f"    RUN_WINDOW: {window}\n")
    long_job = cluster.submit("-q", "day", "-W", "180", "true")
    short_job = cluster.submit("-q", "day", "-W", "10", "true")
    cluster.wait_stat(short_job, "DONE")
    wait_for(lambda: "Job will not finish before queue's run window is "
             "closed" in _pending_reasons(cluster, long_job),
             what="the run window reason")
    assert cluster.stat(long_job) == "PEND"
    assert cluster.run("bkill", str(long_job)).rc == 0


def _blimits_row(cluster, name):
    r = cluster.run("blimits")
    assert r.rc == 0, r
    return next(x for x in r.out.splitlines() if x.startswith(name))


def test_a_time_based_limit_switches_its_value_at_the_window_edge(
        make_cluster):
    """lsb.resources SLOTS = [1 window] [2 ()]: while the window is open
    one job runs and the next pends on the limit; when it closes the
    value of all other times (2) is in force: the pending job starts,
    with no other event to wake the scheduler, and a third pends."""
    # The edge is the zone's first minute boundary: far enough (25 s) for
    # the set-up below to leave the 10 s the edge needs, so that the test
    # does not wait for the next one, a minute later.
    zone = Zone(lead=25)
    cluster = _zoned_cluster(make_cluster, zone, mxj=4, extra=(
        "limits:\n  - NAME: daytime\n    USERS: all\n    SLOTS: 1\n"))
    first = cluster.submit("sleep 300")
    cluster.wait_stat(first, "RUN")
    second = cluster.submit("sleep 300")
    wait_for(lambda: "limit defined" in _pending_reasons(cluster, second),
             what="the slot limit reason")
    closes = zone.next_minute(lead=10)
    window = f"{zone.clock(closes - 3600)}-{zone.clock(closes)}"
    _reconfig(cluster, "    SLOTS: 1\n",
              f"    SLOTS: \"[1 {window}] [2 ()]\"\n")
    assert " 1/" in _blimits_row(cluster, "daytime")    # one in use
    # Before the edge it pends (a reconfig slowed by load may end past it)
    state = cluster.stat(second)
    if time.time() < closes:
        assert state == "PEND"
    cluster.wait_stat(second, "RUN", timeout=closes - time.time() + 30)
    assert cluster.stored_job(second)["start_time"] >= closes
    # Two is now the limit: a third job pends on it.
    third = cluster.submit("true")
    wait_for(lambda: "limit defined" in _pending_reasons(cluster, third),
             what="the slot limit reason at two")
    assert " 2/" in _blimits_row(cluster, "daytime")
    assert cluster.run("bkill", str(first), str(second), str(third)).rc == 0


def _bqueues_row(cluster, queue):
    r = cluster.run("bqueues", queue)
    assert r.rc == 0 and r.err == "", r
    return r.out.splitlines()[1].split()


def test_a_queues_time_based_values_switch_at_the_window_edge(make_cluster):
    """normal's PRIORITY = [50 window] [30 ()] and QJOB_LIMIT = [1 window]
    [2 ()]: while the window is open bqueues shows 50 and 1 and a second
    job pends on the queue's limit; when it closes, with no other event to
    wake the scheduler, the second job starts and bqueues shows 30 and
    2."""
    zone = Zone(lead=20)        # the first boundary is the edge, as above
    cluster = _zoned_cluster(make_cluster, zone, mxj=4)
    # First a window open for an hour: the values in it hold however
    # long the checks take on a loaded machine.
    now = time.time()
    open_now = f"{zone.clock(now - 60)}-{zone.clock(now + 3600)}"
    _reconfig(cluster, "    PRIORITY: 30\n",
              f"    PRIORITY: \"[50 {open_now}] [30 ()]\"\n"
              f"    QJOB_LIMIT: \"[1 {open_now}] [2 ()]\"\n")
    first = cluster.submit("sleep 300")
    cluster.wait_stat(first, "RUN")
    second = cluster.submit("sleep 300")
    wait_for(lambda: "The queue has reached its job slot limit" in
             _pending_reasons(cluster, second), what="the queue limit reason")
    assert _bqueues_row(cluster, "normal")[1:4] == ["50", "Open:Active", "1"]
    # Then the window closes at the next minute boundary (the zone's
    # first, unless the above took longer than it leaves).
    closes = zone.next_minute(lead=4)
    window = f"{zone.clock(closes - 3600)}-{zone.clock(closes)}"
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(open_now, window))
    assert cluster.run("badmin", "reconfig").rc == 0
    state = cluster.stat(second)
    if time.time() < closes:    # a reconfig slowed by load may end past it
        assert state == "PEND"
    cluster.wait_stat(second, "RUN", timeout=closes - time.time() + 30)
    assert cluster.stored_job(second)["start_time"] >= closes
    assert _bqueues_row(cluster, "normal")[1:4] == ["30", "Open:Active", "2"]
    r = cluster.run("bqueues", "-l", "normal")
    assert r.rc == 0 and "PRIO" in r.out, r
    assert cluster.run("bkill", str(first), str(second)).rc == 0
