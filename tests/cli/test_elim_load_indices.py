"""An elim reporting a built-in load index (r1m, ut, pg, it, ...) in place
of the agent's own measurement, as LSF's LIM takes it, end to end on
virtual hosts: lsload and bhosts -l show the elim's value, lsload marks
it busy past an lsf.cluster threshold, select[] and order[] read it, a
queue's scheduling threshold keeps a job pending with LSF's reason and
its stopping threshold suspends a running job until the value drops,
and a job stopped by paging (pg) waits for PG_SUSP_IT of idle time (it).
Garbage for a built-in index is logged and the host's own value kept.

Every agent reports its load every second (EXINTERVAL 1) and each elim
reads its host's values file every second, so a changed value reaches
the controller within about two seconds."""

import time

from tests.lib import elims
from tests.lib.xcecluster import wait_for

PG_SUSP_IT = 120        # seconds: two minutes of idle time (it 2)


def _cluster(make_cluster, tmp_path, values, hosts=("vh000",), **kw):
    directory = elims.serverdir(tmp_path / "serverdir",
                                {"elim.load": elims.READS_VALUES}, values)
    params = elims.params(directory) + \
        f"\n  EXINTERVAL: 1\n  PG_SUSP_IT: {PG_SUSP_IT}"
    cluster = make_cluster(virtual_hosts=list(hosts), extra_params=params,
                           **kw)
    cluster.serverdir = directory
    return cluster


def _lsload(cluster, *options):
    """{host: {column: cell}} of lsload."""
    r = cluster.run("lsload", *options)
    assert (r.rc, r.err) == (0, ""), r
    head, *rows = r.out.splitlines()
    names = head.split()
    return {row.split()[0]: dict(zip(names, row.split())) for row in rows}


def _shown(cluster, expected, *options):
    """Wait until lsload shows EXPECTED {host: {column: cell}}."""
    def now():
        rows = _lsload(cluster, *options)
        return all({k: rows.get(h, {}).get(k) for k in cells} == cells
                   for h, cells in expected.items()) and rows
    return wait_for(now, timeout=30, what=f"lsload showing {expected}")


def _report(cluster, host, line, expected=None):
    """*host*'s elim reports *line*; wait until lsload shows EXPECTED
    (its cells for *host*)."""
    elims.report(cluster.serverdir, host, line)
    if expected:
        _shown(cluster, {host: expected})


def _stays(cluster, jobid, stat, seconds=2.0):
    """The job keeps *stat* for *seconds* (several load reports and
    passes): polled to the end, failing at the first change."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert cluster.stat(jobid) == stat
        time.sleep(0.2)


def _agent_log(cluster, host):
    return (cluster.spool / "agents" / host / "agent.log").read_text()


def test_lsload_bhosts_select_and_order_read_the_elims_values(
        make_cluster, tmp_path):
    cluster = _cluster(
        make_cluster, tmp_path, hosts=("vh000", "vh001"), mxj=2,
        values={"vh000": "4 r1m 7.5 ut 0.42 pg 33 it 12",
                "vh001": "4 r1m 0.3 ut 0.05 pg 0.5 it 0"},
        host_extra="lim_thresholds:\n  r1m: 3.5")
    rows = _shown(cluster, {
        "vh000": {"r1m": "*7.5", "ut": "42%", "pg": "33.0", "it": "12"},
        "vh001": {"r1m": "0.3", "ut": "5%", "pg": "0.5", "it": "0"}})
    # Past lsf.cluster's r1m threshold of LIM: busy, the index starred.
    assert rows["vh000"]["status"] == "busy"
    assert rows["vh001"]["status"] == "ok"
    _shown(cluster, {"vh000": {"r1m": "*7.5", "pg": "33.0"}}, "-l")
    r = cluster.run("bhosts", "-l", "vh000")
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    head = next(i for i, x in enumerate(lines)
                if x.split()[:3] == ["r15s", "r1m", "r15m"])
    names, total = lines[head].split(), lines[head + 1].split()
    assert total[0] == "Total"
    shown = dict(zip(names, total[1:]))
    assert (shown["r1m"], shown["ut"], shown["pg"], shown["it"]) == \
        ("7.5", "42%", "33.0", "12"), r.out
    # select[] and order[] read the same values.
    busy = cluster.submit("-R", "select[pg>30 && r1m>5]", "sleep", "600")
    idle = cluster.submit("-R", "select[it<1 && ut<0.1]", "sleep", "600")
    least = cluster.submit("-R", "order[r1m]", "sleep", "600")
    for jobid in (busy, idle, least):
        cluster.wait_stat(jobid, "RUN")
    hosts = [cluster.stored_job(j)["exec_hosts"] for j in (busy, idle, least)]
    assert hosts == ["vh000", "vh001", "vh001"]
    for jobid in (busy, idle, least):
        assert cluster.run("bkill", str(jobid)).rc == 0


def test_a_queue_load_threshold_holds_and_stops_jobs_by_elim_values(
        make_cluster, tmp_path):
    cluster = _cluster(
        make_cluster, tmp_path, mxj=2,
        values={"vh000": "3 r1m 3 ut 0.2 it 0"},
        extra_queues="  loaded:\n    PRIORITY: 20\n    r1m: 2.0/\n"
                     "    ut: 0.5/0.9\n")
    _shown(cluster, {"vh000": {"r1m": "3.0", "ut": "20%"}})
    # Scheduling threshold (loadSched): the job waits with LSF's reason.
    jobid = cluster.submit("-q", "loaded", "sleep", "600")
    reason = "The 1 min effective CPU queue length (r1m) is beyond threshold"
    wait_for(lambda: reason in cluster.long(jobid), what=reason)
    assert cluster.stat(jobid) == "PEND"
    _report(cluster, "vh000", "3 r1m 0.5 ut 0.2 it 0")
    cluster.wait_stat(jobid, "RUN")
    # Stopping threshold (loadStop): the job is suspended with LSF's
    # reason (the host is in use, it 0, so even a lone job stops) ...
    _report(cluster, "vh000", "3 r1m 0.5 ut 0.95 it 0")
    cluster.wait_stat(jobid, "SSUSP")
    assert " Host load exceeded threshold: 1-minute CPU utilization (ut)" \
        in cluster.long(jobid)
    # ... and resumed once the elim's value is within loadSched again.
    _report(cluster, "vh000", "3 r1m 0.5 ut 0.3 it 0")
    cluster.wait_stat(jobid, "RUN")
    assert cluster.run("bkill", str(jobid)).rc == 0


def test_a_job_stopped_by_paging_waits_for_pg_susp_it_of_idle_time(
        make_cluster, tmp_path):
    cluster = _cluster(
        make_cluster, tmp_path, mxj=2,
        values={"vh000": "2 pg 1 it 5"},
        extra_queues="  loaded:\n    PRIORITY: 20\n    pg: 10/20\n")
    _shown(cluster, {"vh000": {"pg": "1.0", "it": "5"}})
    jobid = cluster.submit("-q", "loaded", "sleep", "600")
    cluster.wait_stat(jobid, "RUN")
    # Paging past loadStop, but the job is the host's only one and nobody
    # uses the host (it > 0): LSF leaves it running.
    _report(cluster, "vh000", "2 pg 50 it 5", {"pg": "50.0", "it": "5"})
    _stays(cluster, jobid, "RUN")
    # Someone logs in (it 0): suspended for the paging rate.
    _report(cluster, "vh000", "2 pg 50 it 0")
    cluster.wait_stat(jobid, "SSUSP")
    assert " Host load exceeded threshold: Paging rate (pg)" in \
        cluster.long(jobid)
    # The paging stops, but the host is in use: still suspended ...
    _report(cluster, "vh000", "2 pg 1 it 0", {"pg": "1.0", "it": "0"})
    _stays(cluster, jobid, "SSUSP")
    # ... and idle for one minute only, short of PG_SUSP_IT (2 minutes).
    _report(cluster, "vh000", "2 pg 1 it 1", {"pg": "1.0", "it": "1"})
    _stays(cluster, jobid, "SSUSP")
    # Idle for PG_SUSP_IT: resumed.
    _report(cluster, "vh000", "2 pg 1 it 2")
    cluster.wait_stat(jobid, "RUN")
    assert cluster.run("bkill", str(jobid)).rc == 0


def test_garbage_for_a_builtin_index_is_logged_and_the_own_value_kept(
        make_cluster, tmp_path):
    cluster = _cluster(make_cluster, tmp_path,
                       values={"vh000": "2 r1m 42 pg 77"})
    _shown(cluster, {"vh000": {"r1m": "42.0", "pg": "77.0"}})
    # A bad r1m beside a good pg: r1m is the host's own again, pg is the
    # elim's, the agent goes on reporting and says why.
    _report(cluster, "vh000", "3 r1m abc pg 66 ut 85")
    rows = wait_for(lambda: (lambda r: r["vh000"]["pg"] == "66.0" and r)(
        _lsload(cluster)), timeout=30, what="pg 66.0")
    assert rows["vh000"]["r1m"] != "42.0"
    assert rows["vh000"]["status"] == "ok"
    assert float(rows["vh000"]["ut"].rstrip("%")) <= 100
    log = _agent_log(cluster, "vh000")
    assert "elim elim.load: built-in load index r1m: 'abc' is not a " \
        "number; ignored, the host's own r1m is used" in log
    assert "built-in load index ut: '85' is above 1" in log
    # An alias is not an index name an elim may report.
    _report(cluster, "vh000", "2 cpu 9 pg 55", {"pg": "55.0"})
    assert "reports cpu, an alias of the built-in load index r1m" in \
        _agent_log(cluster, "vh000")
    assert _lsload(cluster)["vh000"]["r1m"] != "9.0"
