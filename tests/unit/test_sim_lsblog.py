"""xce sim's reader of LSF's logs reads back what xce's writers write, and
counts a line it cannot read."""

import json

from xce.sim import lsblog
from xce.store.lsbfiles import records
from xce.store.schema import JOB_COLUMNS

SPEC = {"queue": "normal", "nslots": [2, 4], "resreq": ["span[hosts=1]"],
        "asked_hosts": ["h1", "h2"], "runlimit": 5, "cwd": "/w"}


def _job(**kw):
    job = dict.fromkeys(JOB_COLUMNS)
    job.update(jobid=7, idx=0, user="ann", queue="normal", name="j",
               command="sleep 9", submit_time=100.0, start_time=110.0,
               end_time=119.0, exec_hosts="h1 h1", spec=json.dumps(SPEC))
    job.update(kw)
    return job


def _row(seq, t, kind, data, job):
    return (seq, t, kind, job["jobid"], job["idx"], json.dumps(data),
            *[job[c] for c in JOB_COLUMNS])


def _check(trace):
    (tj,) = trace.jobs
    assert (tj.number, tj.submit, tj.run, tj.procs, tj.user) == \
        (7, 100.0, 9.0, 2, "ann")
    assert tj.estimate == 300.0
    for key in ("queue", "nslots", "asked_hosts", "runlimit"):
        assert tj.spec[key] == SPEC[key], key
    assert tj.spec["resreq"] == ["span[hosts=1]"]


def test_lsb_acct_and_lsb_events_give_the_same_job(tmp_path):
    job = _job()
    events, acct = [], []
    records(_row(1, 100, "SUBMIT", {}, job), events, acct)
    records(_row(2, 110, "START", {"hosts": ["h1", "h1"]}, job), events,
            acct)
    records(_row(3, 110, "RUNNING", {"pid": 5}, job), events, acct)
    records(_row(4, 119, "STATUS", {"stat": "DONE", "exit_code": 0}, job),
            events, acct)
    (tmp_path / "lsb.events").write_text("# 0\n" + "".join(events) +
                                         "garbage\n")
    (tmp_path / "lsb.acct").write_text("".join(acct))
    assert lsblog.is_log(tmp_path / "lsb.events")
    assert lsblog.is_log(tmp_path / "lsb.acct")
    ev = lsblog.read(tmp_path / "lsb.events")
    _check(ev)
    assert ev.bad == [(len(events) + 2, "not a record xce can read")]
    ac = lsblog.read(tmp_path / "lsb.acct")
    _check(ac)
    assert ac.bad == []


def test_a_job_that_never_ended_is_counted(tmp_path):
    job = _job()
    events, acct = [], []
    records(_row(1, 100, "SUBMIT", {}, job), events, acct)
    (tmp_path / "lsb.events").write_text("".join(events))
    trace = lsblog.read(tmp_path / "lsb.events")
    assert trace.jobs == [] and len(trace.bad) == 1


def test_an_lsb_events_of_the_layout_before_lsf_10_1s_whole_one(tmp_path):
    """xce wrote JOB_START without userGroup and JOB_STATUS without jFlags
    before: idx is still found in both (element 3 of an array here)."""
    job = _job(idx=3)
    events, acct = [], []
    records(_row(1, 100, "SUBMIT", {}, job), events, acct)
    events += [
        '"JOB_START" "10.1" 110 7 4 0 0 1.0 2 "h1" "h1" "" "" 0 3 '
        '"span[hosts=1]"\n',
        '"JOB_START_ACCEPT" "10.1" 110 7 5 5 3\n',
        '"JOB_STATUS" "10.1" 119 7 64 0 0 0.0000 119 0 0 3 0 0\n']
    (tmp_path / "lsb.events").write_text("# 0\n" + "".join(events))
    trace = lsblog.read(tmp_path / "lsb.events")
    assert trace.bad == []
    _check(trace)


# A JOB_NEW as xce wrote it before LSF 10.1's whole layout (no options2
# after options, no spool files before subHomeDir, no timeEvent).
_OLD_JOB_NEW = (
    '"JOB_NEW" "10.1" 100 7 0 0 2 100 0 0 0 0 0 "ann" -1 -1 -1 -1 -1 -1 -1 '
    '-1 -1 300 -1 "" 1.00 18 "normal" "span[hosts=1]" "" "/w" "" "" "" "" '
    '"" "" 2 "h1" "h2" "" "" "j" "sleep 9" 0 "" "default" 4 "" "" 0 0 "" '
    '"" "" -1 ""\n')


# A JOB_NEW as xce wrote it for a while, in the order of LSBLIB's
# jobNewLog structure (options2 right after options, the spool files
# before subHomeDir, timeEvent after dependCond).
_STRUCT_ORDER_JOB_NEW = (
    '"JOB_NEW" "10.1" 100 7 0 262148 0 2 100 0 0 0 0 0 "ann" -1 -1 -1 -1 '
    '-1 -1 -1 -1 -1 300 -1 "" 1.00 18 "normal" "span[hosts=1]" "" "/w" "" '
    '"" "" "" "" "" "" "" "" 2 "h1" "h2" "" "" "j" "sleep 9" 0 "" "" '
    '"default" 0 4 "" "" "" "" 0 -1 "" "" "" -1 "" "" 0 "" 0 "" "" -1 "" '
    '"" "" 0 "" -1 "" -1 "" 0 0 0\n')


def _read_with_new(tmp_path, job_new, job=None):
    job = job or _job()
    events, acct = [job_new], []
    records(_row(2, 110, "START", {"hosts": ["h1", "h1"]}, job), events,
            acct)
    records(_row(3, 110, "RUNNING", {"pid": 5}, job), events, acct)
    records(_row(4, 119, "STATUS", {"stat": "DONE", "exit_code": 0}, job),
            events, acct)
    (tmp_path / "lsb.events").write_text("# 0\n" + "".join(events))
    return lsblog.read(tmp_path / "lsb.events")


def test_a_job_new_of_the_layout_before_lsf_10_1s_whole_one(tmp_path):
    trace = _read_with_new(tmp_path, _OLD_JOB_NEW)
    assert trace.bad == []
    _check(trace)


def test_a_job_new_in_jobnewlogs_structure_order_still_reads(tmp_path):
    trace = _read_with_new(tmp_path, _STRUCT_ORDER_JOB_NEW)
    assert trace.bad == []
    _check(trace)


def test_an_interactive_jobs_job_new_has_nios_port_and_still_reads(
        tmp_path):
    """LSF writes niosPort after projectName for an interactive job
    alone: maxNumProcessors and idx are found after it."""
    spec = dict(SPEC, interactive="I")
    job = _job(idx=3, spec=json.dumps(spec))
    events, acct = [], []
    records(_row(1, 100, "SUBMIT", {}, job), events, acct)
    assert ' "default" 0 4 "" ' in events[0]     # niosPort 0, max 4
    trace = _read_with_new(tmp_path, events[0], job)
    assert trace.bad == []
    (tj,) = trace.jobs
    assert tj.spec["nslots"] == [2, 4]


def test_an_array_logged_once_gives_each_element(tmp_path):
    """One JOB_NEW for the whole array (idx 0), as LSF logs it; each
    element runs under its own index."""
    spec = dict(SPEC, name="arr[1-2]", array_name="arr", array_spec="1-2")
    events, acct = [], []
    for seq, idx in ((1, 1), (2, 2)):
        job = _job(idx=idx, name=f"arr[{idx}]", spec=json.dumps(spec))
        records(_row(seq, 100, "SUBMIT", {"array_head": idx == 1}, job),
                events, acct)
    assert len(events) == 1 and '"arr[1-2]"' in events[0]
    for seq, idx in ((3, 1), (6, 2)):
        job = _job(idx=idx, name=f"arr[{idx}]", spec=json.dumps(spec))
        records(_row(seq, 110, "START", {"hosts": ["h1", "h1"]}, job),
                events, acct)
        records(_row(seq + 1, 110, "RUNNING", {"pid": 5}, job), events,
                acct)
        records(_row(seq + 2, 119, "STATUS", {"stat": "DONE"}, job),
                events, acct)
    (tmp_path / "lsb.events").write_text("# 0\n" + "".join(events))
    trace = lsblog.read(tmp_path / "lsb.events")
    assert trace.bad == []
    assert [(j.number, j.spec["name"]) for j in trace.jobs] == [
        (7, "arr[1]"), (7, "arr[2]")]
