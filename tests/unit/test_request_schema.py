"""The declared request schema: the controller's reading (msgspec) refuses
what it must, and the commands' reading (stdlib) agrees with it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lib import requestfuzz
from xce.spool import check, fields, schema

ID = "00000000000000000001-1-00000001"
SPEC = {"command": "true", "cwd": "/tmp", "nslots": [1, 1]}


def _doc(kind="submit", **body):
    return {"version": 1, "kind": kind, "id": ID, **body}


def _decode(doc):
    return schema.decode(json.dumps(doc).encode())


def _refused(doc, where):
    with pytest.raises(schema.BadRequest) as e:
        _decode(doc)
    assert where in str(e.value)
    assert "\n" not in str(e.value)
    return str(e.value)


def test_every_kind_the_controller_handles_is_declared():
    from xce.controller import (blaunch, claims, explain, gangs, jobgroups,
                                messages, modify, peek)
    handled = {"submit", "submit_many", "control", "admin", "ping",
               blaunch.KIND, jobgroups.KIND, gangs.KIND, peek.KIND,
               claims.KIND,
               explain.KIND, *messages.KINDS, *modify.KINDS}
    assert set(fields.REQUESTS) == handled


def test_a_valid_submission_comes_back_as_sent():
    doc = _doc(spec=dict(SPEC, name=None, memlimit=1024))
    assert _decode(doc) == doc


def test_memlimit_of_the_wrong_type_is_refused():
    _refused(_doc(spec=dict(SPEC, memlimit={"a": 1})), "$.spec.memlimit")


def test_numeric_command_is_refused():
    _refused(_doc(spec=dict(SPEC, command=5)), "$.spec.command")


def test_submission_without_cwd_is_refused():
    spec = dict(SPEC)
    del spec["cwd"]
    assert "`cwd`" in _refused(_doc(spec=spec), "$.spec")


def test_list_command_is_refused():
    _refused(_doc(spec=dict(SPEC, command=[])), "$.spec.command")


def test_runtime_keys_cannot_be_sent_by_a_user():
    _refused(_doc(spec=dict(SPEC, uid=0)), "unknown field `uid`")
    _refused(_doc("modify", ids=[["1", 1, None]], set={"uid": 0}),
             "unknown field `uid`")
    _refused(_doc("modify", ids=[["1", 1, None]], unset=["cwd"]),
             "$.unset[0]")


@pytest.mark.parametrize("levels", [1000, 100_000])
def test_deep_nesting_is_refused(levels):
    for value in ("[" * levels + "]" * levels,
                  '{"a":' * levels + "1" + "}" * levels):
        text = ('{"version":1,"kind":"submit","id":"%s","spec":%s}'
                % (ID, value))
        with pytest.raises(schema.BadRequest):
            schema.decode(text.encode())
        # Before the kind is known too (msgspec skips the value).
        text = '{"x":%s,"kind":"submit"}' % value
        with pytest.raises(schema.BadRequest):
            schema.decode(text.encode())


def test_out_of_range_and_too_long_values_are_refused():
    _refused(_doc(spec=dict(SPEC, nslots=[1, 2**31])), "$.spec.nslots[1]")
    _refused(_doc(spec=dict(SPEC, command="x" * (fields.ARG_MAX_STR + 1))),
             "$.spec.command")
    _refused(_doc("move", ids=[]), "$.ids")
    _refused(_doc("control", action="explode"), "$.action")


def test_unknown_kind_and_wrong_version_are_refused():
    _refused(_doc("frobnicate"), "$.kind")
    _refused(dict(_doc(spec=SPEC), version=2), "$.version")


def test_stored_spec_with_a_wrong_type_is_found():
    row = {"jobid": 1, "idx": 0, "user": "u", "queue": "normal",
           "command": "true", "nslots": 1, "attempt": 0, "seq": 1,
           "stat": "PEND"}
    spec = dict(SPEC, uid=0, gid=0)
    assert schema.stored_job_problem(row, spec) is None
    assert "$.command" in schema.stored_job_problem(row, dict(spec,
                                                              command=5))
    assert "jobid" in schema.stored_job_problem(dict(row, jobid="1"), spec)
    assert "stat" in schema.stored_job_problem(dict(row, stat="X"), spec)


def _body(data):
    """The request in a fuzz file as the command would have built it, or
    None when the file is no such thing."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("kind"), str) \
            or doc["kind"] not in fields.REQUESTS \
            or type(doc.get("version")) is not int or doc["version"] != 1 \
            or doc.get("id") != ID:
        return None
    return {k: v for k, v in doc.items() if k not in ("version", "id",
                                                      "kind")}


def test_commands_and_controller_agree_on_fuzzed_requests():
    compared = 0
    for _, data in requestfuzz.files(7, 3000):
        try:
            doc = json.loads(data)
            doc["id"] = ID
            data = json.dumps(doc).encode()
        except (ValueError, TypeError, RecursionError):
            continue
        body = _body(data)
        if body is None:
            continue
        try:
            schema.decode(data)
            controller_ok = True
        except schema.BadRequest:
            controller_ok = False
        try:
            check.check_request(json.loads(data)["kind"], body)
            command_ok = True
        except check.BadRequest:
            command_ok = False
        assert command_ok == controller_ok, data[:300]
        compared += 1
    assert compared > 1000


def test_the_spool_page_names_every_kind_and_spec_field():
    from pathlib import Path
    page = (Path(__file__).parents[2] / "man" / "man5" /
            "xce-spool.5").read_text()
    words = set(page.replace("\\", " ").replace("(", " ").replace(
        ",", " ").split())
    missing = [name for name in (*fields.REQUESTS, *fields.SPEC,
                                 *fields.RUNTIME) if name not in words]
    assert missing == []


def test_the_spool_page_lists_exactly_what_a_modify_request_may_change():
    import re
    from pathlib import Path
    page = (Path(__file__).parents[2] / "man" / "man5" /
            "xce-spool.5").read_text()
    start = page.index("request may set")
    part = page[start:page.index(".SS Writing a request atomically")]
    listed = set(re.findall(r"^\.BR? (\w+)", part, re.M)) - {"bmod"}
    assert listed == set(fields.CHANGES)


BUILT_BY = """
import sys
sys.path.insert(0, {repo!r})
from xce.spool import check, fields
check.check_request({kind!r}, {body!r})
print(sorted(map(str, fields._built)))
"""


@pytest.mark.parametrize("kind, body, built", [
    ("submit", {"spec": SPEC}, ["('request', 'submit')", "SPEC"]),
    ("control", {"ids": [["1", 1, None]], "action": "kill"},
     ["('request', 'control')"]),
])
def test_a_command_builds_only_its_own_requests_fields(kind, body, built):
    # bsub pays for the submission's fields only, bkill for none of them.
    repo = str(Path(__file__).resolve().parents[2])
    out = subprocess.run([sys.executable, "-S", "-c", BUILT_BY.format(
        repo=repo, kind=kind, body=body)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(built)


def test_unknown_kinds_and_names_of_the_lazy_tables():
    assert fields.request("no_such_kind") is None
    assert fields.request("submit") is fields.REQUESTS["submit"]
    assert fields.struct("spec") is fields.SPEC
    with pytest.raises(AttributeError):
        fields.NO_SUCH_TABLE
    with pytest.raises(check.BadRequest, match="unknown request kind"):
        check.check_request("no_such_kind", {})


def test_modify_names_one_or_more_jobs_and_move_exactly_one():
    """bmod sends the elements of an index list in one request; btop and
    bbot send one job each."""
    two = [["5[1]", 5, 1], ["5[3]", 5, 3]]
    assert _decode(_doc("modify", ids=two, set={"runlimit": 5}))["ids"] == two
    _refused(_doc("modify", ids=[], set={"runlimit": 5}), "$.ids")
    _refused(_doc("move", ids=two), "$.ids")
