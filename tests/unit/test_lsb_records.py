"""The lsb.events records of job changes (bmod, bswitch, brequeue, btop/bbot,
bpost, signals) and the rotation rules' pure parts."""

import json
import os
import re

from xce.store import lsbrotate
from xce.store.lsbfiles import records
from xce.store.schema import JOB_COLUMNS

JOB = {"jobid": 7, "idx": 0, "user": "nobody-here", "stat": "PEND"}


def _lines(kind, data, jobid=7, idx=0, t=1700000000.5):
    row = (1, t, kind, jobid, idx, json.dumps(data)) + tuple(
        JOB.get(c) for c in JOB_COLUMNS)
    events, acct = [], []
    records(row, events, acct)
    assert acct == []
    return [line.rstrip("\n") for line in events]


def test_every_record_has_type_version_and_time_first():
    for kind, data in (("SWITCH", {"queue": "night", "by": "ann"}),
                       ("REQUEUE", {"stat": "PEND", "by": "ann"}),
                       ("MOVE", {"seq": 3, "position": 2, "top": True}),
                       ("MODIFY", {"set": {"name": "x"}, "unset": []}),
                       ("JOB_MSG", {"msg_id": 1, "user": "ann"}),
                       ("SIGNAL", {"signal": "KILL", "by": "ann"})):
        for line in _lines(kind, data):
            words = line.split(" ")
            assert words[0].startswith('"JOB_') and words[0].endswith('"')
            assert words[1:3] == ['"10.1"', "1700000000"], line


def test_switch_requeue_and_move_fields():
    assert _lines("SWITCH", {"queue": "night", "by": "root"}) == [
        '"JOB_SWITCH" "10.1" 1700000000 0 7 "night" 0 "root" "" -1 "" -1 0 0']
    assert _lines("REQUEUE", {"stat": "PEND", "by": "root"}, idx=3) == [
        '"JOB_REQUEUE" "10.1" 1700000000 7 3',
        '"JOB_STATUS" "10.1" 1700000000 7 1 0 0 0.0000 0 0 0 0 3 0 0 0 0 '
        '"" -1 "" -1 1']
    # base: 1 to the top (btop), 2 to the bottom (bbot)
    assert _lines("MOVE", {"position": 2, "top": False, "by": "root"}) == [
        '"JOB_MOVE" "10.1" 1700000000 0 7 2 2 0 "root" 0 0']
    assert _lines("MOVE", {"position": 1, "top": True, "by": "root"})[0] \
        .split()[5:7] == ["1", "1"]


_WORD = re.compile(r'"((?:[^"]|"")*)"|(\S+)')


def _modify2(line):
    """A JOB_MODIFY2 record read as lsb.events(5) lays it out: each
    optional field read only when its bit is set (an independent reader:
    the bit values are LSF's, written out here)."""
    words = [m.group(1).replace('""', '"') if m.group(1) is not None
             else m.group(2) for m in _WORD.finditer(line)]
    assert words[0] == "JOB_MODIFY2"
    it = iter(words[3:])
    r = {"jobId": next(it)}
    for name in ("options", "options2", "delOptions", "userId"):
        r[name] = int(next(it))
    r["userName"] = next(it)
    for name in ("submitTime", "umask", "numProcessors", "beginTime",
                 "termTime", "sigValue", "restartPid"):
        r[name] = int(next(it))
    opt, opt2 = r["options"], r["options2"]
    if opt & 0x01:
        r["jobName"] = next(it)
    if opt & 0x02:
        r["queue"] = next(it)
    if opt & 0x04:
        r["askedHosts"] = [next(it) for _ in range(int(next(it)))]
    if opt & 0x40000:
        r["resReq"] = next(it)
    r["rLimits"] = [int(next(it)) for _ in range(11)]
    if opt & 0x10000:
        r["hostSpec"] = next(it)
    if opt & 0x20000:
        r["dependCond"] = next(it)
    r["subHomeDir"] = next(it)
    if opt & 0x10:
        r["outFile"] = next(it)
    if opt & 0x20:
        r["errFile"] = next(it)
    if opt & 0x80000:
        r["xf"] = [(next(it), next(it), int(next(it)))
                   for _ in range(int(next(it)))]
    r["jobFile"], r["fromHost"], r["cwd"] = next(it), next(it), next(it)
    if opt & 0x100000:
        r["preExecCmd"] = next(it)
    if opt & 0x400000:
        r["mailUser"] = next(it)
    if opt & 0x2000000:
        r["projectName"] = next(it)
    r["niosPort"], r["maxNumProcessors"] = int(next(it)), int(next(it))
    if opt & 0x200000:
        r["loginShell"] = next(it)
    r["schedHostType"], r["delOptions2"] = next(it), int(next(it))
    if opt2 & 0x200:
        r["userPriority"] = int(next(it))
    for name in ("rsvId", "extsched", "warningTimePeriod", "warningAction",
                 "jobGroup", "sla", "licenseProject", "options3",
                 "delOptions3", "app", "apsString", "postExecCmd",
                 "runtimeEstimation", "requeueEValues", "resizeNotifyCmd",
                 "jobDescription"):
        r[name] = next(it)
    assert next(it, None) is None, "fields left over"
    return r


def test_modify_writes_the_fields_its_options_name():
    r = _modify2(_lines("MODIFY", {
        "set": {"name": "new name", "queue": "night", "runlimit": 10,
                "user_priority": 5, "nslots": [2, 4]},
        "unset": ["memlimit"], "by": "root"}, idx=2)[0])
    assert r["jobId"] == "7[2]" and r["userName"] == "root"
    assert (r["options"], r["options2"], r["delOptions"]) == (0x03, 0x200, 0)
    assert (r["numProcessors"], r["maxNumProcessors"]) == (2, 4)
    assert (r["jobName"], r["queue"]) == ("new name", "night")
    assert r["rLimits"][9] == 600 and r["rLimits"][5] == -2   # -W 10, -Mn
    assert (r["userPriority"], r["delOptions2"]) == (5, 0)


def test_modify_carries_every_field_bmod_changes():
    r = _modify2(_lines("MODIFY", {"set": {
        "asked_hosts": ["hostA", "hostB"], "resreq": ["rusage[mem=1]"],
        "runlimit": 5, "runlimit_host": "hostA", "stdout": "o.txt",
        "stderr": "e.txt", "xfiles": [["in.dat", ">", "in2.dat", "QQ=="]],
        "pre_exec": "/bin/true", "mail_user": "ops@example.com",
        "mail_begin": True, "mail_notify": True, "project": "p1",
        "begin_time": 1700000100, "term_time": 1700009999,
        "job_group": "/g1", "app": "fast", "post_exec": "echo done",
        "estimate": 3, "requeue_exit": "2 EXCLUDE(3)",
        "description": "nightly run", "filelimit": 100}, "unset": []},
        )[0])
    assert r["options"] == (0x04 | 0x10 | 0x20 | 0x80 | 0x100 | 0x10000 |
                            0x40000 | 0x80000 | 0x100000 | 0x400000 |
                            0x2000000)
    assert r["options2"] == 0x40000
    assert int(r["options3"]) == 0x01 | 0x10 | 0x80 | 0x200 | 0x2000000
    assert r["askedHosts"] == ["hostA", "hostB"]
    assert (r["resReq"], r["hostSpec"]) == ("rusage[mem=1]", "hostA")
    assert (r["outFile"], r["errFile"]) == ("o.txt", "e.txt")
    assert r["xf"] == [("in.dat", "in2.dat", 1)]
    assert (r["preExecCmd"], r["mailUser"], r["projectName"]) == (
        "/bin/true", "ops@example.com", "p1")
    assert (r["beginTime"], r["termTime"]) == (1700000100, 1700009999)
    assert r["rLimits"][1] == 100 and r["rLimits"][9] == 300
    assert (r["jobGroup"], r["app"], r["postExecCmd"]) == (
        "/g1", "fast", "echo done")
    assert (r["runtimeEstimation"], r["requeueEValues"],
            r["jobDescription"]) == ("180", "2 EXCLUDE(3)", "nightly run")


def test_modify_w_and_wn_record_the_dependency_as_lsf_does():
    """bmod -w: SUB_DEPEND_COND (0x20000) in options and the condition in
    dependCond, after hostSpec; -wn: the bit in delOptions, no field."""
    r = _modify2(_lines("MODIFY", {"set": {
        "depend": 'done(12) && ended("my job")', "runlimit": 5,
        "runlimit_host": "hostA"}, "unset": []})[0])
    assert r["options"] == 0x20000 | 0x10000
    assert (r["hostSpec"], r["dependCond"]) == ("hostA",
                                                'done(12) && ended("my job")')
    assert r["subHomeDir"] == "" and r["delOptions"] == 0
    r = _modify2(_lines("MODIFY", {"set": {}, "unset": ["depend"]})[0])
    assert (r["options"], r["delOptions"]) == (0, 0x20000)
    assert "dependCond" not in r


def test_modify_oo_and_eo_set_the_overwrite_bits():
    r = _modify2(_lines("MODIFY", {"set": {
        "stdout": "o", "stdout_mode": "w", "stderr": "e",
        "stderr_mode": "a"}, "unset": []})[0])
    assert r["options"] == 0x10 | 0x20 and r["options2"] == 0x400000
    assert (r["outFile"], r["errFile"]) == ("o", "e")


def test_modify_removals_set_del_options():
    r = _modify2(_lines("MODIFY", {"set": {}, "unset": [
        "name", "stdout", "user_priority", "begin_time", "term_time",
        "pre_exec", "mail_user", "mail_begin", "mail_notify", "post_exec",
        "app", "job_group", "estimate", "requeue_exit"]})[0])
    assert r["options"] == 0
    assert r["delOptions"] == 0x01 | 0x10 | 0x80 | 0x100 | 0x100000 | \
        0x400000
    assert r["delOptions2"] == 0x200 | 0x40000
    assert int(r["delOptions3"]) == 0x01 | 0x10 | 0x80 | 0x200
    assert (r["beginTime"], r["termTime"]) == (-2, -2)      # -bn, -tn


def test_bpost_is_an_ext_msg_record():
    assert _lines("JOB_MSG", {"msg_id": 3, "user": "root",
                              "text": 'say "hi"', "size": 12}) == [
        '"JOB_EXT_MSG" "10.1" 1700000000 7 0 3 0 12 1700000000 0 '
        '"say ""hi""" "root"']


def test_signal_names_the_user_who_sent_it():
    assert _lines("SIGNAL", {"signal": "USR1", "by": "root"}) == [
        '"JOB_SIGNAL" "10.1" 1700000000 7 0 0 "USR1" 0 "root" "" -1 "" -1']


def test_rotation_limits_from_params():
    assert lsbrotate.Limits.from_params({}) == lsbrotate.Limits(1000, 0, 0)
    got = lsbrotate.Limits.from_params({"MAX_JOB_NUM": 5,
                                        "ACCT_ARCHIVE_SIZE": "2",
                                        "ACCT_ARCHIVE_AGE": 1})
    assert got == lsbrotate.Limits(5, 2, 1)
    assert not got.acct_due(0, 0, 10 ** 9)            # empty: never
    assert got.acct_due(2049, 10 ** 9, 10 ** 9)       # over 2 KB
    assert got.acct_due(10, 0, 86401)                 # older than a day
    assert not got.acct_due(10, 0, 86400)


def test_acct_archive_time_archives_once_the_clock_passes_it():
    """ACCT_ARCHIVE_TIME: lsb.acct begun before the last hh:mm (local
    time) is due; begun after it, it waits for the next day's."""
    import time
    limits = lsbrotate.Limits.from_params({"ACCT_ARCHIVE_TIME": "02:30"})
    assert limits.acct_at == 150
    day = time.mktime((2026, 3, 10, 0, 0, 0, 0, 0, -1))
    at = day + 150 * 60
    assert limits.acct_due(10, at - 60, at + 60)        # begun 02:29
    assert not limits.acct_due(10, at + 10, at + 3600)  # begun 02:30:10
    assert limits.acct_due(10, at + 10, at + 86400 + 1)  # next day's
    assert not limits.acct_due(0, at - 60, at + 60)     # empty: never
    assert lsbrotate.Limits.from_params({}).acct_at == -1


def test_max_acct_archive_file_deletes_the_oldest(tmp_path):
    for n in (1, 2, 3, 4):
        (tmp_path / f"lsb.acct.{n}").write_text(str(n))
    (tmp_path / "lsb.events.7").write_text("kept")
    lsbrotate.prune_archives(str(tmp_path), "lsb.acct", 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "lsb.acct.1", "lsb.acct.2", "lsb.events.7"]
    lsbrotate.prune_archives(str(tmp_path), "lsb.acct", 0)     # unset
    assert len(list(tmp_path.iterdir())) == 3


def test_archiving_keeps_max_acct_archive_file_archives(tmp_path):
    from xce.store.lsbfiles import EventFiles
    from xce.store.writer import Store
    store = Store(tmp_path / "xce.db")
    files = EventFiles(tmp_path / "logdir", store.db, now=1000)
    files.limits = lsbrotate.Limits.from_params(
        {"ACCT_ARCHIVE_SIZE": 1, "MAX_ACCT_ARCHIVE_FILE": 2})
    for turn in range(4):
        os.write(files.acct_fd, b"x" * 2000)
        files.state.acct_size += 2000
        files.append_new(now=2000 + turn)
    names = sorted(p.name for p in (tmp_path / "logdir").iterdir()
                   if p.name.startswith("lsb.acct"))
    assert names == ["lsb.acct", "lsb.acct.1", "lsb.acct.2"]
    files.close()


def test_state_line_is_fixed_width_and_reads_old_positions():
    state = lsbrotate.LogState(seq=12, events_size=300, finished=4)
    line = state.line()
    assert len(line) == lsbrotate.STATE_WIDTH and line.endswith(b"\n")
    assert lsbrotate.LogState.parse(line.decode()) == state
    old = lsbrotate.LogState.parse("42                  \n")
    assert (old.seq, old.events_size, old.rotating) == (42, -1, "-")
    assert lsbrotate.LogState.parse("garbage") is None


def test_shift_goes_on_from_the_gap_a_crash_left(tmp_path):
    for n in (1, 2, 4, 5):          # .3 had become .4 when the crash came
        (tmp_path / f"lsb.events.{n}").write_text(str(n))
    lsbrotate.shift_archives(str(tmp_path), "lsb.events")
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {
        "lsb.events.2": "1", "lsb.events.3": "2", "lsb.events.4": "4",
        "lsb.events.5": "5"}


def test_a_log_of_an_older_xce_goes_on_where_it_was(tmp_path):
    """A position alone in .xce-seq: nothing is cut, the finished jobs
    already in lsb.events count towards MAX_JOB_NUM."""
    from xce.store.lsbfiles import EventFiles
    from xce.store.writer import Store
    logdir = tmp_path / "logdir"
    logdir.mkdir()
    old = ('# 0\n"JOB_STATUS" "10.1" 5 1 64 0 0 0.0000 5 0 0 0 0 0\n'
           '"JOB_STATUS" "10.1" 6 2 4 0 0 0.0000 0 0 0 0 0 0\n')
    (logdir / "lsb.events").write_text(old)
    (logdir / ".xce-seq").write_text(f"{7:<20d}\n")
    store = Store(tmp_path / "xce.db")
    files = EventFiles(logdir, store.db, now=1000)
    try:
        assert (files.state.seq, files.state.finished) == (7, 1)
        assert files.state.acct_begun == 1000
        assert files.state.events_size == len(old)
        assert (logdir / "lsb.events").read_text() == old
    finally:
        files.close()
        store.close()


def test_queue_and_host_control_records_keep_who_and_the_comment():
    assert _lines("QUEUE_CTRL", {"queue": "night", "op": "qinact",
                                 "by": "root", "comment": 'say "hi"'}) == [
        '"QUEUE_CTRL" "10.1" 1700000000 4 "night" 0 "root" "say ""hi"""']
    assert [line.split(" ")[3] for op in ("hopen", "hclose", "hrestart",
                                          "hshutdown")
            for line in _lines("HOST_CTRL", {"host": "h1", "op": op})] == \
        ["1", "2", "3", "4"]
    # badmin hstartup starts the agent, as LSF starts sbatchd: no record.
    assert _lines("HOST_CTRL", {"host": "h1", "op": "hstartup"}) == []


def test_job_new_reads_whole_with_the_documented_layout():
    from tests.lib.lsbevents_reader import read_record
    spec = {"nslots": [2, 4], "asked_hosts": ["h1"], "hold": True,
            "xfiles": [["in", ">", ""], ["out", "<<", "o"]],
            "estimate": 3, "app": "fluent", "requeue_exit": "1 2",
            "job_group": "/g", "description": "d", "runlimit": 10}
    JOB.update(spec=json.dumps(spec), name="n", command="c", queue="q")
    try:
        (line,) = _lines("SUBMIT", {}, idx=5)
    finally:
        for key in ("spec", "name", "command", "queue"):
            JOB.pop(key)
    r = read_record(line)
    assert (r["jobId"], r["idx"], r["queue"], r["jobName"]) == (7, 5, "q",
                                                                 "n")
    assert (r["numProcessors"], r["maxNumProcessors"]) == (2, 4)
    assert r["numAskedHosts[]"] == [("h1",)]
    assert r["nxf[]"] == [("in", "in", 1), ("out", "o", 10)]
    assert r["options"] == 0x04 | 0x80000          # SUB_HOST, _OTHER_FILES
    assert (r["options2"], r["options3"]) == (
        0x01 | 0x40000, 0x01 | 0x80 | 0x200 | 0x2000000)  # -Jd's bit too
    assert (r["rLimits9"], r["runtimeEstimation"]) == (600, 180)
    assert (r["jobGroup"], r["app"], r["requeueEValues"],
            r["jobDescription"]) == ("/g", "fluent", "1 2", "d")
    assert (r["userPriority"], r["srcJobId"], r["sigValue"]) == (-1, -1,
                                                                 -65535)
    assert "niosPort" not in r                  # not an interactive job


def _job_new(spec, **job):
    JOB.update(spec=json.dumps(spec), name="n", command="c", queue="q",
               submit_time=1700000000, **job)
    try:
        (line,) = _lines("SUBMIT", {})
    finally:
        for key in ("spec", "name", "command", "queue", "submit_time",
                    *job):
            JOB.pop(key)
    return line


def test_job_new_is_in_lsfs_file_order():
    """LSF's file order, not jobNewLog's: a plain job's record has 87
    fields (as LSF 9.1.3 writes one), options2 after loginShell and three
    more strings, the job name at awk's $42; niosPort comes with an
    interactive job alone, jobGroup with its options2 bit alone."""
    from tests.lib.lsbacct_reader import split
    plain = split(_job_new({"cwd": "/w"}))
    assert len(plain) == 87
    assert (plain[6], plain[10], plain[41], plain[52], plain[76]) == (
        "1", "-65535", "n", "0", "/w")  # numProcessors sigValue jobName
                                        # options2 subcwd
    assert plain[38:40] == ["0", ""]    # numAskedHosts, dependCond
    assert plain[37] == "1700000000.7"  # jobFile: submitTime.jobId
    interactive = split(_job_new({"interactive": "I"}))
    assert len(interactive) == 88 and int(interactive[5]) & 0x4000000
    assert interactive[45:48] == ["default", "0", "1"]  # project nios max
    described = split(_job_new({"description": "d"}))
    assert len(described) == 88 and described[67:70] == ["", "d", "0"]
    assert int(described[60]) & 0x2000000      # SUB3_JOB_DESCRIPTION
    grouped = split(_job_new({"job_group": "/g"}))
    assert len(grouped) == 88 and grouped[57:60] == ["-1", "/g", "-1"]
    assert int(grouped[52]) & 0x40000                   # SUB2_JOB_GROUP


def test_a_rerunnable_job_carries_sub_rerunnable_and_rn_does_not():
    from xce.store.lsbfields import submit_options
    assert submit_options({"rerunnable": True}) & 0x4000    # bsub -r
    assert not submit_options({"rerunnable": False}) & 0x4000   # -rn
    assert not submit_options({}) & 0x4000


def test_rn_sets_sub3_not_rerunnable_in_job_new_and_job_modify2():
    """bsub -rn: SUB3_NOT_RERUNNABLE (0x100) in JOB_NEW's options3, as
    LSF's lsbatch.h numbers it; -r and no option leave it clear, and so
    does an application profile's RERUNNABLE=N (the profile's, not a
    bsub option).  bmod -rn sets it in JOB_MODIFY2 beside delOptions'
    SUB_RERUNNABLE."""
    from tests.lib.lsbevents_reader import read_record

    def opts3(spec):
        return read_record(_job_new(spec))["options3"]
    assert opts3({"rerunnable": False}) & 0x100
    assert not opts3({"rerunnable": True}) & 0x100
    assert not opts3({}) & 0x100
    assert not opts3({"rerunnable": False,
                      "app_filled": ["rerunnable"]}) & 0x100
    r = _modify2(_lines("MODIFY", {"set": {"rerunnable": False},
                                   "unset": []})[0])
    assert int(r["options3"]) & 0x100 and r["delOptions"] & 0x4000
    r = _modify2(_lines("MODIFY", {"set": {"rerunnable": True},
                                   "unset": []})[0])
    assert not int(r["options3"]) & 0x100 and r["options"] & 0x4000


def test_job_execute_has_the_fields_lsf_writes_after_idx():
    """After idx: additionalInfo, SLAscaledRunLimit (-1 unset), then
    execRusage, a string, where jobExecuteLog has position, a number;
    22 fields in all, as LSF 9.1.3 writes a plain job's."""
    from tests.lib.lsbacct_reader import split
    from tests.lib.lsbevents_reader import read_record
    JOB.update(user="ann", uid=1001, spec=json.dumps({"cwd": "/w"}))
    try:
        start, execute = _lines("RUNNING", {"pid": 4321}, idx=2)
    finally:
        for key in ("user", "uid", "spec"):
            JOB.pop(key)
    assert start == '"JOB_START_ACCEPT" "10.1" 1700000000 7 4321 4321 2'
    assert len(split(execute)) == 22
    r = read_record(execute)
    assert (r["execCwd"], r["execUsername"], r["jobPid"], r["idx"]) == (
        "/w", "ann", 4321, 2)
    assert (r["SLAscaledRunLimit"], r["execRusage"],
            r["duration4PreemptBackfill"], r["dstJobId"]) == (-1, "", 0, -1)
