"""xce.oslite, the commands' os on posix alone, means what os means."""

import os

import pytest

from xce import oslite

PATHS = ["", ".", "..", "/", "//", "///", "//x", "///x", "a", "a/", "a//b",
         "a/./b/", "a/../b", "../a", "/..", "/../a", "a/b/../../..",
         "lb", "lb/", "lb/c", "lb/..", "abs_c/up", "abs_c/up/b/../..",
         "dangling", "dangling/../y", "missing/../a", "lb/c/up/lb/c",
         "a/b/c/file", "lb/c/file/"]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """Directories, relative and absolute links, a dangling one, a file."""
    monkeypatch.chdir(tmp_path)
    os.makedirs("a/b/c")
    open("a/b/c/file", "w").close()
    os.symlink("a/b", "lb")
    os.symlink(str(tmp_path / "a/b/c"), "abs_c")
    os.symlink("../..", "a/b/c/up")
    os.symlink("nowhere/x", "dangling")
    return tmp_path


@pytest.mark.parametrize("name", ["normpath", "abspath", "dirname",
                                  "isfile", "exists", "realpath"])
def test_path_helpers_answer_as_os_path(tree, name):
    for path in PATHS + [str(tree / p) for p in PATHS]:
        assert getattr(oslite, name)(path) == \
            getattr(os.path, name)(path), path


def test_a_loop_of_links_ends(tree):
    os.symlink("loop1", "loop2")
    os.symlink("loop2", "loop1")
    assert oslite.realpath("loop1/x").startswith(str(tree))


@pytest.mark.parametrize("parts", [("a", "b"), ("/a", "b"), ("a/", "b"),
                                   ("a", "/b"), ("", "b"), ("a", ""),
                                   ("a", "b", "c"), ("a",)])
def test_join_as_os_path(parts):
    assert oslite.join(*parts) == os.path.join(*parts)


def test_samefile(tree):
    assert oslite.samefile("lb/c", "abs_c")
    assert not oslite.samefile("a", "lb")
    with pytest.raises(OSError):
        oslite.samefile("a", "missing")


def test_the_environment_is_os_environ_as_it_is_now(monkeypatch):
    monkeypatch.setenv("XCE_OSLITE_PROBE", "caf\u00e9")
    monkeypatch.delenv("XCE_OSLITE_GONE", raising=False)
    assert oslite.getenv("XCE_OSLITE_PROBE") == "caf\u00e9"
    assert oslite.getenv("XCE_OSLITE_GONE", "dflt") == "dflt"
    assert oslite.environ() == dict(os.environ)
    os.environ["XCE_OSLITE_PROBE"] = "\udcff"    # not UTF-8: as os keeps it
    assert oslite.environ()["XCE_OSLITE_PROBE"] == "\udcff"


def test_paths_as_path_objects(tree):
    assert oslite.join(tree, "a") == os.path.join(tree, "a")
    assert oslite.realpath(tree / "lb") == os.path.realpath(tree / "lb")


def test_file_types_as_the_stat_module_tells_them(tree):
    import stat
    for path in ("a", "lb", "a/b/c/file", "dangling", "/dev/null"):
        mode = os.lstat(path).st_mode
        for name in ("S_ISDIR", "S_ISREG", "S_ISLNK"):
            assert getattr(oslite, name)(mode) == \
                getattr(stat, name)(mode), (path, name)
    assert oslite.S_ISVTX == stat.S_ISVTX
