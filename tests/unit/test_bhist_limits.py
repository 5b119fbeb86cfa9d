"""bhist -l shows a job's limits after its submission line, in the blocks
bjobs -l prints (hand-made rows, no cluster)."""

import json

from xce.client.history.long import long_history
from xce.client.jobs.long import long_format
from xce.client.text.wrap import unwrap
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
