"""Pure parts of bhist/bacct and the lsb.events writer."""

import datetime

import pytest

from xce.client.history import windows as acct_window
from xce.client.history import events as history
from xce.errors import XceError
from xce.store import lsbfiles

NOW = datetime.datetime(2024, 3, 18, 12, 30).timestamp()


def test_durations_add_up_and_stop_at_the_end():
    events = [(100.2, "SUBMIT", {}), (103.9, "START", {"hosts": ["h"]}),
              (104, "RUNNING", {"pid": 1}), (110, "STATUS", {"stat": "USUSP"}),
              (115, "STATUS", {"stat": "RUN"}),
              (120, "FINISH", {"stat": "DONE", "end_time": 121.5})]
    spent, until = history.durations(events, now=10_000)
    assert spent == {"PEND": 3, "PSUSP": 0, "RUN": 13, "USUSP": 5,
                     "SSUSP": 0, "UNKWN": 0}
    assert sum(spent.values()) == until - 100 == 21


def test_durations_of_an_unfinished_held_job_run_to_now():
    spent, until = history.durations([(50, "SUBMIT", {"hold": True})],
                                      now=80)
    assert spent["PSUSP"] == 30 and until == 80


def test_rebuilt_history_of_a_row_without_events():
    row = {"submit_time": 10, "start_time": 12, "exec_hosts": "a a",
           "stat": "EXIT", "end_time": 20, "exit_code": 1}
    kinds = [k for _, k, _ in history.rebuilt_events(row)]
    assert kinds == ["SUBMIT", "START", "FINISH"]
    spent, _ = history.durations(history.rebuilt_events(row))
    assert (spent["PEND"], spent["RUN"]) == (2, 8)


def test_summary_line_widths_and_truncation():
    row = {"jobid": 12345678, "idx": 0, "user": "averylonguser",
           "name": "a_rather_long_name"}
    spent = dict.fromkeys(history.STATES, 0) | {"RUN": 7}
    line = history.summary_line(row, spent)
    assert line.startswith("1234567 averylo *ng_name  0       0       7  ")
    assert line.endswith("7         ")


@pytest.mark.parametrize("spec, expected", [
    ("2024/3/18/8:00,2024/3/18/9:00",
     (datetime.datetime(2024, 3, 18, 8).timestamp(),
      datetime.datetime(2024, 3, 18, 9, 0, 59).timestamp())),
    ("3/17/", (datetime.datetime(2024, 3, 17).timestamp(),
               datetime.datetime(2024, 3, 17, 23, 59, 59).timestamp())),
    (".-1,", (NOW - 86400, None)),
    (",.", (None, NOW)),
    ("8:15,", (datetime.datetime(2024, 3, 18, 8, 15).timestamp(), None)),
])
def test_time_windows(spec, expected):
    assert acct_window.parse_window(spec, now=NOW) == expected


@pytest.mark.parametrize("spec", ["", ",", "x", "25:00", "2024/2/30/",
                                  "1/2/3/4/5:00", ".,.-2", "1,2,3", ".-x"])
def test_bad_time_windows(spec):
    with pytest.raises(XceError) as e:
        acct_window.parse_window(spec, now=NOW)
    assert str(e.value) == f"{spec}: Bad time specification"


def test_lsb_strings_double_inner_quotes():
    assert lsbfiles.q('echo "hi"\nls') == '"echo ""hi""; ls"'
    assert lsbfiles.q(None) == '""'


def test_wait_status_of_exit_codes_and_signals():
    assert lsbfiles.wait_status(0) == 0
    assert lsbfiles.wait_status(3) == 768
    assert lsbfiles.wait_status(137) == 9


@pytest.mark.parametrize("command", ["bhist", "bacct"])
def test_history_commands_import_nothing_heavy(command):
    from tests.unit.test_imports import test_command_imports_are_light
    test_command_imports_are_light(command)


def test_signal_names_from_numbers_and_names():
    from xce.client.history.long import signal_name
    assert (signal_name(9), signal_name("10"), signal_name("SIGTERM")) == \
        ("KILL", "USR1", "TERM")


@pytest.mark.parametrize("kind, data, line", [
    # brequeue of a running job, by its owner: LSF's requeue line, not
    # the one of a job resumed while pending.
    ("REQUEUE", {"stat": "PEND", "by": "alice"},
     "Pending: Job has been requeued;"),
    ("REQUEUE", {"stat": "PEND", "by": ""},         # its host was lost
     "Pending: Job has been requeued;"),
    ("REQUEUE", {"stat": "PSUSP", "by": "alice"},   # brequeue -H
     "Suspended by the user or administrator <alice> while pending;"),
    ("STATUS", {"stat": "PEND", "by": "alice"},     # bresume of a held job
     "Pending: Waiting for scheduling after resumed by user;"),
])
def test_bhist_l_says_requeued_for_a_requeue_and_resumed_for_a_resume(
        kind, data, line):
    from xce.client.history.long import event_lines
    out = event_lines({}, {}, "", 0, kind, data)
    assert [text.split(": ", 1)[1] for text in out] == [line]
