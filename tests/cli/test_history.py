"""bhist, bacct and the lsb.events/lsb.acct files, end to end."""

import collections
import re

from tests.lib.xcecluster import wait_for

SUMMARY_HEADER = ("JOBID   USER    JOB_NAME  PEND    PSUSP   RUN     USUSP   "
                  "SSUSP   UNKWN   TOTAL")
STATE_HEADER = "  PEND     PSUSP    RUN      USUSP    SSUSP    UNKWN    TOTAL"


def _finished(cluster, *jobids):
    for jobid in jobids:
        cluster.wait_stat(jobid, "DONE", "EXIT")


def _time_row(out):
    """The numbers under the -l state header; they must add up."""
    lines = out.splitlines()
    row = lines[lines.index(STATE_HEADER) + 1].split()
    numbers = [int(x) for x in row]
    assert sum(numbers[:6]) == numbers[6], row
    return numbers


def test_bhist_default_shows_unfinished_jobs_and_a_adds_finished(cluster):
    done = cluster.submit("true")
    _finished(cluster, done)
    running = cluster.submit("-J", "longjob", "sleep 30")
    cluster.wait_stat(running, "RUN")
    r = cluster.run("bhist")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[:2] == ["Summary of time in seconds spent in various states:",
                         SUMMARY_HEADER]
    assert [line.split()[0] for line in lines[2:] if line] == [str(running)]
    assert lines[2].startswith(f"{running:<7} root    longjob   ")
    assert r.out.endswith("\n\n")
    r = cluster.run("bhist", "-a")
    assert [line.split()[0] for line in r.out.splitlines()[2:] if line] == \
        [str(done), str(running)]
    r = cluster.run("bhist", "-d")
    assert [line.split()[0] for line in r.out.splitlines()[2:] if line] == \
        [str(done)]
    cluster.run("bkill", str(running))


def test_bhist_lists_jobs_in_submission_order_whatever_btop_did(cluster):
    """bhist reads the jobs' histories in the order they were submitted,
    as LSF's reads lsb.events; btop moves a job in its queue, not there."""
    first, second, third = (cluster.submit("-H", "true") for _ in range(3))
    assert cluster.run("btop", str(third)).rc == 0
    r = cluster.run("bjobs", "-noheader", "-o", "jobid")
    assert r.out.split()[0] == str(third), r
    for argv in (["bhist"], ["bhist", "-l"]):
        r = cluster.run(*argv)
        assert (r.rc, r.err) == (0, ""), r
        shown = re.findall(r"^(?:Job <)?(\d+)\b", r.joined, re.M)
        assert shown == [str(first), str(second), str(third)], (argv, r)
    cluster.run("bkill", str(first), str(second), str(third))


def test_bhist_table_columns_add_up(cluster):
    jobid = cluster.submit("sleep 1")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-a")
    row = r.out.splitlines()[2]
    assert len(row) == 84          # %-7 %-7 %-9, six %-8, %-10
    numbers = [int(x) for x in row[26:].split()]
    assert sum(numbers[:6]) == numbers[6] and numbers[2] >= 1


def test_bhist_long_done_job(cluster):
    jobid = cluster.submit("-P", "proj1", "-o", "out.txt", "sleep 1")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.rc == 0 and r.err == ""
    text = r.joined
    assert text.startswith(f"\nJob <{jobid}>, User <root>, Project <proj1>, "
                           "Command <sleep 1>\n")
    stamp = r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d: "
    for pattern in (
            r"Submitted from host <[^>]+>, to Queue <normal>, CWD <[^>]+>, "
            r"Output File <out.txt>;",
            r"Dispatched 1 Task\(s\) on Host\(s\) <[^>]+>, Allocated 1 "
            r"Slot\(s\) on Host\(s\) <[^>]+>;",
            r"Starting \(Pid \d+\);",
            r"Running with execution home <[^>]*>, Execution CWD <[^>]+>, "
            r"Execution Pid <\d+>;",
            r"Done successfully. The CPU time used is \d+\.\d seconds;"):
        assert re.search("^" + stamp + pattern + "$", text, re.M), pattern
    assert re.search(r"^Summary of time in seconds spent in various states "
                     r"by  \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d$", text, re.M)
    numbers = _time_row(text)
    assert numbers[2] >= 1


def test_bhist_long_shows_the_jobs_limits_after_its_submission(cluster):
    """bsub's limits and -We estimate, in bjobs -l's blocks, between the
    submission line and the dispatch; bjobs -l shows the same blocks."""
    jobid = cluster.submit("-W", "10", "-c", "5", "-M", "4096", "-F", "100",
                           "-p", "4", "-T", "8", "-We", "7", "sleep 1")
    _finished(cluster, jobid)
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.rc == 0 and r.err == ""
    lines = r.joined.splitlines()
    at = next(i for i, x in enumerate(lines) if "Submitted from host" in x)
    end = next(i for i, x in enumerate(lines) if "Dispatched" in x)
    block = [x.strip() for x in lines[at + 1:end] if x.strip()]
    assert block[:9] == ["CPULIMIT", "5.0 min", "RUNLIMIT", "10.0 min",
                         "MEMLIMIT", "4 M",
                         "FILELIMIT PROCESSLIMIT THREADLIMIT",
                         "100 K            4           8",
                         "ESTIMATED_RUNTIME:"]
    assert block[9].startswith("7.0 min of ")
    assert len(block) == 10
    b = cluster.run("bjobs", "-l", str(jobid))
    assert b.rc == 0
    shown = [x.strip() for x in b.joined.splitlines() if x.strip()]
    at = shown.index("CPULIMIT")
    assert shown[at:at + 10] == block


def _submitted_block(text):
    """The non-blank lines after a job's submission line, up to its next
    dated line or its time summary, stripped."""
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if "Submitted from host" in x)
    block = []
    for line in lines[at + 1:]:
        if re.match(r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d: ", line) or \
                line.startswith("Summary of time"):
            break
        block += [line.strip()] if line.strip() else []
    return block


def test_bhist_long_shows_the_limits_as_submitted_after_bmod_and_bswitch(
        cluster):
    """The submission block has the limits the job was submitted with,
    and the RUNLIMIT of the queue it went to; bmod's change is said in
    its own lines; bjobs -l shows the limits as they now are."""
    changed = cluster.submit("-H", "-W", "10", "-M", "4096", "sleep 1")
    moved = cluster.submit("-H", "-M", "4096", "sleep 1")
    for argv in (("bmod", "-W", "20", str(changed)),
                 ("bswitch", "short", str(moved))):
        r = cluster.run(*argv)
        assert (r.rc, r.err) == (0, ""), r
    r = cluster.run("bhist", "-l", str(changed), str(moved))
    assert r.rc == 0 and r.err == ""
    first, second = r.joined.split("-" * 78 + "\n")
    assert _submitted_block(first) == ["RUNLIMIT", "10.0 min",
                                       "MEMLIMIT", "4 M"]
    assert re.search(r": Parameters of Job are changed:\n"
                     r"    run limit changes to : 20 \(minutes\);$",
                     first, re.M)
    # normal has no RUNLIMIT; short, where it is now, has 60 minutes.
    assert _submitted_block(second) == ["MEMLIMIT", "4 M"]
    for jobid, limit in ((changed, "20.0 min"), (moved, "60.0 min")):
        b = cluster.run("bjobs", "-l", str(jobid))
        assert b.rc == 0
        shown = [x.strip() for x in b.joined.splitlines() if x.strip()]
        at = shown.index("RUNLIMIT")
        assert shown[at:at + 4] == ["RUNLIMIT", limit, "MEMLIMIT", "4 M"]


def test_bhist_long_exit_and_killed_jobs(cluster):
    failed = cluster.submit("exit 3")
    killed = cluster.submit("sleep 60")
    cluster.wait_stat(killed, "RUN")
    cluster.run("bkill", str(killed))
    _finished(cluster, failed, killed)
    r = cluster.run("bhist", "-l", str(failed), str(killed))
    assert r.rc == 0
    text = r.joined
    assert "-" * 78 in text
    assert "Exited with exit code 3. The CPU time used is" in text
    assert re.search(r": Completed <exit>\.$", text, re.M)
    assert re.search(r": Signal <KILL> requested by user or administrator "
                     r"<root>;$", text, re.M)
    assert re.search(r": Completed <exit>; TERM_OWNER: job killed by "
                     r"owner\.$", text, re.M)
    assert text.count(STATE_HEADER) == 2


def test_bhist_long_stopped_and_resumed_job(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    cluster.run("bstop", str(jobid))
    cluster.wait_stat(jobid, "USUSP")
    cluster.run("bresume", str(jobid))
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bhist", "-l", str(jobid))
    assert re.search(r": Suspended by the user or administrator <root>;$",
                     r.joined, re.M)
    assert re.search(r": Running;$", r.joined, re.M)
    _time_row(r.joined)
    pending = cluster.submit("-H", "true")
    r = cluster.run("bhist", "-l", str(pending))
    assert "with hold" in r.joined
    numbers = _time_row(r.joined)
    assert numbers[0] == 0
    cluster.run("bkill", str(jobid), str(pending))


def test_bhist_long_says_a_requeued_job_was_requeued(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    first = cluster.stored_job(jobid)["attempt"]
    assert cluster.run("brequeue", str(jobid)).rc == 0
    wait_for(lambda: cluster.stored_job(jobid)["attempt"] > first and
             cluster.stat(jobid) == "RUN", what="the second attempt")
    held = cluster.submit("-H", "true")
    assert cluster.run("bresume", str(held)).rc == 0
    _finished(cluster, held)
    r = cluster.run("bhist", "-l", str(jobid), str(held))
    assert (r.rc, r.err) == (0, "")
    text = r.joined
    requeued, resumed = text.split("-" * 78)
    # Between the first run and the second dispatch.
    assert re.search(r"Execution Pid <\d+>;\n.*: Pending: Job has been "
                     r"requeued;\n.*: Dispatched 1 Task", requeued), requeued
    assert "resumed by user" not in requeued
    # A job held at submission and resumed keeps LSF's resume wording.
    assert re.search(r": Pending: Waiting for scheduling after resumed by "
                     r"user;$", resumed, re.M)
    cluster.run("bkill", str(jobid))


def test_snakemake_finds_the_project_in_bhist_l_a(cluster):
    jobs = [cluster.submit("-P", "lab_a", "true") for _ in range(2)]
    jobs.append(cluster.submit("true"))
    _finished(cluster, *jobs)
    r = cluster.run("sh", "-c", "bhist -l -a | grep Project")
    projects = re.findall(r"Project <([^<>]+)>", r.out)
    assert collections.Counter(projects).most_common(1)[0][0] == "lab_a"


def test_bhist_no_matching_job(cluster):
    r = cluster.run("bhist")
    assert (r.rc, r.out, r.err) == (255, "No matching job found\n", "")
    r = cluster.run("bhist", "424242")
    assert (r.rc, r.out) == (255, "No matching job found\n")
    r = cluster.run("bhist", "12x")
    assert r.rc == 255 and r.err == "12x: Illegal job ID.\n"


def test_bacct_summary_counts_and_long_blocks(cluster):
    ok = cluster.submit("sleep 1")
    bad = cluster.submit("exit 2")
    held = cluster.submit("-H", "true")
    cluster.run("bkill", str(held))
    _finished(cluster, ok, bad, held)
    r = cluster.run("bacct")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0] == "Accounting information about jobs that are: "
    assert lines[1] == "  - submitted by users root,"
    assert lines[7] == "-" * 78
    assert lines[9] == "SUMMARY:      ( time unit: second ) "
    assert lines[10] == (" Total number of done jobs:       1      "
                         "Total number of exited jobs:     2")
    assert re.match(r" Average turnaround time:\s+\d+ \(seconds/job\)$",
                    lines[16])
    r = cluster.run("bacct", "-l", str(ok), str(bad), str(held))
    text = r.joined
    assert text.count("Accounting information about this job:") == 3
    assert re.search(r": Completed <done>\.$", text, re.M)
    assert re.search(r": Completed <exit>\.$", text, re.M)
    assert re.search(r": Completed <exit>; TERM_OWNER: job killed by "
                     r"owner\.$", text, re.M)
    header = ("     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR"
              "    MEM    SWAP")
    rows = [lines for lines in text.splitlines() if lines.startswith(
        " " * 3) and ("done" in lines or "exit" in lines)]
    assert text.count(header) == 3
    assert [row.split()[3] for row in rows] == ["done", "exit", "exit"]
    assert "Total number of done jobs:       1      Total number of " \
        "exited jobs:     2" in text


def test_bacct_filters(cluster):
    a = cluster.submit("-q", "short", "-P", "p9", "true")
    _finished(cluster, a)
    r = cluster.run("bacct", "-q", "normal")
    assert "Total number of done jobs:       0" in r.out
    r = cluster.run("bacct", "-q", "short", "-P", "p9", "-u", "all")
    assert "Total number of done jobs:       1" in r.out
    assert "  - submitted by all users." in r.out
    r = cluster.run("bacct", "-C", ".-1,.")
    assert "Total number of done jobs:       1" in r.out
    r = cluster.run("bacct", "999999")
    assert r.rc == 255 and r.err == "No matching job found\n"
    # -m: the jobs that ran on the host, said in the header.
    host = cluster.run("bhosts", "-w").out.splitlines()[1].split()[0]
    for name, done in ((host, 1), ("otherhost", 0)):
        r = cluster.run("bacct", "-m", name)
        assert r.rc == 0, r
        assert f"  - executed on hosts {name},\n" in r.out, r
        assert f"Total number of done jobs:       {done}" in r.out, r


def test_bad_time_window_is_refused(cluster):
    for cmd, window in (("bacct", "yesterday"), ("bacct", "2020/13/1/"),
                        ("bhist", "10:99"), ("bacct", ".,.-1")):
        r = cluster.run(cmd, "-C", window)
        assert (r.rc, r.out, r.err) == (
            255, "", f"{window}: Bad time specification\n"), (cmd, window)


def test_lsb_events_and_acct_record_a_finished_job(cluster):
    done = cluster.submit("-J", "evjob", "true")
    failed = cluster.submit("exit 1")
    _finished(cluster, done, failed)
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH",
                             until=lambda r: len(r) == 2)
    first = (cluster.logdir / "lsb.events").read_text().split("\n", 1)[0]
    assert first.split() == ["#", "0"]      # blanks: room for a timestamp
    # lsb.events is written after the replies too (lsb.events(5)): polled
    # until both jobs' ends are there.
    ends = {(str(done), "64"), (str(failed), "32")}
    cluster.wait_lsb_records("lsb.events", "JOB_STATUS", until=lambda r:
                             ends <= {(w[3], w[4]) for w in r})
    records = cluster.lsb_records
    new = {r[3]: r for r in records("lsb.events", "JOB_NEW")}
    assert new[str(done)][1] == '"10.1"'
    assert new[str(done)][41] == '"evjob"'      # awk's $42, as LSF writes it
    status = [(r[3], r[4]) for r in records("lsb.events", "JOB_STATUS")]
    assert (str(done), "64") in status and (str(failed), "32") in status
    started = {r[3] for r in records("lsb.events", "JOB_START")}
    assert {str(done), str(failed)} <= started


def test_help(cluster):
    for cmd in ("bhist", "bacct"):
        r = cluster.run(cmd, "-h")
        assert r.rc == 0 and r.out.startswith(f"Usage: {cmd} ")


def _changes(r):
    """The indented lines under each "Parameters of Job are changed:" of
    bhist -l's result R (its folded lines joined)."""
    blocks, lines = [], r.joined.splitlines()
    for i, line in enumerate(lines):
        if line.endswith(": Parameters of Job are changed:"):
            block = []
            for nxt in lines[i + 1:]:
                if nxt.startswith("    "):
                    block.append(nxt.strip())
                else:
                    break
            blocks.append(block)
    return blocks


def test_bhist_long_shows_each_bmod_change_and_reset_in_order(make_cluster):
    from tests.lib.xcecluster import blocked
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-J", "before", "sleep 1")
    steps = [("-q", "short", "-o", "out.txt", "-W", "30", "-Jd", "nightly",
              "-E", "/bin/true", "-u", "ops@example.com", "-B", "-N",
              "-J", "after"),
             ("-on", "-Wn", "-Jdn", "-En", "-un", "-Bn", "-Nn", "-bn"),
             ("-R", "rusage[mem=10]", "-n", "1", "-F", "100")]
    for argv in steps:
        r = cluster.run("bmod", *argv, str(jobid))
        assert (r.rc, r.err) == (0, ""), r
    # Bad input: refused, nothing recorded.
    r = cluster.run("bmod", "-W", "abc", str(jobid))
    assert r.rc == 255 and r.err
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.rc == 0 and r.err == ""
    assert _changes(r) == [
        ["Job queue changes to : short;", "Output file change to : out.txt;",
         "Job will send mail to user when job ends;",
         "Job will send mail to user when job begins;",
         "Pre exec command changes to : /bin/true;",
         "Mail user changes to : ops@example.com;",
         "run limit changes to : 30 (minutes);",
         "Job name changes to : after;",
         "Job description changes to : nightly;"],
        ["Output file is disabled;",
         "No mail will be sent to user when job ends;",
         "No mail will be to user when job begins;",
         "Pre exec command is disabled;",
         "Mail user changes to original user;",
         "bmod -Wn used. Run limit set to queue run limit;",
         "Job begin time is removed;",
         "Job description is removed;"],
        ["Resource requirement changes to: rusage[mem=10];",
         "File limit changes to : 100 (KB);",
         "New minimal num of processors is : 1;",
         "New max num of processors is : 1;"]]


def test_bhist_long_shows_bmod_execution_options_and_their_removal(
        make_cluster, tmp_path):
    from tests.lib.xcecluster import blocked
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    outdir = tmp_path / "out"
    for argv in (("-Ep", "echo post", "-Q", "3 EXCLUDE(4)", "-outdir",
                  str(outdir), "-We", "20", "-b", "2030:1:1:10:00",
                  "-t", "2030:1:2:10:00", "-c", "5", "-D", "2048"),
                 ("-Epn", "-Qn", "-outdirn", "-Wen", "-bn", "-tn", "-cn",
                  "-Dn")):
        r = cluster.run("bmod", *argv, str(jobid))
        assert r.rc == 0 and "Job not modified" not in r.err, r
    for bad in (("-Q", "EXCLUDE("), ("-We", "x"), ("-b", "25:99")):
        r = cluster.run("bmod", *bad, str(jobid))
        assert r.rc == 255 and "Job not modified" in r.err, r
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.rc == 0 and r.err == ""
    assert _changes(r) == [
        [f"Output directory changes to : {outdir};",
         "Post exec command changes to : echo post;",
         "CPU limit changes to : 5 (minutes);",
         "Data limit changes to : 2048 (KB);",
         "Job new begin time is : Tue Jan  1 10:00:00 2030;",
         "Job new end time is : Wed Jan  2 10:00:00 2030;",
         "Runtime estimate changes to : 20 (minutes);",
         "Requeue exit values change to : 3 EXCLUDE(4);"],
        ["Output directory is removed;",
         "Post exec command is disabled;",
         "bmod -cn used. CPU limit set to queue CPU limit;",
         "bmod -Dn used. Data limit set to queue data limit;",
         "Job begin time is removed;",
         "Job terminate time is removed;",
         "Runtime estimate is removed;",
         "Requeue exit values are removed;"]]
