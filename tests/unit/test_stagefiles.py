"""bsub -f: the argument read as LSF reads it, its bounds, and the names
the controller works out."""

import base64

import pytest

from xce.client.submit import stagefiles as parser
from xce.client.submit.stagefiles import BadStageFile, entries, parse
from xce.model import stagefiles


@pytest.mark.parametrize("arg, want", [
    ("in.txt > in.txt", ("in.txt", ">", "in.txt")),
    ("in.txt >", ("in.txt", ">", "in.txt")),
    ("/a/b c.txt < out", ("/a/b c.txt", "<", "out")),
    ("log << remote.log", ("log", "<<", "remote.log")),
    ("x >< y", ("x", "><", "y")),
    ("x <> y", ("x", "<>", "y")),
    ("  x   <   ", ("x", "<", "x")),
    ("r%J.out < r%I", ("r%J.out", "<", "r%I")),
])
def test_each_operator_and_the_default_remote_name(arg, want):
    assert parse(arg) == want


@pytest.mark.parametrize("arg, msg", [
    ("a >> b", 'Invalid file operation ">>" specification in -f "a >> b"'),
    ("a b", 'Invalid file operation "" specification in -f "a b"'),
    ("a>b", 'Invalid file operation ">" specification in -f "a>b"'),
    ("a >b", 'Invalid file operation ">" specification in -f "a >b"'),
    ("a > b > c", 'Invalid file operation ">" specification in -f '
                  '"a > b > c"'),
    (" > b", 'Invalid local file specification in -f " > b"'),
    ("> b", 'Invalid local file specification in -f "> b"'),
])
def test_bad_arguments_get_lsfs_message(arg, msg):
    with pytest.raises(BadStageFile) as e:
        parse(arg)
    assert str(e.value) == msg


def test_a_sent_file_is_read_now_and_a_returned_one_is_not(tmp_path):
    (tmp_path / "in.txt").write_bytes(b"\x00data\n")
    got = entries(["in.txt > r.txt", "out.txt < out.txt"], str(tmp_path))
    assert got == [["in.txt", ">", "r.txt",
                    base64.b64encode(b"\x00data\n").decode()],
                   ["out.txt", "<", "out.txt", None]]


def test_a_missing_or_unreadable_local_file_is_named(tmp_path):
    with pytest.raises(BadStageFile) as e:
        entries(["nothere > x"], str(tmp_path))
    assert str(e.value) == \
        f"-f: {tmp_path}/nothere: No such file or directory"
    (tmp_path / "d").mkdir()
    with pytest.raises(BadStageFile) as e:
        entries(["d > x"], str(tmp_path))
    assert "not a regular file" in str(e.value)


def test_files_above_the_bound_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(parser, "STAGE_MAX", 10)
    (tmp_path / "a").write_bytes(b"123456")
    with pytest.raises(BadStageFile) as e:
        entries(["a > a", "a > b"], str(tmp_path))
    assert "more than the 10 bytes a job may carry" in str(e.value)


def test_a_sent_file_may_not_name_the_job_id(tmp_path):
    with pytest.raises(BadStageFile) as e:
        entries(["in.%J > x"], str(tmp_path))
    assert "%J and %I" in str(e.value)


def test_too_many_files(tmp_path):
    with pytest.raises(BadStageFile):
        entries(["a < a"] * (stagefiles.FILES_MAX + 1), str(tmp_path))


def test_local_names_of_copies_back():
    assert stagefiles.local_path("o.%J", "/sub") == "/sub/o.%J"
    assert stagefiles.expand("o.%J.%I", 7, 2) == "o.7.2"
    assert stagefiles.local_path("o", "/sub", "/sub/out/7") == "/sub/out/7/o"
    assert stagefiles.local_path("/abs/o", "/sub", "/x") == "/abs/o"


def test_a_copy_back_left_by_a_stopped_controller_is_written_at_start(
        tmp_path):
    """The controller's files under spool/stage/ say what to write where;
    at start they are queued, written by a writer process, and removed."""
    import json
    import os
    from types import SimpleNamespace
    from xce.controller import stage
    spool = tmp_path / "spool"
    (spool / "stage").mkdir(parents=True)
    data = spool / "stage" / "7.0.1"
    data.write_bytes(b"result\n")
    target = tmp_path / "res.7"
    (spool / "stage" / "7.0.1.json").write_text(json.dumps({
        "key": [7, 0], "uid": os.getuid(), "gid": os.getgid(), "op": "<",
        "local": str(target), "remote": "res", "from_host": "h",
        "data": "ignored"}))
    ctl = SimpleNamespace(cfg=SimpleNamespace(spool=spool), stage_copies=[],
                          stage_writers={})
    stage.load(ctl)
    stage.load(ctl)             # once only
    assert [c["data"] for c in ctl.stage_copies] == [str(data)]
    stage.start_copies(ctl)
    (pid, copy), = ctl.stage_writers.items()
    _, status = os.waitpid(pid, 0)
    assert stage.reaped(ctl, pid, status)
    assert target.read_text() == "result\n"
    assert list((spool / "stage").iterdir()) == []
