"""The dates of the job report appended to a job's -o file, and the
stamps of the long formats (bjobs -l, bhist -l, bacct -l), are C's
ctime(), as LSF writes them: the day of the month padded with a space
(`Mon Jan  6 14:22:28 2025`), English names whatever the locale."""

import re
import time

from xce.agent.report import job_report

JOB = {"user": "alice", "hosts": ["hostA"], "label": "7", "name": "sleeper",
       "cluster": "c1", "from_host": "login", "queue": "normal"}


def _at(year, month, day, hour=14, minute=22, second=28):
    return time.mktime((year, month, day, hour, minute, second, 0, 0, -1))


def test_report_dates_pad_the_day_with_a_space():
    start = _at(2025, 1, 6)
    job = {**JOB, "submit_time": _at(2025, 1, 6, second=26)}
    result = {"stat": "DONE", "start_time": start, "end_time": start + 60}
    text = job_report(job, result, ["/bin/sleep 60"], "/home/alice",
                      "/home/alice")
    assert "Started at Mon Jan  6 14:22:28 2025\n" in text
    assert "Terminated at Mon Jan  6 14:23:28 2025\n" in text
    assert "Results reported at Mon Jan  6 14:23:28 2025\n" in text
    assert text.count(" at Mon Jan  6 14:22:2") == 3
    assert not re.search(r"Jan 06", text)


def test_two_digit_days_are_unchanged():
    start = _at(2025, 3, 18, 2, 6, 32)
    job = {**JOB, "submit_time": start}
    result = {"stat": "EXIT", "start_time": start, "end_time": start,
              "exit_code": 1}
    text = job_report(job, result, ["false"], "/h", "/h")
    assert "Started at Tue Mar 18 02:06:32 2025\n" in text


def test_long_format_stamps_pad_the_day_with_a_space():
    # bjobs -l, bhist -l and bacct -l, as LSF prints them
    # ("Wed May  1 22:42:23: Submitted from host <...>").
    from xce.client.text.units import long_time
    assert long_time(_at(2024, 5, 1, 22, 42, 23)) == "Wed May  1 22:42:23"
    assert long_time(_at(2024, 4, 18, 22, 32, 1)) == "Thu Apr 18 22:32:01"


def test_other_full_stamps_are_ctime_too():
    # bsub -b/-t's "Job will be scheduled after ...", bhist's changes,
    # badmin showstatus, lsadmin showconf: LSF's _i18n_ctime cuts ctime().
    from xce.client.history.changes import _ctime
    from xce.client.submit.times import shown
    t = _at(2026, 12, 2, 23, 59, 0)
    assert shown(t) == _ctime(t) == "Wed Dec  2 23:59:00 2026"
