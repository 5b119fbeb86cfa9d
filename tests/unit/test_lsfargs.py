"""The LSF-style option parser."""

import pytest

from xce.cli.lsfargs import NotSupported, Opt, Parser, UsageError, whole


def _parser(stop=False, bundle=True):
    return Parser("bx", [
        Opt("-o", "out"), Opt("-oo", "out_over"), Opt("-a", "all", takes=False),
        Opt("-J", "name"), Opt("-R", "res", multiple=True),
        Opt("-noheader", "noheader", takes=False), Opt("-sp", "prio", type=int),
    ], args_metavar="command", stop_at_first_arg=stop, bundle=bundle,
        refused=("-Jd", "-b"), conflicts=[("-a", "-noheader")])


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


def test_without_bundling_a_word_is_an_option_whole_or_illegal():
    parser = _parser(bundle=False)
    for word in ("-aJ", "-Jname", "-ext", "-oX"):
        with pytest.raises(UsageError,
                           match=rf"^bx: illegal option -- {word[1:]}$"):
            parser.parse([word, "x"])


def test_an_lsf_option_xce_lacks_is_refused_whole_in_one_line():
    for bundle in (True, False):
        with pytest.raises(NotSupported, match=r"^bx: option -Jd is not "
                           r"supported by xce$"):
            _parser(bundle=bundle).parse(["-Jd", "text", "x"])
    # Inside a cluster too: -ab is -a and the refused -b.
    with pytest.raises(NotSupported, match="option -b is not supported"):
        _parser().parse(["-ab"])


def test_an_implemented_option_is_taken_though_a_list_refuses_it():
    parser = Parser("bx", [Opt("-b", "begin")], refused=("-b", "-t"))
    assert parser.parse(["-b", "1:00"])[0]["begin"] == "1:00"
    assert parser.refused == {"-t"}


def test_conflicting_options_are_a_usage_error():
    with pytest.raises(UsageError,
                       match=r"^bx: -a and -noheader cannot be used together$"):
        _parser().parse(["-noheader", "-a"])


def test_whole_numbers_are_ascii_digits_in_range():
    parser = Parser("bx", [Opt("-r", "level", type=whole(1), default=1)])
    assert parser.parse([])[0]["level"] == 1
    assert parser.parse(["-r", "3"])[0]["level"] == 3
    for bad in ("0", "\uff13", "-1", "1" * 40, "x"):
        with pytest.raises(UsageError, match="bad value"):
            parser.parse(["-r", bad])


def test_an_argument_that_is_no_text_is_one_line_exit_255(capsys):
    # bytes that are not UTF-8 reach Python as surrogates; a query with one
    # (bacct -P, bjobs -P, bhist -q ...) cannot be sent to SQLite.
    from xce.cli.lsfargs import run

    def query(values, args):
        values["project"].encode("utf-8")

    parser = Parser("bacct", [Opt("-P", "project")])
    with pytest.raises(SystemExit) as e:
        run(parser, query, ["-P", "\udcff"])
    assert e.value.code == 255
    assert capsys.readouterr().err == \
        "bacct: an argument is not valid UTF-8 text\n"


def test_a_line_without_help_or_version_is_parsed_once(capsys, monkeypatch):
    """Where a command's options end is looked for (a second parse) only
    when -h, --help or -V is among the words; a job's own -h stays its."""
    from xce.cli.lsfargs import run
    parser = _parser(stop=True)
    parses = []
    real = Parser.parse

    def counted(self, argv):
        parses.append(list(argv))
        return real(self, argv)
    monkeypatch.setattr(Parser, "parse", counted)
    seen = []
    for argv, calls in ((["-J", "n", "ls", "-l"], 1),
                        (["-J", "n", "ls", "-h"], 2)):
        parses.clear()
        with pytest.raises(SystemExit) as e:
            run(parser, lambda values, args: seen.append(args), argv)
        assert e.value.code == 0 and len(parses) == calls, parses
    assert seen == [["ls", "-l"], ["ls", "-h"]]
    with pytest.raises(SystemExit) as e:
        run(parser, lambda values, args: seen.append(args), ["-J", "n", "-h"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("Usage:")
