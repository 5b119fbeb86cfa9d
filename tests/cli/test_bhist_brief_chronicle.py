"""bhist -b (brief format) and bhist -t / -T (every job's events in the
order they happened), end to end."""

import re
import time

from tests.lib.xcecluster import wait_for

STAMP = r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d"
YEAR_STAMP = STAMP + r" \d{4}"
STATE_HEADER = "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL"


def _finished(cluster, *jobids):
    for jobid in jobids:
        cluster.wait_stat(jobid, "DONE", "EXIT")


def test_bhist_b_shows_each_event_and_a_short_submission(cluster):
    jobid = cluster.submit("-J", "short", "-P", "proj1", "-o", "out.txt",
                           "-R", "rusage[mem=10]", "sleep 1")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-b", str(jobid))
    assert (r.rc, r.err) == (0, "")
    text = r.joined
    assert text.startswith(f"\nJob <{jobid}>, Job Name <short>, User <root>, "
                           "Project <proj1>, Command <sleep 1>\n")
    # The submission stops at the queue: no CWD, files, requests, limits.
    assert re.search(f"^{STAMP}: Submitted from host <[^>]+>, to Queue "
                     "<normal>;$", text, re.M), text
    for absent in ("CWD <", "Output File", "Requested Resources"):
        assert absent not in text.split("Dispatched")[0], absent
    for pattern in (r"Dispatched 1 Task\(s\) on Host\(s\) <[^>]+>, Allocated "
                    r"1 Slot\(s\) on Host\(s\) <[^>]+>",
                    r"Starting \(Pid \d+\);",
                    r"Done successfully. The CPU time used is \d+\.\d "
                    r"seconds;"):
        assert re.search(f"^{STAMP}: {pattern}", text, re.M), pattern
    assert re.search(r"^Summary of time in seconds spent in various states "
                     f"by  {STAMP}$", text, re.M)
    row = text.splitlines()[text.splitlines().index(STATE_HEADER) + 1]
    numbers = [int(x) for x in row.split()]
    assert sum(numbers[:6]) == numbers[6] and numbers[2] >= 1
    # -l wins over -b: the files come back.
    r = cluster.run("bhist", "-b", "-l", str(jobid))
    assert "Output File <out.txt>" in r.joined
    assert "CWD <" in r.joined


def test_bhist_b_separates_jobs_and_keeps_the_selection(cluster):
    first = cluster.submit("true")
    second = cluster.submit("exit 3")
    _finished(cluster, first, second)
    r = cluster.run("bhist", "-b", "-a")
    assert r.rc == 0
    assert r.out.count("-" * 78) == 1
    assert r.out.count(STATE_HEADER) == 2
    assert "Exited with exit code 3." in r.joined
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    r = cluster.run("bhist", "-b")           # unfinished jobs only
    assert re.findall(r"^Job <(\d+)>", r.out, re.M) == [str(running)]
    cluster.run("bkill", str(running))


def test_bhist_t_lists_every_jobs_events_in_time_order(cluster):
    done = cluster.submit("-R", "rusage[mem=10]", "true")
    _finished(cluster, done)
    failed = cluster.submit("-J", "bad", "exit 3")
    _finished(cluster, failed)
    r = cluster.run("bhist", "-t")
    assert r.rc == 0 and r.err == ""
    assert r.out.endswith(";\n\n")
    text = r.joined
    lines = [line for line in text.splitlines() if line]
    assert all(re.match(f"{YEAR_STAMP}: Job <\\d+> ", line)
               for line in lines), lines
    mine = [line for line in lines if f"Job <{done}> " in line]
    assert re.search(
        f"Job <{done}> submitted from host <[^>]+> to Queue <normal>, "
        r"CWD <[^>]+>, User <root>, Project <default>, Command <true>, "
        r"Requested Resources <rusage\[mem=10\]>;$", mine[0]), mine[0]
    assert re.search(f"Job <{done}> dispatched to <[^>]+>;$", mine[1])
    assert re.search(fr"Job <{done}> starting \(Pid \d+\);$", mine[2])
    assert re.search(f"Job <{done}> running with execution home <[^>]*>, "
                     r"Execution CWD <[^>]+>, Execution Pid <\d+>;$",
                     mine[3])
    assert mine[-1].endswith(f"Job <{done}> done successfully;")
    assert any(line.endswith(f"Job <{failed}> exited with exit code 3;")
               for line in lines)
    assert any(f"Job <{failed}> submitted" in line and
               "Job Name <bad>" in line for line in lines)
    # Chronological: every line of the first job before the second's.
    order = [int(m) for m in re.findall(r": Job <(\d+)> ", text)]
    assert order.index(failed) > max(
        i for i, j in enumerate(order) if j == done)


def test_bhist_t_window(cluster):
    jobid = cluster.submit("true")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-t", "-T", ".-1,")
    assert r.rc == 0 and f"Job <{jobid}> submitted" in r.joined
    r = cluster.run("bhist", "-t", "-T", "2001/1/1/0:00,2001/1/2/0:00")
    assert (r.rc, r.out, r.err) == (255, "No matching job/event found\n", "")
    # LSB_BHIST_HOURS=0: the default window is this second alone, which
    # the submission (the job's first event) is made to be before.
    submitted = cluster.stored_job(jobid)["submit_time"]
    wait_for(lambda: time.time() >= int(submitted) + 1,
             what="the second after the submission")
    r = cluster.run("bhist", "-t", env={"LSB_BHIST_HOURS": "0"})
    assert r.rc in (0, 255)
    assert f"Job <{jobid}> submitted" not in r.out


def test_bhist_t_bad_input_is_refused(cluster):
    jobid = cluster.submit("true")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-t", "-T", "10:99")
    assert (r.rc, r.out, r.err) == (255, "", "10:99: Bad time specification\n")
    for extra, named in ((["-a"], "-a"), (["-l"], "-l"), (["-b"], "-b"),
                         (["-u", "all"], "-u"), ([str(jobid)], "a job ID")):
        r = cluster.run("bhist", "-t", *extra)
        assert r.rc == 255 and r.out == "", extra
        first, usage = r.err.splitlines()
        assert first == f"bhist: -t and {named} cannot be used together"
        assert usage.startswith("Usage: bhist"), r.err
    r = cluster.run("bhist", "-T", ".-1,")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("bhist: -T must be used with -t\nUsage: bhist")
    r = cluster.run("bhist", "-t", "-f", "lsb.events")
    assert (r.rc, r.out, r.err) == (
        255, "", "bhist: option -f with -t is not supported by xce\n")
