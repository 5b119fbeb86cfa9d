"""With XCE_EXACT_JOB_PEAK: Y every job that ran has a memory figure,
however short it was: the agent takes the peak RSS of the job's processes
when it reaps the job, not only from its /proc samples (every two
seconds).  Without it (the default, as LSF) a short job has the figure
only when its peak is above the agent's own size."""

import os
import re

import pytest

from tests.lib.xcecluster import _alive, wait_for


def _max_mem_mb(cluster, jobid):
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    # AVG MEM is "-" when the job ended before its first sample
    m = re.search(r"MAX MEM: ([\d.]+) (\w)bytes; AVG MEM: (-|[\d.]+ \wbytes)",
                  " ".join(r.joined.split()))
    assert m, r.out
    value, unit = float(m.group(1)), m.group(2)
    return value * {"K": 1 / 1024, "M": 1, "G": 1024}[unit]


@pytest.fixture
def exact(make_cluster):
    return make_cluster(extra_params="  XCE_EXACT_JOB_PEAK: Y\n")


def test_a_job_shorter_than_a_sample_has_max_mem(exact):
    cluster = exact
    jobid = cluster.submit("-o", "short.out", "true")
    cluster.wait_stat(jobid, "DONE")
    assert _max_mem_mb(cluster, jobid) > 0
    report = (cluster.root / "short.out").read_text()
    line = [x for x in report.splitlines() if "Max Memory :" in x]
    assert line and line[0].split(":")[1].strip() != "-", report


@pytest.mark.parametrize("mb", [8, 160])
def test_the_final_figure_is_the_jobs_own_peak(exact, mb):
    """Below the agent's own size (where the wrapper's ru_maxrss says
    nothing) and above it: the peak is the job's, not the agent's."""
    _own_peak(exact, mb)


def test_without_exact_peaks_a_big_short_job_still_has_its_own(cluster):
    """The default wrapper: the reaped wrapper's ru_maxrss, above what the
    agent itself had, is the job's own peak."""
    _own_peak(cluster, 160)


def _own_peak(cluster, mb):
    script = (f"python3 -c 'x = b\"x\" * ({mb} << 20); import time; "
              "time.sleep(0.3)'")
    jobid = cluster.submit("-o", "peak.out", script)
    cluster.wait_stat(jobid, "DONE")
    got = _max_mem_mb(cluster, jobid)
    assert mb <= got < mb + 40, got
    r = cluster.run("bjobs", "-noheader", "-o", "max_mem", str(jobid))
    assert r.rc == 0 and r.out.strip() != "-", r


def test_a_running_jobs_pgid_is_its_own_process_group(exact):
    """The agent may run a measuring process above the job: bjobs -l still
    names the job's own process group, whose processes are listed."""
    cluster = exact
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    leader = wait_for(lambda: cluster.job_pid(jobid), what="the job's pid")

    def pgid_line():
        r = cluster.run("bjobs", "-l", str(jobid))
        # joined: a long list of PIDs is folded, even inside a number
        lines = [x for x in r.joined.splitlines() if "PGID:" in x]
        return lines and lines[0]
    line = wait_for(lambda: pgid_line() and
                    f"PGID: {leader};" in pgid_line() and pgid_line(),
                    what="the job's PGID in bjobs -l")
    pids = [int(p) for p in line.split("PIDs:")[1].split()]
    assert leader in pids
    assert all(os.getpgid(p) == leader for p in pids if _alive(p))
    assert cluster.run("bkill", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "EXIT")
