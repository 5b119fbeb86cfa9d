"""lsb.acct JOB_FINISH records carry LSF 10.1's whole layout: a reader
written from lsb.acct(5) (tests/lib/lsbacct_reader.py, not from xce's
writer) reads every field of every record, with nothing missing or left
over."""

import json

import pytest

from tests.lib.lsbacct_reader import PLAIN, read_record
from xce.store.lsbfiles import records
from xce.store.schema import JOB_COLUMNS


def _finish_line(job, data):
    row = (1, 1700000100, "FINISH", job["jobid"], job["idx"],
           json.dumps(data)) + tuple(job.get(c) for c in JOB_COLUMNS)
    events, acct = [], []
    records(row, events, acct)
    assert len(acct) == 1
    return acct[0]


def _job(**over):
    spec = {"cwd": "/home/ann/work", "stdout": "out.%J", "runlimit": 10,
            "resreq_merged": "select[type == any] rusage[mem=100]",
            "nslots": [2, 2], "project": "proj \"x\"", "mail_user": "ann"}
    spec.update(over.pop("spec", {}))
    job = {"jobid": 42, "idx": 0, "stat": "DONE", "user": "ann", "uid": 1001,
           "queue": "normal", "name": "my job", "command": 'echo "hi"; true',
           "submit_time": 1700000000, "start_time": 1700000040,
           "end_time": 1700000100, "from_host": "subhost",
           "exec_hosts": "h1 h1", "cpu_time": 1.5, "max_mem": 2048,
           "avg_mem": 1024, "spec": json.dumps(spec)}
    job.update(over)
    return job


def test_a_finished_job_has_every_field_of_the_layout():
    rec = read_record(_finish_line(_job(), {"stat": "DONE", "exit_code": 0,
                                            "end_time": 1700000100}))
    assert set(PLAIN) <= set(rec)
    assert (rec["version"], rec["eventTime"], rec["jobId"], rec["userId"]) \
        == ("10.1", 1700000100, 42, 1001)
    assert (rec["userName"], rec["queue"], rec["jobName"], rec["command"]) \
        == ("ann", "normal", "my job", 'echo "hi"; true')
    assert rec["numExHosts[]"] == [("h1",), ("h1",)]
    assert rec["numAllocSlots"] == 2 and rec["numAllocSlots[]"] == [("h1",),
                                                                ("h1",)]
    assert (rec["jStatus"], rec["exitStatus"], rec["maxRMem"],
            rec["avgMem"]) == (64, 0, 2048, 1024)
    assert rec["ru_utime"] == 1.5 and rec["ru_majflt"] == -1
    assert rec["projectName"] == 'proj "x"'
    assert rec["runLimit"] == 600 and rec["runTime"] == 60
    assert rec["effectiveResReq"] == "select[type == any] rusage[mem=100]"
    assert rec["subcwd"] == "/home/ann/work"
    # Fields xce has no value for, as LSF writes them.
    assert (rec["commandSpool"], rec["sla"], rec["srcJobId"],
            rec["ineligiblePendTime"], rec["numKVP"]) == ("", "", -1, -1, 0)
    # As LSF 10.1 writes them: the job file's name, flow_id a string.
    assert (rec["jobFile"], rec["flow_id"]) == ("1700000000.42", "")


def test_no_run_limit_is_a_run_limit_of_0():
    rec = read_record(_finish_line(_job(spec={"runlimit": None}),
                                   {"stat": "DONE", "exit_code": 0}))
    assert rec["runLimit"] == 0


@pytest.mark.parametrize("over, data", [
    ({"stat": "EXIT", "exec_hosts": ""}, {"stat": "EXIT", "exit_code": 130}),
    ({"idx": 7, "spec": {"asked_hosts": ["a", "b"], "runlimit": None}},
     {"stat": "DONE", "exit_code": 0}),
    ({"start_time": None, "exec_hosts": None, "cpu_time": None,
      "max_mem": None, "spec": {"nslots": None, "cwd": None}},
     {"stat": "EXIT"}),
])
def test_odd_jobs_still_give_whole_records(over, data):
    rec = read_record(_finish_line(_job(**over), data))
    assert set(PLAIN) <= set(rec)


def test_the_reader_refuses_a_record_that_stops_early():
    line = _finish_line(_job(), {"stat": "DONE", "exit_code": 0})
    with pytest.raises(ValueError, match="Not enough fields"):
        read_record(line.rsplit(" ", 3)[0])


def test_options2_and_options3_are_the_jobs_as_in_job_new():
    """-H and -g in options2 (SUB2_HOLD, SUB2_JOB_GROUP), -app and -Jd in
    options3 (SUB3_APP, SUB3_JOB_DESCRIPTION), as LSF's JOB_FINISH has
    the job's own option bits."""
    rec = read_record(_finish_line(
        _job(spec={"hold": True, "job_group": "/g", "app": "fluent",
                   "description": "d"}), {"stat": "DONE", "exit_code": 0}))
    assert (rec["options2"], rec["options3"]) == (0x01 | 0x40000,
                                                  0x01 | 0x2000000)


@pytest.mark.parametrize("spec, saap", [
    ({}, "/ann"),                               # no group: the user's own
    ({"user_group": "chem"}, "/chem/ann"),      # bsub -G
    ({"user_group": "chem", "share_group": "phys"}, "/phys/ann"),
])
def test_charged_saap_is_the_share_account_path_the_job_was_charged_to(
        spec, saap):
    """chargedSAAP (lsb.acct(5): the SAAP charged to the job) is the
    account path, "/user" or "/group/user", not an empty string."""
    rec = read_record(_finish_line(_job(spec=spec),
                                   {"stat": "DONE", "exit_code": 0}))
    assert rec["chargedSAAP"] == saap


def test_charged_saap_of_a_nested_share_group_is_its_whole_path():
    """A job kept its account's path from the top of the queue's share
    tree when it started: chargedSAAP is all of it."""
    rec = read_record(_finish_line(
        _job(spec={"share_group": "sub", "share_path": ["top", "sub", "ann"]}),
        {"stat": "DONE", "exit_code": 0}))
    assert rec["chargedSAAP"] == "/top/sub/ann"


_NESTED = ("cluster: {name: fs, spool: ../spool}\n"
           "parameters: {DEFAULT_QUEUE: fair, MBD_SLEEP_TIME: 10}\n"
           "hosts:\n  h1: {MXJ: 1}\n"
           "queues:\n  fair:\n    PRIORITY: 30\n"
           "    FAIRSHARE: USER_SHARES[[top, 1] [default, 1]]\n"
           "  plain:\n    PRIORITY: 10\n"
           "user_groups:\n"
           "  top: {members: [sub], USER_SHARES: '([sub, 2])'}\n"
           "  sub: {members: [{me}]}\n")


@pytest.mark.parametrize("queue, group, saap", [
    ("fair", None, "/top/sub/{me}"),      # the account the scheduler chose
    ("fair", "sub", "/top/sub/{me}"),     # bsub -G to the nested group
    ("plain", None, "/{me}"),             # no share tree: the user's own
    ("plain", "sub", "/sub/{me}"),
])
def test_a_started_job_keeps_its_share_path_for_charged_saap(
        tmp_path, queue, group, saap):
    """The controller starting a job in a fairshare queue keeps its
    account's path from the top of the tree (Policy.path): its lsb.acct
    chargedSAAP is /top/sub/user, not /sub/user."""
    import os
    import pwd
    from tests.lib.builders import hello, site, submission
    from tests.lib.fake_controller import started_controller
    from xce.store.lsbacct import charged_saap
    me = pwd.getpwuid(os.getuid()).pw_name
    etc = tmp_path / "etc"
    ctl = started_controller(site(etc, _NESTED.replace("{me}", me)), etc,
                             1700000000)
    try:
        spec = submission("sleep 100", queue=queue,
                          **({"user_group": group} if group else {}))
        ctl.spool.put("submit", {"spec": spec})
        ctl.run_once(1700000000, inbox=[("h1", [hello("h1", ncpus=1)])])
        (job,) = ctl.store.load_jobs(False)
        assert job["stat"] == "RUN", job
        assert charged_saap(job, json.loads(job["spec"])) == \
            saap.replace("{me}", me)
    finally:
        ctl.store.close()
