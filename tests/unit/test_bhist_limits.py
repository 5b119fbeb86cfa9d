"""bhist -l shows a job's limits after its submission line, in the blocks
bjobs -l prints (hand-made rows, no cluster)."""

import json

from xce.client.history.long import long_history
from xce.client.jobs.long import long_format
from xce.client.text.wrap import unwrap
from xce.lang import rlimits
from xce.store.schema import JOB_COLUMNS

NOW = 1_700_000_000.0
LIMITS = {"runlimit": 10, "runlimit_host": "hostA", "cpulimit": 5,
          "memlimit": 4096, "filelimit": 100, "processlimit": 4,
          "threadlimit": 8, "estimate": 7}


def _row(**spec):
    r = dict.fromkeys(JOB_COLUMNS)
    r.update(jobid=1, idx=0, stat="RUN", user="nosuchuser_xce",
             queue="normal", command="sleep 1", submit_time=NOW - 100,
             start_time=NOW - 50, exec_hosts="node1", nslots=1,
             from_host="login1",
             spec=json.dumps({"project": "default", "nslots": [1, 1],
                              "cwd": "/w", **spec}))
    return r


EVENTS = [(NOW - 100, "SUBMIT", {"queue": "normal"}),
          (NOW - 50, "START", {"hosts": ["node1"]})]


def _bhist(row, queues=None):
    return unwrap(long_history([(row, EVENTS)], now=NOW,
                               queues=queues)).splitlines()


def _block(lines, after, before):
    """The lines strictly between the first line containing *after* and
    the first after it containing *before*."""
    start = next(i for i, x in enumerate(lines) if after in x)
    end = next(i for i, x in enumerate(lines) if i > start and before in x)
    return lines[start + 1:end]


def test_bhist_l_shows_the_limits_after_the_submission_line():
    lines = _bhist(_row(**LIMITS))
    block = _block(lines, "Submitted from host", "Dispatched")
    assert block == [
        "", " CPULIMIT", " 5.0 min",
        "", " RUNLIMIT                ", " 10.0 min of hostA",
        "", " MEMLIMIT", "        4 M",
        "", " FILELIMIT PROCESSLIMIT THREADLIMIT",
        "     100 K            4           8",
        "", " ESTIMATED_RUNTIME:",
        " 7.0 min of login1 based on user provided runtime estimation.", ""]


def test_bhist_l_limit_blocks_are_bjobs_ls():
    row = _row(**LIMITS)
    bjobs = unwrap(long_format([row], None, {}, now=NOW)).splitlines()
    shown = _block(_bhist(row), "Submitted from host", "Dispatched")[:-1]
    at = bjobs.index(" CPULIMIT") - 1
    assert bjobs[at:at + len(shown)] == shown


def test_bhist_l_shows_the_queues_run_limit_and_estimate_for_a_job_without():
    lines = _bhist(_row(), queues={"normal": {"runlimit": [30.0],
                                              "estimated_runtime": 12}})
    block = _block(lines, "Submitted from host", "Dispatched")
    assert block[:3] == ["", " RUNLIMIT                ", " 30.0 min"]
    assert block[-3:] == [
        " ESTIMATED_RUNTIME:",
        " 12.0 min of login1 based on queue configured runtime estimation.",
        ""]


def test_bhist_l_of_a_job_without_limits_has_no_limit_block():
    lines = _bhist(_row())
    assert _block(lines, "Submitted from host", "Dispatched") == []


def _submitted_block(row, submit_data, queues=None):
    events = [(NOW - 100, "SUBMIT", {"queue": "normal", **submit_data}),
              (NOW - 50, "START", {"hosts": ["node1"]})]
    lines = unwrap(long_history([(row, events)], now=NOW,
                                queues=queues)).splitlines()
    return _block(lines, "Submitted from host", "Dispatched")


def test_bhist_l_shows_the_limits_the_job_was_submitted_with():
    # bmod -W 20 -Mn -c 3 since: the row has today's, the event the first.
    row = _row(runlimit=20, cpulimit=3)
    block = _submitted_block(row, {"limits": {"runlimit": 10,
                                              "memlimit": 4096}})
    assert block == ["", " RUNLIMIT                ", " 10.0 min",
                     "", " MEMLIMIT", "        4 M", ""]


def test_bhist_l_of_a_job_submitted_without_limits_shows_none_added_later():
    block = _submitted_block(_row(runlimit=20, memlimit=4096),
                             {"limits": {}})
    assert block == []


def test_bhist_l_of_a_job_from_before_limits_were_recorded_shows_todays():
    block = _submitted_block(_row(runlimit=20), {})
    assert block == ["", " RUNLIMIT                ", " 20.0 min", ""]


def test_bhist_l_shows_the_run_limit_of_the_queue_the_job_was_submitted_to():
    # bswitch since: the row names the queue it is in now.
    row = _row()
    row["queue"] = "long"
    queues = {"normal": {"runlimit": [30.0]}, "long": {"runlimit": [600.0]}}
    block = _submitted_block(row, {"limits": {}}, queues)
    assert block == ["", " RUNLIMIT                ", " 30.0 min", ""]


def test_bhist_l_says_an_estimate_its_profile_gave_at_submission():
    # bmod -We 9 since: the job's own estimate now, its profile's then.
    row = _row(estimate=9)
    block = _submitted_block(row, {"limits": {
        "estimate": 7, "app_filled": ["estimate"]}})
    assert block[-2] == (" 7.0 min of login1 based on application "
                         "configured runtime estimation.")


def test_recorded_limits_are_the_shown_keys_the_spec_sets():
    spec = {"runlimit": 10, "runlimit_host": "hostA", "memlimit": 4096,
            "filelimit": None, "estimate": 7, "command": "sleep 1",
            "app_filled": ["estimate", "resreq"]}
    assert rlimits.submitted(spec) == {
        "runlimit": 10, "runlimit_host": "hostA", "memlimit": 4096,
        "estimate": 7, "app_filled": ["estimate"]}


def test_as_submitted_replaces_the_limits_and_keeps_the_rest():
    now = {"runlimit": 20, "cpulimit": 3, "command": "sleep 1",
           "app_filled": ["resreq", "cpulimit"]}
    then = rlimits.as_submitted(now, {"runlimit": 10})
    assert then == {"runlimit": 10, "command": "sleep 1",
                    "app_filled": ["resreq"]}
    assert rlimits.as_submitted(now, None) is now
