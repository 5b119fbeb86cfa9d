"""lsload and lshosts show what the agents report: load indices sampled
every few seconds, static facts at hello; bhosts -l shows the same load."""

import os
import platform
import re

from tests.lib.xcecluster import wait_for

LSLOAD_HEADER = ("HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls    "
                 "it   tmp   swp   mem")
MEMORY = re.compile(r"^(\d+M|\d+\.\dG)$")


def _meminfo_mb(field):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise AssertionError(field)


def _mb(text):
    return float(text[:-1]) * (1024 if text.endswith("G") else 1)


def _loaded_row(cluster, *args):
    """lsload's first host row, once the agent has reported its load."""
    def row():
        r = cluster.run("lsload", *args)
        assert r.rc == 0 and r.err == "", r
        fields = r.out.splitlines()[1].split()
        return "-" not in fields[2:] and (r.out, fields)
    return wait_for(row, timeout=30, what="the agent's load report")


def test_lsload_shows_plausible_indices_the_agent_reported(cluster):
    out, fields = _loaded_row(cluster)
    assert out.splitlines()[0] == LSLOAD_HEADER
    name, status, r15s, r1m, r15m, ut, pg, ls, it, tmp, swp, mem = fields
    assert status == "ok"
    for value in (r15s, r1m, r15m, pg):
        assert re.fullmatch(r"\d+\.\d", value), fields
    assert re.fullmatch(r"\d+%", ut) and int(ut[:-1]) <= 100, fields
    assert ls.isdigit() and it.isdigit(), fields
    for value in (tmp, swp, mem):
        assert MEMORY.match(value), fields
    # Free memory and /tmp space cannot be zero on a host running tests.
    total = _meminfo_mb("MemTotal")
    assert 0 < _mb(mem) <= total * 1.05, (mem, total)
    assert _mb(tmp) > 0
    assert _mb(swp) <= _meminfo_mb("SwapTotal") * 1.05 + 1


def test_lsload_long_adds_io_and_bhosts_long_shows_the_load(cluster):
    out, fields = _loaded_row(cluster, "-l")
    assert out.splitlines()[0].split() == [
        "HOST_NAME", "status", "r15s", "r1m", "r15m", "ut", "pg", "ls", "io",
        "it", "tmp", "swp", "mem"]
    assert re.fullmatch(r"\d+", fields[8]), fields
    r = cluster.run("bhosts", "-l")
    assert r.rc == 0 and r.err == "", r
    total = next(line for line in r.out.splitlines()
                 if line.startswith(" Total"))
    values = total.split()[1:]
    assert len(values) == 12 and "-" not in values, total
    assert MEMORY.match(values[-2]) and _mb(values[-2]) > 0, total


def test_load_is_reported_again_and_again_every_exinterval(make_cluster):
    """The agent reports periodically, not only at hello: what the
    store holds changes (free memory, averages) within a few reports,
    which come every EXINTERVAL seconds (lsf.cluster's; 15 by default,
    where a later report could not come within the 10 s waited here)."""
    from xce.store.reader import Reader
    cluster = make_cluster(extra_params="  EXINTERVAL: 1")

    def stored():
        with Reader(cluster.spool / "store" / "xce.db") as reader:
            return reader.hosts()[0]["load"]
    first = wait_for(stored, timeout=30, what="a first load report")
    assert set(first) >= {"r15s", "r1m", "r15m", "ut", "pg", "io", "ls",
                          "it", "tmp", "swp", "mem"}
    wait_for(lambda: stored() != first, timeout=10,
             what="a later load report")


def test_lshosts_shows_the_agent_facts_and_configured_resources(
        make_cluster):
    cluster = make_cluster(mxj=2, host_extra="resources: [bigmem, fast]")
    r = cluster.run("lshosts")
    assert r.rc == 0 and r.err == "", r
    head, row = r.out.splitlines()
    assert head == ("HOST_NAME      type    model  cpuf ncpus maxmem maxswp "
                    "server RESOURCES")
    name, typ, model, cpuf, ncpus, maxmem, maxswp, server, res = \
        row.split(None, 8)
    assert typ == platform.machine().upper()[:7]
    assert int(ncpus) == os.cpu_count()
    assert abs(_mb(maxmem) - _meminfo_mb("MemTotal")) < 0.1 * 1024 + 1
    assert server == "Yes" and res == "(bigmem fast)", row
    assert maxswp == "-" or MEMORY.match(maxswp)
    r = cluster.run("lshosts", "-l")
    assert r.rc == 0 and "RESOURCES: (bigmem fast)" in r.out, r


def test_lsload_unknown_host_is_an_error(cluster):
    r = cluster.run("lsload", "nosuchhost")
    assert r.rc != 0 and r.out == ""
    assert r.err.strip() == "nosuchhost: unknown host name."
    r = cluster.run("lshosts", "nosuchhost")
    assert r.rc != 0 and r.err.strip() == "nosuchhost: unknown host name."


def test_bhosts_long_shows_the_hosts_window_thresholds_and_resources(
        make_cluster):
    """What lsb.hosts and lsf.cluster configure for a host, as LSF's
    bhosts -l shows it: the dispatch window in the status row, the load
    thresholds in force (loadSched/loadStop), and the host's static
    Numeric resources in the load's second table.  (LSF's bhosts -l
    shows no Boolean or String resources: lshosts -l does, tested
    above.)"""
    cluster = make_cluster(
        mxj=2, extra="resources:\n  speed: {TYPE: Numeric, INCREASING: N, "
        "DESCRIPTION: (Relative speed)}\n",
        host_extra="resources: [bigmem, speed=3]\n"
                   "DISPATCH_WINDOW: 0:00-23:59\n"
                   "r1m: 350/800\nut: 0.99\n")
    wait_for(lambda: "CURRENT LOAD" in cluster.run("bhosts", "-l").out,
             timeout=30, what="the host's load")
    r = cluster.run("bhosts", "-l")
    assert r.rc == 0 and r.err == "", r
    rows = r.out.splitlines()
    # The window one blank after the RSV count, as LSF prints it (it was
    # glued to the count: "00:00-23:59").
    assert rows[2].endswith(" 0 0:00-23:59"), rows[2]
    head = rows.index(" LOAD THRESHOLD USED FOR SCHEDULING:")
    names = rows[head + 1].split()
    sched = dict(zip(names, rows[head + 2].split()[1:]))
    stop = dict(zip(names, rows[head + 3].split()[1:]))
    assert (sched["r1m"], stop["r1m"]) == ("350.0", "800.0"), rows[head:]
    assert (sched["ut"], stop["ut"]) == ("99%", "-"), rows[head:]
    assert sched["r15s"] == stop["r15s"] == "-", rows[head:]
    at = [line.split() for line in rows].index(["speed"])
    assert rows[at + 1].split() == ["Total", "3.0"], rows[at:]
    assert rows[at + 2].split() == ["Reserved", "0.0"], rows[at:]
