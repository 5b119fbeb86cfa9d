"""A run limit with a host spec end to end: bsub -W 0.2/slowm on a host
whose model is four times as fast is killed after a quarter of the time
(LSF's normalised run limit), as is bsub -W without one in a queue whose
DEFAULT_HOST_SPEC is slowm; a host spec naming no host or model is
refused with LSF's message, exit 255, nothing submitted, the controller
still up; a profile's ABS_RUNLIMIT=Y makes its jobs' run limits
wall-clock time."""

import socket

import pytest

from tests.lib.xcecluster import shared_cluster

MODELS = """\
  spec:
    PRIORITY: 20
    RUNLIMIT: 5/slowm 10/fastm
  slowspec:
    PRIORITY: 15
    DEFAULT_HOST_SPEC: slowm
host_models:
  slowm: 1.0
  fastm: 4.0
applications:
  wallclock:
    ABS_RUNLIMIT: Y
  timed:
    CPULIMIT: 1:30/slowm
    RUNLIMIT: 120
    MEMLIMIT: 2560M
    STACKLIMIT: 10000
    PROCESSLIMIT: 6
    RERUNNABLE: Y
"""


@pytest.fixture(scope="module")
def cluster():
    # The local host is a fastm; minutes may be fractions (seconds).
    with shared_cluster("xce-rlhs-", mxj=2, host_extra="model: fastm",
                        extra_queues=MODELS.split("host_models")[0],
                        extra="host_models" + MODELS.split("host_models")[1],
                        extra_params="  XCE_FRACTIONAL_RUNLIMIT: Y") as c:
        yield c


def _killed_by_run_limit(cluster, tmp_path, *argv):
    """Submit sleep 60 with *argv*; (job id, seconds it ran until it
    exited on its run limit).  The run time is the store's, from its start
    to its end: the submission, the wait for a dispatch and the polling of
    its state, slow on a loaded machine, are no part of it."""
    jobid = cluster.submit(*argv, "-o", str(tmp_path / "out"), "sleep 60")
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    assert "TERM_RUNLIMIT: job killed after reaching LSF run time limit" \
        in (tmp_path / "out").read_text()
    row = cluster.stored_job(jobid)
    return jobid, row["end_time"] - row["start_time"]


def test_run_limit_is_normalised_to_the_execution_host(cluster, tmp_path):
    # 0.2 min of a slowm is 12 s; on a host 4 times as fast, 3 s.
    jobid, elapsed = _killed_by_run_limit(cluster, tmp_path, "-W",
                                          "0.2/slowm")
    assert elapsed < 11, elapsed        # not the 12 s the number says
    long = cluster.long(jobid)
    assert " RUNLIMIT" in long and " 0.2 min of slowm" in long, long


def test_a_queues_default_host_spec_normalises_a_limit_without_one(
        cluster, tmp_path):
    # The queue's DEFAULT_HOST_SPEC (slowm) stands for the host spec bsub
    # -W did not give: 0.2 min of a slowm is 3 s here.  Without it the
    # fastest host (this fastm) would normalise it: 12 s.
    _, elapsed = _killed_by_run_limit(cluster, tmp_path, "-q", "slowspec",
                                      "-W", "0.2")
    assert elapsed < 11, elapsed


def test_a_profiles_abs_runlimit_makes_the_run_limit_wall_clock(
        cluster, tmp_path):
    # 0.05 min of a slowm would be 0.75 s on this host; with the
    # profile's ABS_RUNLIMIT=Y it is 3 s of wall-clock time, host or not.
    _, elapsed = _killed_by_run_limit(cluster, tmp_path, "-app",
                                      "wallclock", "-W", "0.05/slowm")
    assert elapsed >= 3
    r = cluster.run("bapp", "-l", "wallclock")
    assert "ABS_RUNLIMIT = Y\n" in r.out and "not acted on" not in r.out, r


def test_cpu_limit_is_normalised_to_the_execution_host(cluster, tmp_path):
    # 4 min of a slowm's CPU is 60 s on a host four times as fast: the
    # job's processes get that soft CPU limit (setrlimit, in seconds).
    out = tmp_path / "cpu"
    jobid = cluster.submit("-c", "4/slowm", "-o", str(out), "ulimit -t")
    cluster.wait_stat(jobid, "DONE", timeout=30)
    assert out.read_text().split()[0] == "60", out.read_text()
    long = cluster.long(jobid)
    assert " CPULIMIT" in long and "4.0 min of slowm" in long, long


def test_bqueues_shows_run_limits_with_their_host_spec(cluster):
    long = cluster.run("bqueues", "-l", "spec").out
    default = long.index("DEFAULT LIMITS:")
    maximum = long.index("MAXIMUM LIMITS:")
    assert " RUNLIMIT\n 5.0 min of slowm" in long[default:maximum], long
    assert " RUNLIMIT\n 10.0 min of fastm" in long[maximum:], long
    # 10 min of a fastm is 40 of a slowm: 41 is above the maximum.
    r = cluster.run("bsub", "-q", "spec", "-W", "41/slowm", "sleep 1")
    assert r.rc == 255 and "Cannot exceed queue's hard limit(s)" in r.err, r

def test_hosts_show_their_model_and_cpu_factor(cluster):
    host = socket.gethostname()
    row = cluster.run("lshosts", host).out.splitlines()[1].split()
    assert row[2:4] == ["fastm", "4.0"], row
    bhosts = cluster.run("bhosts", "-l", host).out.splitlines()
    assert bhosts[2].split()[1] == "4.00", bhosts
    lsinfo = cluster.run("lsinfo", "-m").out
    assert "fastm" in lsinfo and "4.00" in lsinfo, lsinfo


def test_a_host_spec_naming_nothing_is_refused(cluster):
    before = cluster.run("bjobs", "-a", "-noheader", "-w").out
    r = cluster.run("bsub", "-W", "10/nohost", "sleep 1")
    assert (r.rc, r.out) == (255, ""), r
    assert "nohost: Bad host specification" in r.err, r
    assert cluster.run("bjobs", "-a", "-noheader", "-w").out == before
    assert cluster.run("bqueues").rc == 0       # the controller is up


def test_a_run_time_estimate_takes_a_host_spec(cluster):
    """bsub -We 10/slowm: a normalised estimate, shown with its host;
    one naming nothing is refused as -W's is."""
    jobid = cluster.submit("-We", "10/slowm", "sleep 30")
    try:
        long = cluster.long(jobid)
        assert " 10.0 min of slowm based on user provided" in long, long
    finally:
        cluster.run("bkill", str(jobid))
    r = cluster.run("bsub", "-We", "10/nohost", "sleep 1")
    assert (r.rc, r.out) == (255, ""), r
    assert "nohost: Bad host specification" in r.err, r
    assert cluster.run("bqueues").rc == 0       # the controller is up


def test_bapp_l_shows_cpu_run_and_memory_limits_as_bqueues_l_does(cluster):
    """CPULIMIT and RUNLIMIT in minutes (the CPU limit of its normalising
    model), MEMLIMIT in the row of the size limits, each value under its
    name with its unit; the profile's other keys stay KEY = value."""
    r = cluster.run("bapp", "-l", "timed")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == (
        "APPLICATION NAME: timed\n"
        " -- No description provided.\n\n"
        "STATISTICS:\n"
        "   NJOBS     PEND      RUN     SUSP\n"
        "        0        0        0        0\n\n"
        "PARAMETERS:\n\n"
        " CPULIMIT\n"
        " 90.0 min of slowm\n\n"
        " RUNLIMIT\n"
        " 120.0 min\n\n"
        " STACKLIMIT MEMLIMIT PROCESSLIMIT\n"
        "      9.8 M    2.5 G            6\n\n"
        "RERUNNABLE = Y\n"), r.out
