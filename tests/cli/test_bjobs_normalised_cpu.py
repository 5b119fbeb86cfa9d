"""bjobs -N host_spec end to end: the long format of finished jobs (with
-r, -p, -s of those too), each CPU time normalised to the CPU factor of
a host, a host model or a number; a host_spec that names nothing is
refused in LSF's words, exit 255."""

import re
import socket

import pytest

from tests.lib.xcecluster import shared_cluster

# The local host is a fastm, four times a slowm.
MODELS = "host_models:\n  slowm: 1.0\n  fastm: 4.0\n"
BUSY = "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"


@pytest.fixture(scope="module")
def cluster():
    with shared_cluster("xce-bjn-", mxj=2, host_extra="model: fastm",
                        extra=MODELS) as c:
        yield c


def _cpu(text):
    """The CPU time of the job's end line in bjobs -l (-N) output."""
    found = re.findall(r"The CPU time used is (\d+\.\d) seconds\.", text)
    assert found, text
    return float(found[-1])


def test_bjobs_n_normalises_the_cpu_time_of_finished_jobs(cluster):
    jobid = cluster.submit(BUSY)
    cluster.wait_stat(jobid, "DONE", timeout=60)
    actual = _cpu(cluster.run("bjobs", "-l", str(jobid)).joined)
    assert actual > 0
    r = cluster.run("bjobs", "-N", "slowm", str(jobid))
    assert (r.rc, r.err) == (0, "")
    assert r.joined.startswith(f"\nJob <{jobid}>, User <root>")
    # On a slowm the job would have used four times the CPU time.
    assert abs(_cpu(r.joined) - 4 * actual) <= 0.25, (actual, r.joined)
    r = cluster.run("bjobs", "-N", "2", str(jobid))
    assert abs(_cpu(r.joined) - 2 * actual) <= 0.15
    # Its own host: the time it used.
    r = cluster.run("bjobs", "-N", socket.gethostname(), str(jobid))
    assert abs(_cpu(r.joined) - actual) <= 0.05


def test_bjobs_n_selects_finished_jobs_and_those_of_r(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    r = cluster.run("bjobs", "-N", "fastm")
    shown = re.findall(r"^Job <(\d+)>", r.out, re.M)
    assert str(done) in shown and str(running) not in shown, r.out
    r = cluster.run("bjobs", "-r", "-N", "fastm")
    shown = re.findall(r"^Job <(\d+)>", r.out, re.M)
    assert str(done) in shown and str(running) in shown, r.out
    cluster.run("bkill", str(running))


def test_bjobs_n_refuses_what_names_no_cpu_factor(cluster):
    for spec in ("nosuchhost", "0", "-2", "x1"):
        r = cluster.run("bjobs", "-N", spec)
        assert (r.rc, r.out) == (255, ""), spec
        assert r.err == (f"<{spec}> is neither a host model, nor a host "
                         "name, nor a CPU factor\n"), spec
    r = cluster.run("bjobs", "-N", "slowm", "-o", "jobid")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("bjobs: -N and -o cannot be used together\n")
