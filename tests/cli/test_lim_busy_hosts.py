"""A host past one of its LIM busy thresholds (xce.yaml lim_thresholds,
from lsf.cluster) is busy in lsload, the index starred, and lshosts -l
lists the thresholds; as in LSF, batch jobs still go there (only
lsb.hosts and lsb.queues thresholds keep them off)."""

from tests.lib.xcecluster import wait_for


def _lsload_row(cluster):
    r = cluster.run("lsload")
    assert r.rc == 0 and r.err == "", r
    return r.out.splitlines()[1].split()


def test_a_host_past_a_lim_threshold_is_busy_and_still_runs_batch_jobs(
        make_cluster):
    # No host has 100 TB of free memory; no run queue reaches 1000.
    cluster = make_cluster(
        mxj=2, host_extra="lim_thresholds: {mem: 100000000, r15s: 1000}")
    row = wait_for(lambda: (lambda f: f[1] == "busy" and f)(
        _lsload_row(cluster)), what="lsload busy")
    starred = [f for f in row[2:] if f.startswith("*")]
    assert len(starred) == 1 and row[-1] == starred[0], (" ".join(row), starred)
    r = cluster.run("lshosts", "-l")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("LOAD_THRESHOLDS:")
    values = dict(zip(lines[at + 1].split(), lines[at + 2].split()))
    assert values == {"r15s": "1000.0", "r1m": "-", "r15m": "-", "ut": "-",
                      "pg": "-", "io": "-", "ls": "-", "it": "-",
                      "tmp": "-", "swp": "-", "mem": "100000000M"}, lines
    # LIM's busy status is not a batch closure: bhosts says ok, and a
    # job is dispatched there.
    assert cluster.run("bhosts").out.splitlines()[1].split()[1] == "ok"
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")


def test_a_host_within_its_lim_thresholds_is_ok(make_cluster):
    cluster = make_cluster(mxj=2,
                           host_extra="lim_thresholds: {mem: 1}")
    row = wait_for(lambda: (lambda f: "-" not in f[2:] and f)(
        _lsload_row(cluster)), what="the agent's load report")
    assert row[1] == "ok" and not any("*" in f for f in row), row
