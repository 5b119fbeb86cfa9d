"""LSF time windows (xce.lang.timewindow): parsing, open or not at a time,
and the next opening or closing -- the clock the controller and the
simulator both give it."""

import time

import pytest
from hypothesis import given, settings, strategies as st

from xce.lang import timewindow as tw

# A Sunday, 00:00 local time: the start of an LSF week.
SUNDAY = time.mktime((2026, 11, 29, 0, 0, 0, 0, 0, -1))


def at(day, hour, minute=0, second=0):
    return time.mktime((2026, 11, 29 + day, hour, minute, second, 0, 0, -1))


def test_the_reference_week_starts_on_a_sunday():
    assert time.localtime(SUNDAY).tm_wday == 6


@pytest.mark.parametrize("text, expected", [
    ("8:30-18:30", tuple((d * 1440 + 510, d * 1440 + 1110)
                         for d in range(7))),
    ("5:19:00-1:8:30", ((0, 1950), (8340, 10080))),
    ("(0:0:0-0:1:0)", ((0, 60),)),
    ("7:10:00-7:11:00", ((600, 660),)),     # day 7 is Sunday too
    ("", None), ("()", None), ("-", None), (None, None),
])
def test_windows_are_parsed_to_minutes_of_the_week(text, expected):
    assert tw.parse(text) == expected


@pytest.mark.parametrize("text, words", [
    ("8-", "[day:]hour[:minute]"),
    ("8", "begin-end"),
    ("8-9-10", "begin-end"),
    ("24-8", "not a time of day"),
    ("8:60-9", "not a time of day"),
    ("8:a-9", "[day:]hour[:minute]"),
    ("1:8:00-9", "both ends"),
    ("8:1:00-9:1:00", "day 8 is not 0 to 7"),
    ("8-8", "same time"),
    ("1:2:3:4-5", "[day:]hour[:minute]"),
])
def test_a_malformed_window_is_refused_naming_it(text, words):
    with pytest.raises(tw.WindowError) as info:
        tw.parse(text)
    assert words in str(info.value)
    assert text.split()[0] in str(info.value)


def test_a_daily_window_is_open_inside_and_closed_outside():
    w = tw.parse("8:30-18:30")
    assert tw.is_open(w, at(2, 8, 30))
    assert tw.is_open(w, at(2, 18, 29, 59))
    assert not tw.is_open(w, at(2, 18, 30))
    assert not tw.is_open(w, at(2, 8, 29, 59))


def test_an_overnight_window_runs_past_midnight():
    w = tw.parse("18:30-8:30")
    assert tw.is_open(w, at(3, 23, 0))
    assert tw.is_open(w, at(4, 3, 0))
    assert not tw.is_open(w, at(4, 12, 0))
    # Saturday night runs into Sunday morning, across the week's end.
    assert tw.is_open(w, at(6, 23, 59)) and tw.is_open(w, at(7, 1, 0))


def test_a_weekend_window_runs_from_friday_evening_to_monday_morning():
    w = tw.parse("5:19:00-1:8:30")
    assert tw.is_open(w, at(5, 19, 0))
    assert tw.is_open(w, at(6, 12, 0))
    assert tw.is_open(w, at(0, 12, 0))
    assert tw.is_open(w, at(1, 8, 29))
    assert not tw.is_open(w, at(1, 8, 30))
    assert not tw.is_open(w, at(3, 12, 0))


def test_always_open_never_changes():
    assert tw.is_open(None, SUNDAY)
    assert tw.next_change(None, SUNDAY) is None


def test_the_next_change_is_the_next_opening_or_closing():
    w = tw.parse("8:30-18:30")
    assert tw.next_change(w, at(2, 7, 0)) == at(2, 8, 30)
    assert tw.next_change(w, at(2, 8, 30)) == at(2, 18, 30)
    assert tw.next_change(w, at(2, 20, 0)) == at(3, 8, 30)


def test_a_window_through_the_weeks_end_does_not_change_there():
    w = tw.parse("6:20:00-0:6:00")
    assert tw.next_change(w, at(6, 21, 0)) == at(7, 6, 0)
    assert tw.next_change(w, at(3, 12, 0)) == at(6, 20, 0)


def test_show_drops_lsf_parentheses():
    assert tw.show("( 5:19:00-1:8:30   20:00-8:30 )") == \
        "5:19:00-1:8:30 20:00-8:30"
    assert tw.show(None) == ""


_TIME = st.builds(lambda h, m: f"{h}:{m:02d}", st.integers(0, 23),
                  st.integers(0, 59))
_WINDOW = st.tuples(_TIME, _TIME).filter(lambda p: p[0] != p[1]).map(
    lambda p: f"{p[0]}-{p[1]}")


@settings(max_examples=200, deadline=None)
@given(st.lists(_WINDOW, min_size=1, max_size=3),
       st.floats(0, 7 * 86400 - 1))
def test_the_state_holds_until_the_next_change_and_flips_there(ws, offset):
    windows = tw.parse(" ".join(ws))
    t = SUNDAY + 3 * 7 * 86400 + offset
    nxt = tw.next_change(windows, t)
    if nxt is None:
        assert tw.is_open(windows, t)
        return
    assert t < nxt <= t + 7 * 86400 + 3600      # a DST hour at most
    state = tw.is_open(windows, t)
    assert tw.is_open(windows, (t + nxt) / 2) == state
    assert tw.is_open(windows, nxt) != state
