"""The agent's reading of the wrapper's notes on -o/-e files the user
could not open: untrusted files in the user's own directory."""

import os

from xce.agent.joboutput import fallback_output, parse_note, read_user_note
from xce.model.joboutput import fallback_sentences


def test_a_note_gives_the_file_and_the_shells_reason():
    text = "xce-job: 7: cannot create /root/x: Permission denied\n/root/x\n"
    assert parse_note(text) == ("/root/x", "Permission denied")
    assert parse_note("") is None


def test_control_characters_in_a_note_are_replaced():
    assert parse_note("a: b\x1b[2J\n/x\x07\n") == ("/x?", "b?[2J")


def test_a_fifo_planted_as_a_note_is_not_read_and_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "j.oerr")
    assert read_user_note(str(tmp_path / "j.oerr")) == ""


def test_a_symlink_planted_as_a_note_is_not_followed(tmp_path):
    (tmp_path / "secret").write_text("x: y\n/secret\n")
    os.symlink(tmp_path / "secret", tmp_path / "j.eerr")
    assert fallback_output(str(tmp_path / "j"), "/fb") is None


def test_both_streams_moved_are_both_said(tmp_path):
    (tmp_path / "j.oerr").write_text("sh: 1: cannot create /o: Nope\n/o\n")
    (tmp_path / "j.eerr").write_text("sh: 2: cannot create /e: Nope\n/e\n")
    moved = fallback_output(str(tmp_path / "j"), "/fb/1.out")
    assert fallback_sentences(moved) == [
        "Output file </o> could not be opened (Nope); the job's output was "
        "written to </fb/1.out> instead.",
        "Error file </e> could not be opened (Nope); the job's standard "
        "error was written to </fb/1.out> instead."]
    assert fallback_sentences(None) == [] == fallback_sentences("junk")
