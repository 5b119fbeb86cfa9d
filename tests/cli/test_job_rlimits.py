"""bsub -c -v -S -F -D -C -p -T and the queue's CPULIMIT, FILELIMIT, ...
end to end: per-process limits are in the job's processes from their first
instruction, whole-job limits end the job with LSF's reason, queue defaults
fill what the job does not say, and a value above the queue's maximum or a
bad value is refused with LSF's message, exit 255, nothing submitted."""

import pytest

from tests.lib.xcecluster import shared_cluster, wait_for

QUEUES = """\
  lim:
    PRIORITY: 20
    CPULIMIT: 10 20
    FILELIMIT: 200
    DATALIMIT: 100000 200000
    PROCESSLIMIT: 5 10
    THREADLIMIT: 50
"""


@pytest.fixture(scope="module")
def cluster():
    # Fractions of a minute, so that a CPU limit can be seconds.
    with shared_cluster("xce-rlim-", extra_queues=QUEUES,
                        extra_params="  XCE_FRACTIONAL_RUNLIMIT: Y") as c:
        yield c


def _ended(cluster, jobid):
    """bjobs -l of the ended job, its folded lines joined again."""
    cluster.wait_stat(jobid, "DONE", "EXIT", timeout=40)
    return cluster.long(jobid)


def _refused(cluster, *argv):
    """bsub's stderr for a refused submission; no job was made."""
    before = cluster.run("bjobs", "-a", "-noheader", "-w").out
    r = cluster.run("bsub", *argv)
    assert (r.rc, r.out) == (255, ""), r
    assert cluster.run("bjobs", "-a", "-noheader", "-w").out == before
    return r.err


def test_cpu_limit_ends_the_job_with_term_cpulimit(cluster, tmp_path):
    # 0.05 min = 3 s of CPU; the busy loop would run for ever.
    jobid = cluster.submit("-c", "0.05", "-o", str(tmp_path / "out"),
                           "while :; do :; done")
    long = _ended(cluster, jobid)
    assert "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit" \
        in long
    assert " CPULIMIT\n 0.05 min" in long      # its decimals kept
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert "TERM_CPULIMIT" in hist
    acct = cluster.run("bacct", "-l", str(jobid)).joined
    assert "TERM_CPULIMIT" in acct
    assert "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit." \
        in (tmp_path / "out").read_text()


def test_file_limit_stops_a_write_past_it(cluster, tmp_path):
    big = tmp_path / "big"
    jobid = cluster.submit(
        "-F", "100", "-o", str(tmp_path / "out"),
        f"head -c 1000000 /dev/zero >{big}; echo rc=$?")
    _ended(cluster, jobid)
    assert big.stat().st_size == 100 * 1024
    # head was ended by SIGXFSZ (128 + 25).
    assert "rc=153" in (tmp_path / "out").read_text()


def test_per_process_limits_are_soft_under_the_queue_hard_limit(
        cluster, tmp_path):
    out = tmp_path / "out"
    jobid = cluster.submit("-q", "lim", "-F", "150", "-S", "8M", "-C", "0",
                           "-o", str(out), "cat /proc/self/limits")
    _ended(cluster, jobid)
    limits = {line[:26].strip(): line[26:].split()
              for line in out.read_text().splitlines()}
    # -F is the soft limit, the queue's FILELIMIT the hard one.
    assert limits["Max file size"][:2] == [str(150 * 1024), str(200 * 1024)]
    assert limits["Max stack size"][0] == str(8 * 1024 * 1024)
    assert limits["Max core file size"][0] == "0"
    # DATALIMIT's default, under its maximum; the queue's CPULIMIT too.
    assert limits["Max data size"][:2] == [str(100000 * 1024),
                                           str(200000 * 1024)]
    assert limits["Max cpu time"][0] == "600"


def test_queue_defaults_show_in_bjobs_and_bqueues(cluster):
    jobid = cluster.submit("-q", "lim", "-H", "true")
    long = cluster.long(jobid)
    assert " CPULIMIT\n 10.0 min\n" in long
    assert "FILELIMIT DATALIMIT PROCESSLIMIT THREADLIMIT\n" in long
    assert "     200 K    97.7 M            5          50\n" in long
    cluster.run("bkill", str(jobid))
    queues = cluster.run("bqueues", "-l", "lim").out
    default, maximum = queues.split("MAXIMUM LIMITS:")
    assert " CPULIMIT\n 10.0 min" in default.split("DEFAULT LIMITS:")[1]
    assert " CPULIMIT\n 20.0 min" in maximum
    assert "PROCESSLIMIT" in maximum and "FILELIMIT" in maximum


def test_process_limit_ends_the_job(cluster):
    jobid = cluster.submit("-p", "2", "sleep 30 & sleep 30 & sleep 30 & wait")
    long = _ended(cluster, jobid)
    assert "TERM_PROCESSLIMIT: job killed after reaching LSF process limit" \
        in long


def test_thread_limit_ends_the_job(cluster):
    code = ("import threading,time\n"
            "[threading.Thread(target=time.sleep,args=(30,)).start() "
            "for _ in range(4)]")
    jobid = cluster.submit("-T", "2", f"python3 -c '{code}'")
    long = _ended(cluster, jobid)
    assert "TERM_THREADLIMIT: job killed after reaching LSF thread limit" \
        in long


def test_swap_limit_ends_the_job(cluster):
    # python3 alone maps more than 1 MB of virtual memory.
    jobid = cluster.submit("-v", "1M", "python3 -c 'import time; "
                           "time.sleep(30)'")
    long = _ended(cluster, jobid)
    assert "TERM_SWAP: job killed after reaching LSF swap usage limit" in long


@pytest.mark.parametrize("argv, name", [
    (("-p", "11"), "PROCESSLIMIT"), (("-c", "30"), "CPULIMIT"),
    (("-F", "300"), "FILELIMIT"), (("-D", "300000"), "DATALIMIT"),
    (("-T", "51"), "THREADLIMIT")])
def test_over_the_queue_maximum_is_refused(cluster, argv, name):
    err = _refused(cluster, "-q", "lim", *argv, "true")
    assert err == f"{name}: Cannot exceed queue's hard limit(s). " \
        "Job not submitted.\n"


@pytest.mark.parametrize("argv, message", [
    (("-F", "abc"), "abc: FILELIMIT value should be a positive integer"),
    (("-D", "0"), "0: DATALIMIT value should be a positive integer"),
    (("-S", "-5"), "-5: STACKLIMIT value should be a positive integer"),
    (("-C", "x"), "x: CORELIMIT value should be a positive integer"),
    (("-v", "1Q"), "1Q: SWAPLIMIT value should be a positive integer"),
    (("-p", "0"), "0: PROCESSLIMIT value should be a positive integer"),
    (("-T", "2.5"), "2.5: THREADLIMIT value should be a positive integer"),
    (("-p", "99999999999"), "99999999999: PROCESSLIMIT value is too big"),
    (("-c", "1:xx"), "1:xx: Bad CPULIMIT specification"),
    (("-c", "0"), "0: CPULIMIT value should be a positive integer"),
    (("-c", "10/nosuchhost"), "nosuchhost: Bad host specification")])
def test_bad_values_are_refused(cluster, argv, message):
    assert _refused(cluster, *argv, "true") == \
        f"{message}. Job not submitted.\n"


def test_limits_are_in_lsb_events(cluster):
    jobid = cluster.submit("-c", "2", "-F", "10", "-D", "20", "-S", "30",
                           "-C", "0", "-v", "40", "-p", "7", "-H", "true")
    # The job id is the record's fourth field; the whole line holds other
    # numbers, and the module's other jobs are in the file.
    line = " ".join(cluster.wait_lsb_records("lsb.events", "JOB_NEW",
                                             jobid)[0])
    cluster.run("bkill", str(jobid))
    # rLimits: CPU seconds, file, data, stack, core (KB), RSS, nofile,
    # open max, swap (KB), run, processes.
    assert ' 120 10 20 30 0 -1 -1 -1 40 -1 7 ""' in line


def test_bmod_changes_and_removes_the_limits_of_a_pending_job(cluster):
    jobid = cluster.submit("-q", "lim", "-H", "-p", "3", "-F", "50", "true")
    r = cluster.run("bmod", "-p", "7", "-Fn", "-c", "0.5", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    # -Fn: back to the queue's FILELIMIT.
    assert (spec["processlimit"], spec["filelimit"], spec["cpulimit"]) == (
        7, 200, 0.5)
    r = cluster.run("bmod", "-T", "51", str(jobid))
    assert r.rc == 255 and "THREADLIMIT: Cannot exceed queue's hard " \
        "limit(s)" in r.err, r
    r = cluster.run("bmod", "-D", "x", str(jobid))
    assert (r.rc, r.err) == (255, "x: DATALIMIT value should be a positive "
                             "integer. Job not modified.\n"), r
    assert cluster.stored_job(jobid)["spec"]["processlimit"] == 7
    cluster.run("bkill", str(jobid))


def test_bmod_c_of_a_running_job_lowers_and_raises_its_cpu_limit(cluster):
    # LSF lets bmod change a running job's CPU limit (-c, -cn); the
    # agent applies it to the whole-job check and to the per-process
    # limit of the job's processes.
    busy = "while :; do :; done"
    lowered = cluster.submit("-c", "100", busy)
    cluster.wait_stat(lowered, "RUN")
    r = cluster.run("bmod", "-c", "0.02", str(lowered))
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{lowered}> are being changed\n", ""), r
    long = _ended(cluster, lowered)
    assert "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit" \
        in long
    # 0.05 min = 3 s of CPU at submission; -cn lifts it: the job runs
    # past it by more than the agent's 2 s between usage samples.  It
    # spends no CPU until the agent has the new limit: on a loaded
    # machine bjobs polled to RUN and bmod could take those 3 s.
    gate = cluster.root / "raised.go"
    raised = cluster.submit(
        "-c", "0.05", f"while [ ! -e {gate} ]; do sleep 0.1; done; {busy}")
    cluster.wait_stat(raised, "RUN")
    # Its process reported (bjobs shows RUN from the dispatch): the agent
    # knows which processes' limit to lift.
    wait_for(lambda: cluster.stored_job(raised)["pids"],
             what="the job's process")
    assert cluster.run("bmod", "-cn", str(raised)).rc == 0
    wait_for(lambda: any(f'"t":"limits","key":[{raised},' in p.read_text()
                         for p in cluster.spool.glob("agents/*/journal")),
             what="the agent to take the new limit")
    gate.write_text("")
    wait_for(lambda: (cluster.stored_job(raised)["cpu_time"] or 0) > 6,
             timeout=40, what="6 s of CPU")
    assert cluster.stat(raised) == "RUN"
    assert "cpulimit" not in cluster.stored_job(raised)["spec"]
    cluster.run("bkill", str(raised))
    # Other limits stay a pending job's, with LSF's message.
    r = cluster.run("bmod", "-p", "3", str(raised))
    assert r.rc == 255
