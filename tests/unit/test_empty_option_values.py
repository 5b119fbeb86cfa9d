"""An empty value ("" from an unset shell variable: bkill -J "$NAME" 0) is
refused by the commands that select or act on jobs; taken as no value, it
selected every job of the caller, and bkill killed them all."""

import importlib

import pytest

from xce.cli.lsfargs import EmptyValue


@pytest.mark.parametrize("command, argv", [
    ("bkill", ["-J", "", "0"]),
    ("bkill", ["-q", "", "0"]),
    ("bkill", ["-u", "", "0"]),
    ("bkill", ["-s", "", "1"]),
    ("bstop", ["-J", "", "0"]),
    ("bresume", ["-m", "", "0"]),
    ("brequeue", ["-J", "", "0"]),
    ("bswitch", ["-J", "", "normal", "0"]),
    ("bjobs", ["-J", ""]),
    ("bjobs", ["-q", ""]),
    ("bjobs", ["-u", ""]),
    ("bjobs", ["-o", ""]),
    ("bhist", ["-J", ""]),
    ("bacct", ["-q", ""]),
    ("bpeek", ["-J", ""]),
])
def test_an_empty_value_is_refused(command, argv):
    parser = importlib.import_module(f"xce.cli.{command}").PARSER
    flag = next(w for w, v in zip(argv, argv[1:]) if v == "")
    with pytest.raises(EmptyValue,
                       match=f"^{command}: {flag}: Bad argument: the value "
                             "is empty$"):
        parser.parse(argv)


@pytest.mark.parametrize("command, argv, what", [
    ("bqueues", [""], "queue name"),
    ("bqueues", ["-l", "normal", ""], "queue name"),
    ("bhosts", [""], "host name"),
])
def test_an_empty_name_is_refused_with_what_it_names(command, argv, what):
    """bqueues "" looked the name up and said ": No such queue", the
    empty name in front of it; now one line says what is empty."""
    parser = importlib.import_module(f"xce.cli.{command}").PARSER
    with pytest.raises(EmptyValue, match=f"^{command}: Bad argument: the "
                                         f"{what} is empty$"):
        parser.parse(argv)
