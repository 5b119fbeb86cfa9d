"""xce.model.jobgroups: group paths, the room left under limits, and
DEFAULT_JOBGROUP's substitutions."""

import pytest

from xce.model import jobgroups as jg


@pytest.mark.parametrize("path, ok", [
    ("/a", True), ("/a/b.c_d-1", True), ("/a/", True), ("/", False),
    ("", False), ("a/b", False), ("/a b", False), ("/a//b", False),
    ("/a/%u", False)])
def test_valid_paths(path, ok):
    assert jg.valid(path) is ok


def test_chain_and_room():
    assert jg.chain("/a/b/c") == ["/a", "/a/b", "/a/b/c"]
    assert jg.chain("/") == []
    assert jg.room({"/a": 3, "/a/b": None, "/x": 1},
                   {"/a/b": 2, "/a": 1, "/y": 5}) == {"/a": 0, "/x": 1}
    assert jg.is_under("/a/b", "/a") and not jg.is_under("/ab", "/a")


def test_default_jobgroup_substitution():
    assert jg.substitute("/%u/%q/%p/%%", "ann", "normal", None) == \
        "/ann/normal/default/%"
