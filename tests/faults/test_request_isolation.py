"""One bad request, one bad stored row, one job that cannot start: each is
set aside alone with its reason, and the controller goes on serving.

The first tests drop request files that no command would write (the
commands check the schema first) and that once killed the controller.
"""

import json
import os
import sqlite3

import pytest

from tests.lib.xcecluster import wait_for
from xce.spool.client import new_request_id

SPEC = {"command": "true", "cwd": "/tmp", "nslots": [1, 1]}


def _drop(cluster, data):
    """Spool raw bytes (or a body dict) as a request; return its file name."""
    req_id = new_request_id()
    if isinstance(data, dict):
        data = json.dumps({"version": 1, "id": req_id, **data}).encode()
    tmp = cluster.spool / "tmp" / f"{req_id}.json"
    tmp.write_bytes(data)
    os.rename(tmp, cluster.spool / "incoming" / f"{req_id}.json")
    return f"{req_id}.json"


def _rejected_alone(cluster, name):
    """NAME is in rejected/, its reply is one line, one log line names it
    with its owner; the controller still runs jobs."""
    jobid = cluster.submit("-o", "/dev/null", "true")   # rings the doorbell
    wait_for(lambda: (cluster.spool / "rejected" / name).exists(),
             what=f"{name} to be rejected")
    reply = json.loads((cluster.spool / "replies" / name).read_text())
    assert reply["ok"] is False and "\n" not in reply["error"]
    log = (cluster.spool / "store" / "controller.log").read_text()
    lines = [line for line in log.splitlines() if name in line]
    assert len(lines) == 1, lines
    assert f"from uid {os.getuid()}: " in lines[0]
    assert "Traceback" not in log
    cluster.wait_stat(jobid, "DONE")
    assert cluster.proc.poll() is None
    return reply["error"]


def _spec_without(key):
    spec = dict(SPEC)
    del spec[key]
    return spec


@pytest.mark.parametrize("spec, where", [
    (dict(SPEC, memlimit={"a": 1}), "$.spec.memlimit"),
    (dict(SPEC, command=5), "$.spec.command"),
    (_spec_without("cwd"), "required field `cwd`"),
    (dict(SPEC, command=[]), "$.spec.command"),
], ids=["memlimit_object", "command_number", "no_cwd", "command_list"])
def test_submission_of_the_wrong_shape_is_rejected_alone(cluster, spec,
                                                         where):
    name = _drop(cluster, {"kind": "submit", "spec": spec})
    error = _rejected_alone(cluster, name)
    assert error.startswith("Bad request: ") and where in error
    # Nothing of it was committed: no job but the one that ran.
    r = cluster.run("bjobs", "-a", "-noheader", "-o", "command")
    assert r.out.split() == ["true"]


def test_request_nested_a_thousand_levels_is_rejected_even_at_start(cluster):
    cluster.stop()
    deep = "[" * 1000 + "]" * 1000
    name = _drop(cluster, b'{"version":1,"kind":"submit","id":"%s",'
                 b'"spec":%s}' % (b"x", deep.encode()))
    name2 = _drop(cluster, b'{"x":%s}' % deep.encode())
    cluster.start()
    _rejected_alone(cluster, name)
    assert (cluster.spool / "rejected" / name2).exists()
    assert not os.listdir(cluster.spool / "incoming")


def _long(cluster, command, jobid):
    r = cluster.run(command, "-l", str(jobid))
    return " ".join(r.joined.split())


def _pending_jobs(cluster, count):
    assert cluster.run("badmin", "qinact", "normal").rc == 0
    return [cluster.submit("-o", "/dev/null", "true") for _ in range(count)]


def _edit_store(cluster, sql, *args, name="xce.db"):
    db = sqlite3.connect(cluster.spool / "store" / name)
    with db:
        db.execute(sql, args)
    db.close()


def test_stored_row_that_cannot_be_loaded_is_set_aside(cluster):
    bad_type, not_json, good = _pending_jobs(cluster, 3)
    cluster.stop()
    _edit_store(cluster, "UPDATE jobs SET spec=? WHERE jobid=?",
                '{"command": 5}', bad_type)
    _edit_store(cluster, "UPDATE jobs SET spec=? WHERE jobid=?",
                "{not json", not_json)
    cluster.start()
    for jobid, why in ((bad_type, "Expected `str`, got `int` - at "
                        "`$.command`"), (not_json, "spec is not JSON")):
        cluster.wait_stat(jobid, "EXIT")
        text = _long(cluster, "bjobs", jobid)
        assert "Completed <exit>; Job set aside by the controller: " in text
        assert why in text
        assert "Job set aside by the controller: " in \
            _long(cluster, "bhist", jobid)
    # The row is kept as it was for the administrator.
    db = sqlite3.connect(cluster.spool / "store" / "xce.db")
    spec = db.execute("SELECT spec FROM jobs WHERE jobid=?",
                      (bad_type,)).fetchone()[0]
    db.close()
    assert spec == '{"command": 5}'
    # Listings that read the spec in their query pass over the row that
    # does not parse (SQLite's json_extract would fail the whole query).
    for argv in (["-a"], ["-a", "-P", "default"], ["-a", "-g", "/x"],
                 ["-a", "-G", "nogroup"]):
        r = cluster.run("bjobs", *argv)
        assert r.rc in (0, 255) and "Cannot read" not in r.err, (argv, r)
    assert cluster.run("badmin", "qact", "normal").rc == 0
    cluster.wait_stat(good, "DONE")


def test_job_that_cannot_be_started_ends_exit_with_the_reason(cluster):
    """Private data that does not parse, or is gone: the job ends EXIT
    with the reason (never runs with an empty environment)."""
    broken, gone, good = _pending_jobs(cluster, 3)
    cluster.stop()
    _edit_store(cluster, "UPDATE job_data SET env=? WHERE jobid=?",
                "{not json", broken, name="private.db")
    _edit_store(cluster, "DELETE FROM job_data WHERE jobid=?", gone,
                name="private.db")
    cluster.start()
    assert cluster.run("badmin", "qact", "normal").rc == 0
    for jobid in (broken, gone):
        cluster.wait_stat(jobid, "EXIT")
    cluster.wait_stat(good, "DONE")
    for command in ("bjobs", "bhist"):
        text = _long(cluster, command, broken)
        assert "Job set aside by the controller: cannot be started: " \
            "JSONDecodeError" in text, text
    text = _long(cluster, "bjobs", gone)
    assert "its environment and job script are missing from the " \
        "controller's private store" in text, text
    assert cluster.proc.poll() is None


def test_bsub_refuses_an_output_path_longer_than_path_max(cluster):
    """The command checks the schema first: one line, exit 255, nothing
    spooled."""
    r = cluster.run("bsub", "-o", "/tmp/" + "x" * 5000, "true")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("Bad request: $.spec.stdout: length 5005 ")
    assert r.err.count("\n") == 1
    assert not os.listdir(cluster.spool / "incoming")
