"""LSF's time-based configuration (#if time(...) / #elif / #else / #endif
in the lsb.* files): the reader keeps each line's branch; the migrator
turns a Limit's SLOTS, JOBS or MEM set in the branches of one block into
a time-based value, leaves every other value in a branch out, one report
line per key, and carries the values set outside the blocks."""

import shutil
import time
from pathlib import Path

from xce.config import load
from xce.config.lsf import lexer
from xce.config.lsf.diag import Diagnostics
from xce.config.migrate import migrate
from xce.lang import timevalue

ODD = Path(__file__).resolve().parent / "data" / "lsf" / "odd"


def _lines(tmp_path, text, directives=True):
    path = tmp_path / "lsb.queues"
    path.write_text(text)
    diags = Diagnostics()
    lines = lexer.logical_lines(str(path), diags, directives=directives)
    return [(x.text, x.condition and str(x.condition)) for x in lines], \
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
NICE = 4
#else
NICE = 10
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
    assert dropped["queue day NICE = 4"].startswith(
        "set inside #if time(8:00-18:00), LSF's time-based configuration: "
        "xce switches by time only a Limit's SLOTS, JOBS and MEM and a "
        "queue's PRIORITY, QJOB_LIMIT")
    assert dropped["queue day NICE = 10"].startswith(
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


def test_a_limits_amounts_in_time_branches_become_a_time_based_value(
        tmp_path):
    src = tmp_path / "lsf"
    shutil.copytree(ODD, src)
    (src / "lsb.resources").write_text("""\
Begin Limit
NAME = day
USERS = all
#if time(8:00-18:00)
SLOTS = 4
#elif time(18:00-20:00)
SLOTS = 6
#else
SLOTS = 40
#endif
End Limit

Begin Limit
NAME = weekend
PER_USER = all
JOBS = 10
#if time(5:18:00-1:8:00)
JOBS = 20
QUEUES = normal
#endif
End Limit

Begin Limit
NAME = late
PER_USER = all
#if time(8:00-18:00)
JOBS = 3
#endif
JOBS = 5
#if time(18:30-19:30 EDT)
MEM = 100
#endif
End Limit
""")
    result = migrate(str(src), str(tmp_path / "etc"))
    day, weekend, late = result.tree["limits"]
    assert day["SLOTS"] == "[4 8:00-18:00] [6 18:00-20:00] [40 ()]"
    # Without an #else, the value set before the block holds outside it.
    assert weekend["JOBS"] == "[20 5:18:00-1:8:00] [10 ()]"
    # Set after the block, a value holds at all times (the block's is
    # left out), and a time zone is not read.
    assert late["JOBS"] == 5 and "MEM" not in late
    dropped = {e.label for e in result.migration.entries
               if e.status == "not carried"}
    assert {"limit weekend QUEUES = normal", "limit late JOBS = 3",
            "limit late MEM = 100"} <= dropped
    enforced = {e.label for e in result.migration.entries
                if e.status == "enforced"}
    assert "limit day SLOTS = [4 8:00-18:00] [6 18:00-20:00] [40 ()]" in \
        enforced
    cfg = load.load(tmp_path / "etc")
    # The controller's time-based value: the first open window's value.
    pairs = timevalue.parse(cfg.raw["limits"][0]["SLOTS"])
    at = [time.mktime((2026, 12, 2, h, 30, 0, 0, 0, -1))
          for h in (9, 19, 23)]
    assert [timevalue.value_at(pairs, t) for t in at] == ["4", "6", "40"]


def test_a_queues_priority_and_slot_limits_in_time_branches_are_carried(
        tmp_path):
    src = tmp_path / "lsf"
    shutil.copytree(ODD, src)
    text = "\n".join((
        "Begin Queue", "QUEUE_NAME = day", "PRIORITY = 20",
        "#if time(8:00-18:00)", "PRIORITY = 60", "UJOB_LIMIT = 4", "NICE = 5",
        "#else", "UJOB_LIMIT = 40", "#endif",
        "#if time(18:30-19:30 EDT)", "QJOB_LIMIT = 8", "#endif",
        "End Queue", ""))
    (src / "lsb.queues").write_text((src / "lsb.queues").read_text() +
                                    "\n" + text)
    result = migrate(str(src), str(tmp_path / "etc"))
    day = result.tree["queues"]["day"]
    assert day["PRIORITY"] == "[60 8:00-18:00] [20 ()]"
    assert day["UJOB_LIMIT"] == "[4 8:00-18:00] [40 ()]"
    assert "QJOB_LIMIT" not in day and "NICE" not in day
    dropped = {e.label for e in result.migration.entries
               if e.status == "not carried"}
    assert {"queue day NICE = 5", "queue day QJOB_LIMIT = 8"} <= dropped
    cfg = load.load(tmp_path / "etc")
    q = cfg.queues["day"]
    assert set(q.timed) == {"priority", "ujob_limit"}
    from xce.config import queuetime
    nine, night = (time.mktime((2026, 12, 2, h, 30, 0, 0, 0, -1))
                   for h in (9, 23))
    assert queuetime.apply(cfg, nine) == ["day"]
    assert (q.priority, q.ujob_limit) == (60, 4)
    assert queuetime.apply(cfg, nine + 60) == []
    queuetime.apply(cfg, night)
    assert (q.priority, q.ujob_limit) == (20, 40)
