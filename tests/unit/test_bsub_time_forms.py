"""bsub -b and -t in each of LSF's forms ([[[year:]month:]day:]hour:minute,
local time): a time without a year that has passed is its next
occurrence (tomorrow, next month, next year, by the fields given); with a
year it is taken as written, and a termination time in the past is
refused; a field out of range is LSF's "Bad time specification"."""

import time

import pytest

from xce.client.submit import times
from xce.client.submit.options import SubmitError


def _at(year, month, day, hour, minute):
    return time.mktime((year, month, day, hour, minute, 0, 0, 0, -1))


NOW = _at(2026, 3, 15, 12, 0)


@pytest.mark.parametrize("value, when", [
    ("13:30", (2026, 3, 15, 13, 30)),           # later today
    ("11:00", (2026, 3, 16, 11, 0)),            # passed today: tomorrow
    ("12:00", (2026, 3, 16, 12, 0)),            # this very minute: tomorrow
    ("20:9:00", (2026, 3, 20, 9, 0)),           # day:hour:minute
    ("10:9:00", (2026, 4, 10, 9, 0)),           # that day passed: next month
    ("15:11:00", (2026, 4, 15, 11, 0)),         # today, but passed
    ("4:1:9:00", (2026, 4, 1, 9, 0)),           # month:day:hour:minute
    ("2:1:9:00", (2027, 2, 1, 9, 0)),           # passed this year: next
    ("2030:1:2:3:4", (2030, 1, 2, 3, 4)),       # with its year
])
def test_each_form_is_its_next_occurrence(value, when):
    for what in ("begin", "term"):
        assert times.parse(value, NOW, what) == _at(*when), (value, what)


def test_with_a_year_a_past_begin_is_reached_and_a_past_term_refused():
    assert times.parse("2020:1:2:3:4", NOW, "begin") == _at(2020, 1, 2, 3, 4)
    with pytest.raises(SubmitError, match="Bad time specification"):
        times.parse("2020:1:2:3:4", NOW, "term")


@pytest.mark.parametrize("value", ["24:00", "12:60", "0:1:1", "2:30:1:1",
                                   "2026:2:29:1:1", "13:1:1:1", "a:b",
                                   "1:2:3:4:5:6", "12"])
def test_a_time_out_of_range_or_shape_is_refused(value):
    with pytest.raises(SubmitError, match="Bad time specification"):
        times.parse(value, NOW)
