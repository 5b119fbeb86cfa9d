"""lsb.events and lsb.acct end to end: the records of job changes, the
switch of lsb.events at MAX_JOB_NUM finished jobs, the archiving of lsb.acct
by size, and a controller killed and restarted in between."""

import re
import signal

from tests.lib.xcecluster import wait_for


def _finished_in(cluster, name):
    return [w[3] for f, w in cluster.lsb_file_records(
        "lsb.events", "JOB_STATUS", rotated=True)
            if f == name and w[4] in ("32", "64")]


def _run_jobs(cluster, count):
    ids = [cluster.submit("true") for _ in range(count)]
    for jobid in ids:
        cluster.wait_stat(jobid, "DONE")
    return ids


def test_lsb_events_switches_every_max_job_num_finished_jobs(make_cluster):
    cluster = make_cluster(extra_params="  MAX_JOB_NUM: 2\n"
                           "  ACCT_ARCHIVE_SIZE: 1\n")
    ids = _run_jobs(cluster, 3)
    cluster.kill_controller(signal.SIGKILL)        # and back, mid-history
    cluster.start(wait_hosts=False)
    ids += _run_jobs(cluster, 3)
    names = {str(j) for j in ids}
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH", rotated=True,
                             until=lambda r: {w[3] for w in r} >= names)
    logdir = cluster.logdir
    # 6 finished jobs, 2 a file: .3 (oldest), .2, .1 full, lsb.events new.
    for n in (1, 2, 3):
        assert len(_finished_in(cluster, f"lsb.events.{n}")) == 2, n
        first = (logdir / f"lsb.events.{n}").read_text().split("\n", 1)[0]
        assert first.split()[0] == "#" and int(first.split()[1]) > 0
    assert not (logdir / "lsb.events.4").exists()
    assert _finished_in(cluster, "lsb.events.3") == [str(j) for j in ids[:2]]
    # Every job's records are there once, across the files.
    new = [w[3] for w in cluster.lsb_records("lsb.events", "JOB_NEW",
                                             rotated=True)]
    assert sorted(new) == sorted(names)
    finish = [w[3] for w in cluster.lsb_records("lsb.acct", "JOB_FINISH",
                                                rotated=True)]
    assert sorted(finish) == sorted(names)
    # lsb.acct went past 1 KB: archived, the newest archive is .1.
    assert (logdir / "lsb.acct.1").exists()
    assert cluster.run("bhist", "-a").rc == 0      # bhist reads the store


def test_job_changes_are_recorded(cluster):
    held = cluster.submit("-H", "-J", "one", "sleep 30")
    other = cluster.submit("-H", "sleep 30")
    running = cluster.submit("trap '' USR1; sleep 60")
    cluster.wait_stat(running, "RUN")
    for argv in (("bmod", "-J", "renamed", str(held)),
                 ("bmod", "-E", "/bin/true", "-u", "ops@example.com",
                  "-Jd", "nightly", "-b", "2030:1:1:10:00", str(held)),
                 ("bbot", str(held)), ("btop", str(held)),
                 ("bswitch", "short", str(held)),
                 ("bpost", "-d", "hello there", str(other)),
                 ("bkill", "-s", "USR1", str(running)),
                 ("brequeue", str(running))):
        r = cluster.run(*argv)
        assert r.rc == 0, (argv, r)

    def found(kind):
        return cluster.lsb_records("lsb.events", kind, rotated=True)
    cluster.wait_lsb_records("lsb.events", "JOB_REQUEUE", rotated=True)
    modify = found("JOB_MODIFY2")
    assert [w[3] for w in modify] == [f'"{held}"'] * 2
    assert int(modify[0][4]) & 0x1 and '"renamed"' in modify[0]
    # -E and -u by their option bits, -b in beginTime, -Jd at the end.
    assert int(modify[1][4]) == 0x100000 | 0x400000
    assert int(modify[1][12]) > 1800000000 and modify[1][-1] == '"nightly"'
    assert '"/bin/true"' in modify[1] and '"ops@example.com"' in modify[1]
    switch = found("JOB_SWITCH")
    assert [(w[4], w[5], w[7]) for w in switch] == [
        (str(held), '"short"', '"root"')]
    moves = [(w[4], w[6]) for w in found("JOB_MOVE")]
    assert moves == [(str(held), "2"), (str(held), "1")]    # bbot, btop
    msg = found("JOB_EXT_MSG")
    assert [(w[3], w[-3:]) for w in msg] == [
        (str(other), ['"hello', 'there"', '"root"'])]
    assert [w[3] for w in found("JOB_REQUEUE")] == [str(running)]
    signals = [(w[3], w[6]) for w in found("JOB_SIGNAL")]
    assert (str(running), '"SIGUSR1"') in signals
    cluster.run("bkill", str(held), str(other), str(running))


def test_reconfig_refuses_a_bad_max_job_num_and_applies_a_good_one(
        make_cluster):
    cluster = make_cluster(extra_params="  MAX_JOB_NUM: 100\n")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("MAX_JOB_NUM: 100",
                                             "MAX_JOB_NUM: many"))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 255 and r.out == ""
    assert re.search(r"xce\.yaml:\d+: MAX_JOB_NUM: many: must be a whole "
                     r"number from 1 to 2147483646 \(finished jobs\)\n", r.err), r.err
    assert r.err.endswith("Reconfiguration aborted.\n")
    first = _run_jobs(cluster, 1)       # the controller runs on
    yaml.write_text(yaml.read_text().replace("MAX_JOB_NUM: many",
                                             "MAX_JOB_NUM: 1"))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r
    second = _run_jobs(cluster, 1)
    wait_for(lambda: _finished_in(cluster, "lsb.events.2") == [str(first[0])]
             and _finished_in(cluster, "lsb.events.1") == [str(second[0])],
             what="one finished job a file")


def test_every_lsb_acct_record_reads_with_a_reader_of_the_documented_layout(
        cluster):
    from tests.lib.lsbacct_reader import PLAIN, read_record
    done = cluster.submit("-J", 'quoted "name"', "-P", "proj", "echo hi")
    failed = cluster.submit("-n", "2", "exit 3")
    array = cluster.submit("-J", "arr[1-2]", "true")
    cluster.wait_stat(done, "DONE")
    cluster.wait_stat(failed, "EXIT")
    wait_for(lambda: cluster.stat(array) == "DONE", what="the array")
    lines = []

    def all_written():
        lines[:] = (cluster.logdir / "lsb.acct").read_text().splitlines()
        return len(lines) >= 4
    wait_for(all_written, what="four JOB_FINISH records")
    recs = [read_record(line) for line in lines]        # raises if short
    assert all(set(PLAIN) <= set(r) for r in recs)
    by_id = {(r["jobId"], r["idx"]): r for r in recs}
    assert by_id[(done, 0)]["jobName"] == 'quoted "name"'
    assert by_id[(done, 0)]["projectName"] == "proj"
    assert by_id[(failed, 0)]["exitStatus"] == 3 << 8
    assert by_id[(failed, 0)]["numAllocSlots"] == 2
    user = cluster.run("id", "-un").out.strip()
    assert by_id[(done, 0)]["chargedSAAP"] == f"/{user}"    # no group
    assert {(array, 1), (array, 2)} <= set(by_id)
    assert cluster.run("bacct", str(done)).rc == 0      # bacct still reads
    assert cluster.run("bhist", "-l", str(failed)).rc == 0


def test_every_lsb_events_record_reads_with_a_reader_of_the_documented_layout(
        make_cluster):
    """Submit, run, finish, fail, kill (running and pending), modify,
    move, switch, stop/resume, requeue, post, queue and host control, a
    reconfig and a restart: every record of the run reads whole with
    tests/lib/lsbevents_reader (nothing missing, nothing left over)."""
    # -sp needs MAX_USER_PRIORITY (else "Job priority control undefined").
    cluster = make_cluster(extra_params="  MAX_USER_PRIORITY: 10\n")
    from tests.lib.lsbevents_reader import LAYOUTS
    done = cluster.submit("-J", 'quoted "name"', "-P", "proj", "echo hi")
    source = cluster.root / "staged.txt"
    source.write_text("data\n")
    copy = f"{cluster.root}/copied.txt"
    failed = cluster.submit("-n", "2", "-sp", "7", "-f", f"{source} > {copy}",
                            "-Jd", "a description", "exit 3")
    array = cluster.submit("-J", "arr[1-2]", "true")
    running = cluster.submit("sleep 60")
    first = cluster.submit("-H", "true")
    held = cluster.submit("-H", "true")     # btop moves it before *first*
    cluster.wait_stat(running, "RUN")
    for args in (("bmod", "-J", "renamed", "-W", "5", str(held)),
                 ("btop", str(held)), ("bswitch", "normal", str(held)),
                 ("bpost", "-d", "a note", str(held)),
                 ("bstop", str(running)), ("bresume", str(running)),
                 ("bkill", str(held), str(first))):
        r = cluster.run(*args)
        assert r.rc == 0, (args, r)
    r = cluster.run("brequeue", str(running))
    assert r.rc == 0, r
    cluster.wait_stat(running, "RUN")
    assert cluster.run("bkill", str(running)).rc == 0
    for jobid, stat in ((done, "DONE"), (failed, "EXIT"), (held, "EXIT"),
                        (first, "EXIT"), (running, "EXIT")):
        cluster.wait_stat(jobid, stat)
    wait_for(lambda: cluster.stat(array) == "DONE", what="the array")
    for args in (("badmin", "qclose", "-C", "disk swap", "normal"),
                 ("badmin", "qopen", "normal"), ("badmin", "hclose"),
                 ("badmin", "hopen", "-C", "back"), ("badmin", "reconfig")):
        r = cluster.run(*args)
        assert r.rc == 0, (args, r)
    cluster.kill_controller(signal.SIGTERM)
    cluster.start()
    wanted = {"JOB_NEW", "JOB_START", "JOB_START_ACCEPT", "JOB_EXECUTE",
              "JOB_STATUS", "JOB_SIGNAL", "JOB_MODIFY2", "JOB_MOVE",
              "JOB_SWITCH", "JOB_EXT_MSG", "JOB_REQUEUE", "MBD_START",
              "QUEUE_CTRL", "HOST_CTRL"}

    def all_written(recs):
        return {r["type"] for r in recs} >= wanted and sum(
            r["type"] == "JOB_STATUS" and r["jStatus"] in (32, 64)
            for r in recs) >= 7 and sum(
            r["type"] == "MBD_START" for r in recs) == 2
    recs = cluster.wait_lsb_events(until=all_written)   # raises if one is off
    assert {r["type"] for r in recs} <= set(LAYOUTS)
    status = [r for r in recs if r["type"] == "JOB_STATUS"]
    ended = {(r["jobId"], r["idx"]): r for r in status
             if r["jStatus"] in (32, 64)}
    assert ended[(done, 0)]["jStatus"] == 64
    assert ended[(failed, 0)]["exitStatus"] == 3 << 8
    assert {(array, 1), (array, 2)} <= set(ended)
    assert all(r["maskedJStatus"] == r["jStatus"] for r in status)
    new = {(r["jobId"], r["idx"]): r for r in recs if r["type"] == "JOB_NEW"}
    assert new[(done, 0)]["jobName"] == 'quoted "name"'
    # schedHostType: the submission host's type, as lshosts shows it.
    sub = cluster.run("bjobs", "-noheader", "-o", "from_host",
                      str(done)).out.split()[0]
    types = {w[0]: w[1] for w in (line.split() for line in cluster.run(
        "lshosts", "-w").out.splitlines()[1:]) if len(w) > 1}
    assert types.get(sub), (sub, types)
    assert new[(done, 0)]["schedHostType"] == types[sub]
    assert (new[(done, 0)]["queue"], new[(done, 0)]["projectName"],
            new[(done, 0)]["command"]) == ("normal", "proj", "echo hi")
    job = new[(failed, 0)]
    assert (job["numProcessors"], job["maxNumProcessors"]) == (2, 2)
    assert (job["userPriority"], job["options2"] & 0x200) == (7, 0x200)
    assert job["nxf[]"] == [(str(source), copy, 1)]     # XF_OP_SUB2EXEC
    assert job["jobDescription"] == "a description"
    # SUB_JOB_NAME; SUB_OTHER_FILES (-f)
    assert new[(done, 0)]["options"] == 0x01
    assert job["options"] == 0x80000
    assert new[(first, 0)]["options2"] & 0x1            # -H: SUB2_HOLD
    # The array: one JOB_NEW, as LSF logs it, with idx 0 and its name.
    assert [(i, r["jobName"]) for (j, i), r in new.items() if j == array] \
        == [(0, "arr[1-2]")]
    user = cluster.run("id", "-un").out.strip()
    ctrl = [(r["type"], r["opCode"], r["userName"], r["message"])
            for r in recs if r["type"] in ("QUEUE_CTRL", "HOST_CTRL")]
    assert ctrl == [("QUEUE_CTRL", 2, user, "disk swap"),
                    ("QUEUE_CTRL", 1, user, ""), ("HOST_CTRL", 2, user, ""),
                    ("HOST_CTRL", 1, user, "back")]
    start = [r for r in recs if r["type"] == "JOB_START"
             and r["jobId"] == failed]
    assert start[0]["numExHosts"] == start[0]["numAllocSlots"] == 2
    modify = [r for r in recs if r["type"] == "JOB_MODIFY2"]
    assert modify[0]["jobName"] == "renamed"
    assert modify[0]["rLimits9"] == 300
    assert cluster.run("bhist", "-l", str(held)).rc == 0    # still reads


def test_job_new_carries_bsubs_execution_options(cluster, tmp_path):
    """Each execution option of bsub lands in its JOB_NEW field or bit
    (LSF 10.1's layout, read by the independent reader)."""
    r = cluster.run("bsub", "-H", "-b", "2037:12:31:10:00", "-t",
                    "2037:12:31:23:00", "-E", "echo pre", "-Ep", "echo post",
                    "-L", "/bin/sh", "-u", "ann@example.org", "-B", "-N",
                    "-We", "5", "-oo", str(tmp_path / "o"), "-eo",
                    str(tmp_path / "e"), "-Q", "3 4", "-r", "-Jd", "nightly",
                    "-outdir", str(tmp_path / "od_%J"), "true")
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    job = cluster.wait_lsb_events("JOB_NEW", jobid)[0]
    assert (job["preExecCmd"], job["postExecCmd"], job["loginShell"],
            job["mailUser"], job["requeueEValues"], job["jobDescription"],
            job["runtimeEstimation"]) == (
        "echo pre", "echo post", "/bin/sh", "ann@example.org", "3 4",
        "nightly", 300)
    assert job["outdir"] == str(tmp_path / "od_%J")
    assert job["beginTime"] > 0 and job["termTime"] > job["beginTime"]
    # SUB_NOTIFY_END|BEGIN, SUB_RERUNNABLE, SUB_PRE_EXEC, SUB_LOGIN_SHELL,
    # SUB_MAIL_USER, SUB_OUT_FILE, SUB_ERR_FILE
    for bit in (0x80, 0x100, 0x4000, 0x100000, 0x200000, 0x400000, 0x10,
                0x20):
        assert job["options"] & bit, hex(bit)
    # SUB2_HOLD, SUB2_OVERWRITE_OUT_FILE / _ERR_FILE
    for bit in (0x1, 0x400000, 0x800000):
        assert job["options2"] & bit, hex(bit)
    # SUB3_POST_EXEC, SUB3_RUNTIME_ESTIMATION, SUB3_JOB_REQUEUE
    for bit in (0x10, 0x80, 0x200):
        assert job["options3"] & bit, hex(bit)
    assert not job["options3"] & 0x100         # -r: not SUB3_NOT_RERUNNABLE
    assert cluster.run("bkill", str(jobid)).rc == 0
    # -rn: SUB3_NOT_RERUNNABLE, and no SUB_RERUNNABLE.
    jobid = cluster.submit("-H", "-rn", "true")
    job = cluster.wait_lsb_events("JOB_NEW", jobid)[0]
    assert job["options3"] & 0x100 and not job["options"] & 0x4000
    assert cluster.run("bkill", str(jobid)).rc == 0
