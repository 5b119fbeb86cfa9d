"""An application profile's per-process and whole-job limits (SWAPLIMIT,
PROCESSLIMIT, DATALIMIT, STACKLIMIT, FILELIMIT, CORELIMIT, THREADLIMIT)
end to end: the job's processes run under them (/proc/self/limits), the
whole-job ones end the job with LSF's reason, bjobs -l and bapp -l show
them, and they merge with the job's -v -p -D -S -F -C -T (the job's win)
and the queue's (its default fills what neither set, its maximum is the
hard limit and refuses a value above it)."""

import pytest

from tests.lib.xcecluster import shared_cluster, wait_for

APPS = """
applications:
  perproc:
    FILELIMIT: 300
    DATALIMIT: 150000
    STACKLIMIT: 9000
    CORELIMIT: 1000
    SWAPLIMIT: 4000000
    PROCESSLIMIT: 30
    THREADLIMIT: 40
  stackonly:
    STACKLIMIT: 9000
  fewprocs:
    PROCESSLIMIT: 2
  fewthreads:
    THREADLIMIT: 2
  noswap:
    SWAPLIMIT: 1M
"""
QUEUES = """\
  lim:
    PRIORITY: 20
    FILELIMIT: 400
    DATALIMIT: 100000 200000
    PROCESSLIMIT: 5 10
    THREADLIMIT: 50
"""
KB = 1024


@pytest.fixture(scope="module")
def cluster():
    with shared_cluster("xce-alim-", extra=APPS, extra_queues=QUEUES,
                        mxj=8) as c:
        yield c


def _limits(cluster, tmp_path, *argv):
    """{/proc/self/limits name: [soft, hard]} of a job submitted with
    *argv*, and its bjobs -l once it is done."""
    out = tmp_path / f"limits{len(list(tmp_path.iterdir()))}"
    jobid = cluster.submit(*argv, "-o", str(out), "cat /proc/self/limits")
    cluster.wait_stat(jobid, "DONE", "EXIT")
    assert cluster.stat(jobid) == "DONE", cluster.run("bjobs", "-l",
                                                      str(jobid)).out
    table = {line[:26].strip(): line[26:].split()[:2]
             for line in out.read_text().splitlines()
             if line.startswith("Max ")}
    return table, cluster.run("bjobs", "-l", str(jobid)).joined


def _row(long):
    """bjobs -l's per-process limits: {name: value with its unit}."""
    lines = long.splitlines()
    for i, line in enumerate(lines):
        names = line.split()
        if names and "STACKLIMIT" in names or "PROCESSLIMIT" in names:
            values = iter(lines[i + 1].split())
            out = {}
            for name, value in zip(names, values):
                if not name.startswith(("PROCESS", "THREAD")):
                    value += " " + next(values)     # its unit
                out[name] = value
            return out
    return {}


def test_the_profiles_limits_are_the_jobs_and_shown(cluster, tmp_path):
    limits, long = _limits(cluster, tmp_path, "-app", "perproc")
    assert limits["Max file size"][0] == str(300 * KB)
    assert limits["Max data size"][0] == str(150000 * KB)
    assert limits["Max stack size"][0] == str(9000 * KB)
    assert limits["Max core file size"][0] == str(1000 * KB)
    # No queue maximum: nothing above the profile's value is imposed.
    assert limits["Max file size"][1] == "unlimited"
    assert _row(long) == {
        "FILELIMIT": "300 K", "DATALIMIT": "146.5 M", "STACKLIMIT": "8.8 M",
        "CORELIMIT": "1000 K", "SWAPLIMIT": "3.8 G", "PROCESSLIMIT": "30",
        "THREADLIMIT": "40"}, long
    # bapp -l: one row of limit names over their values with units.
    r = cluster.run("bapp", "-l", "perproc")
    assert r.rc == 0, r
    assert _row(r.out) == {
        "FILELIMIT": "300 K", "DATALIMIT": "146.5 M", "STACKLIMIT": "8.8 M",
        "CORELIMIT": "1000 K", "SWAPLIMIT": "3.8 G", "PROCESSLIMIT": "30",
        "THREADLIMIT": "40"}, r.out
    assert "FILELIMIT =" not in r.out and "not acted on" not in r.out


def test_the_jobs_own_limits_win_over_the_profiles(cluster, tmp_path):
    limits, long = _limits(cluster, tmp_path, "-app", "perproc",
                           "-F", "100", "-D", "120000", "-S", "8000",
                           "-C", "0", "-v", "5000000", "-p", "6",
                           "-T", "20")
    assert [limits[k][0] for k in ("Max file size", "Max data size",
                                   "Max stack size", "Max core file size")] \
        == [str(100 * KB), str(120000 * KB), str(8000 * KB), "0"]
    assert _row(long) == {
        "FILELIMIT": "100 K", "DATALIMIT": "117.2 M", "STACKLIMIT": "7.8 M",
        "CORELIMIT": "0 K", "SWAPLIMIT": "4.8 G", "PROCESSLIMIT": "6",
        "THREADLIMIT": "20"}, long


def test_the_queue_fills_what_neither_set_and_is_the_hard_limit(
        cluster, tmp_path):
    # stackonly sets the stack only: the queue's defaults are the rest,
    # its maxima the hard limits.
    limits, long = _limits(cluster, tmp_path, "-q", "lim",
                           "-app", "stackonly")
    assert limits["Max stack size"][0] == str(9000 * KB)
    assert limits["Max file size"] == [str(400 * KB), str(400 * KB)]
    assert limits["Max data size"] == [str(100000 * KB), str(200000 * KB)]
    assert _row(long) == {
        "FILELIMIT": "400 K", "DATALIMIT": "97.7 M", "STACKLIMIT": "8.8 M",
        "PROCESSLIMIT": "5", "THREADLIMIT": "50"}, long
    # perproc's own values within the queue's maxima are soft limits
    # under them; its PROCESSLIMIT 30 is above the queue's 10, so the job
    # says its own.
    limits, long = _limits(cluster, tmp_path, "-q", "lim", "-app",
                           "perproc", "-p", "6")
    assert limits["Max file size"] == [str(300 * KB), str(400 * KB)]
    assert limits["Max data size"] == [str(150000 * KB), str(200000 * KB)]
    assert _row(long)["PROCESSLIMIT"] == "6"


@pytest.mark.parametrize("argv, name", [
    (("-app", "perproc"), "PROCESSLIMIT"),
    (("-app", "perproc", "-p", "6", "-T", "51"), "THREADLIMIT"),
])
def test_a_profile_value_above_the_queue_maximum_is_refused(cluster, argv,
                                                             name):
    before = cluster.run("bjobs", "-a", "-noheader", "-w").out
    r = cluster.run("bsub", "-q", "lim", *argv, "true")
    assert (r.rc, r.out, r.err) == (
        255, "", f"{name}: Cannot exceed queue's hard limit(s). "
        "Job not submitted.\n")
    assert cluster.run("bjobs", "-a", "-noheader", "-w").out == before


def test_the_profiles_whole_job_limits_end_the_job(cluster):
    threads = ("import threading,time\n"
               "[threading.Thread(target=time.sleep,args=(30,)).start() "
               "for _ in range(4)]")
    jobs = {
        cluster.submit("-app", "fewprocs",
                       "sleep 30 & sleep 30 & sleep 30 & wait"):
        "TERM_PROCESSLIMIT: job killed after reaching LSF process limit",
        cluster.submit("-app", "fewthreads", f"python3 -c '{threads}'"):
        "TERM_THREADLIMIT: job killed after reaching LSF thread limit",
        cluster.submit("-app", "noswap",
                       "python3 -c 'import time; time.sleep(30)'"):
        "TERM_SWAP: job killed after reaching LSF swap usage limit",
    }
    for jobid, reason in jobs.items():
        cluster.wait_stat(jobid, "EXIT", timeout=40)
        wait_for(lambda: reason in cluster.long(jobid),
                 what=f"job {jobid}'s reason")
