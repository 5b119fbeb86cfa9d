"""The LSF-style option parser."""

import pytest

from xce.cli.lsfargs import Opt, Parser, UsageError


def _parser(stop=False):
    return Parser("bx", [
        Opt("-o", "out"), Opt("-oo", "out_over"), Opt("-a", "all", takes=False),
        Opt("-J", "name"), Opt("-R", "res", multiple=True),
        Opt("-noheader", "noheader", takes=False), Opt("-sp", "prio", type=int),
    ], args_metavar="command", stop_at_first_arg=stop)


def test_long_single_dash_options_win_over_clusters():
    values, args = _parser().parse(["-oo", "f", "-noheader", "x"])
    assert values["out_over"] == "f" and values["noheader"] is True
    assert values["out"] is None and args == ["x"]


def test_clustered_letters_and_attached_values():
    values, _ = _parser().parse(["-aJ", "*uuid*"])
    assert values["all"] is True and values["name"] == "*uuid*"
    values, _ = _parser().parse(["-Jname"])
    assert values["name"] == "name"


def test_repeatable_and_typed_options():
    values, _ = _parser().parse(["-R", "a", "-R", "b", "-sp", "7"])
    assert values["res"] == ("a", "b") and values["prio"] == 7
    with pytest.raises(UsageError, match="bad value"):
        _parser().parse(["-sp", "x"])


def test_command_words_after_the_first_are_the_jobs():
    values, args = _parser(stop=True).parse(["-J", "n", "ls", "-o", "-a"])
    assert values["name"] == "n" and values["out"] is None
    assert args == ["ls", "-o", "-a"]


def test_errors_read_as_lsf():
    with pytest.raises(UsageError, match=r"^bx: illegal option -- z$"):
        _parser().parse(["-z"])
    with pytest.raises(UsageError, match=r"^bx: illegal option -- zz$"):
        _parser().parse(["-zz"])
    with pytest.raises(UsageError,
                       match=r"^bx: option requires an argument -- J$"):
        _parser().parse(["-J"])


def test_help_lists_options():
    text = _parser().help()
    assert text.startswith("Usage: bx [options] command")
    assert "-oo value" in text and "-h, --help" in text
