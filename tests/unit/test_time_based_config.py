"""LSF's time-based configuration (#if time(...) / #elif / #else / #endif
in the lsb.* files): the reader keeps each line's branch, and the
migrator leaves every value in a branch out, one report line per key, and
carries the values set outside the blocks."""

import shutil
from pathlib import Path

from xce.config import load
from xce.config.lsf import lexer
from xce.config.lsf.diag import Diagnostics
from xce.config.migrate import migrate

ODD = Path(__file__).resolve().parent / "data" / "lsf" / "odd"


def _lines(tmp_path, text, directives=True):
    path = tmp_path / "lsb.queues"
    path.write_text(text)
    diags = Diagnostics()
    lines = lexer.logical_lines(str(path), diags, directives=directives)
    return [(x.text, x.condition) for x in lines], \
        [str(d) for d in diags.warnings]


def test_each_line_keeps_the_branch_it_is_in(tmp_path):
    lines, warnings = _lines(tmp_path, """\
A = 1
#if time(8:00-18:00)
B = 2
#elif time(18:00-20:00) # an evening
B = 3
#else
B = 4
#if time(5:0:00-5:23:59)
C = 5
#endif
#endif
D = 6
""")
    assert warnings == []
    assert lines == [
        ("A = 1", None),
        ("B = 2", "#if time(8:00-18:00)"),
        ("B = 3", "#elif time(18:00-20:00) (of the #if at lsb.queues:2)"),
        ("B = 4", "#else (of the #if at lsb.queues:2)"),
        ("C = 5", "#else (of the #if at lsb.queues:2) and "
                  "#if time(5:0:00-5:23:59)"),
        ("D = 6", None)]


def test_a_comment_that_reads_like_if_stays_a_comment(tmp_path):
    lines, _ = _lines(tmp_path, "# if 18:30-19:30 is express time\nA = 1\n"
                      "#ifdef X\nB = 2\n")
    assert lines == [("A = 1", None), ("B = 2", None)]


def test_stray_and_unclosed_directives_are_warned_about(tmp_path):
    lines, warnings = _lines(tmp_path, "#else\nA = 1\n#endif\n"
                             "#if time(8:00-9:00)\nB = 2\n")
    assert lines == [("A = 1", None), ("B = 2", "#if time(8:00-9:00)")]
    assert warnings == [
        "lsb.queues:1: #else without #if; ignored",
        "lsb.queues:3: #endif without #if; ignored",
        "lsb.queues:4: #if without #endif: the lines after it are in its "
        "branch"]


def test_outside_the_lsb_files_an_if_line_is_a_comment(tmp_path):
    lines, warnings = _lines(tmp_path, "#if time(8:00-9:00)\nA = 1\n#endif\n",
                             directives=False)
    assert (lines, warnings) == ([("A = 1", None)], [])


def test_values_in_time_based_branches_are_left_out_key_by_key(tmp_path):
    src = tmp_path / "lsf"
    shutil.copytree(ODD, src)
    with open(src / "lsb.queues", "a") as f:
        f.write("""
Begin Queue
QUEUE_NAME = day
PRIORITY   = 20
#if time(8:00-18:00)
UJOB_LIMIT = 4
#else
UJOB_LIMIT = 40
#endif
End Queue

#if time(18:30-19:30 EDT)
Begin Queue
QUEUE_NAME = express
PRIORITY = 40
End Queue
#endif
""")
    (src / "lsb.users").write_text("""\
Begin User
USER_NAME  MAX_JOBS  JL/P
alice      10        -
#if time(5:18:00-1:8:00)
bob        20        2
#endif
End User
""")
    result = migrate(str(src), str(tmp_path / "etc"))
    dropped = {e.label: e.why for e in result.migration.entries
               if e.status == "not carried"}
    assert dropped["queue day UJOB_LIMIT = 4"].startswith(
        "set inside #if time(8:00-18:00), LSF's time-based configuration: "
        "xce does not switch configuration by time")
    assert dropped["queue day UJOB_LIMIT = 40"].startswith(
        "set inside #else (of the #if at lsb.queues:19)")
    for label in ("queue express QUEUE_NAME = express",
                  "queue express PRIORITY = 40", "user bob MAX_JOBS = 20",
                  "user bob JL/P = 2"):
        assert label in dropped, label
    tree = result.tree
    assert tree["queues"]["day"] == {"PRIORITY": 20}
    assert "express" not in tree["queues"]
    assert "bob" not in tree["users"] and tree["users"]["alice"] == {
        "MAX_JOBS": 10}
    # Nothing says a key was set twice: the branches are not read as one.
    assert not any("set again" in d.message for d in result.diags.warnings)
    load.load(tmp_path / "etc")         # the controller takes the result
