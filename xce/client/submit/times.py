"""bsub -b and -t: LSF's ``[[[year:]month:]day:]hour:minute`` times.

Two fields are hour:minute, three day:hour:minute, four
month:day:hour:minute, five year:month:day:hour:minute, in local time.
Without a year a time that has passed means its next occurrence, as LSF
works it out: a day that has passed this month is next month's, a
month:day that has passed this year is next year's, and what is still not
in the future (an hour:minute earlier today, or this very minute) is a day
later.  With a year the time is taken as written: a begin time in the past
is already reached; a termination time in the past is refused.

Pure: the caller gives ``now``.
"""

import calendar
import time

from xce.client.submit.options import SubmitError
from xce.errors import about, text

DAY = 86400
# LSF: year after 1970.  The top keeps mktime within what it can represent.
YEAR_MIN, YEAR_MAX = 1970, 9999


def parse(value, now, what="begin"):
    """Epoch seconds of *value* (-b when *what* is "begin", -t when it is
    "term"); SubmitError with LSF's words when it is not a time."""
    fields = _fields(value)
    minute, hour = fields[-1], fields[-2]
    day = fields[-3] if len(fields) >= 3 else None
    month = fields[-4] if len(fields) >= 4 else None
    year = fields[-5] if len(fields) == 5 else None
    if not (0 <= minute <= 59 and 0 <= hour <= 23) or \
            (day is not None and not 1 <= day <= 31) or \
            (month is not None and not 1 <= month <= 12) or \
            (year is not None and not YEAR_MIN <= year <= YEAR_MAX):
        raise SubmitError(about(value, "BAD_TIME"))
    if year is not None:
        if day > calendar.monthrange(year, month)[1]:
            raise SubmitError(about(value, "BAD_TIME"))
        t = _local(year, month, day, hour, minute)
        if what == "term" and t < now:
            raise SubmitError(text("BAD_TIME"))
        return t
    return _next(now, month, day, hour, minute, value)


def check_order(begin, term):
    """LSF refuses a begin time after the termination time."""
    if begin is not None and term is not None and begin > term:
        raise SubmitError(text("START_AFTER_TERM"))


def shown(t):
    """``Tue Dec  1 20:00:00 2026``: how bsub and bmod echo a time (C's
    ctime(), as LSF's, the day padded with a space)."""
    return time.ctime(t)


def _fields(value):
    words = str(value).strip().split(":")
    if not 2 <= len(words) <= 5 or \
            not all(w.isascii() and w.isdigit() and len(w) <= 4
                    for w in words):
        raise SubmitError(about(value, "BAD_TIME"))
    return [int(w) for w in words]


def _next(now, month, day, hour, minute, value):
    cur = time.localtime(now)
    year, mon, mday = cur.tm_year, cur.tm_mon, cur.tm_mday
    clock = (hour, minute) < (cur.tm_hour, cur.tm_min)
    if month is not None:
        if (month, day) < (mon, mday) or ((month, day) == (mon, mday) and
                                          clock):
            year += 1
        mon, mday = month, day
    elif day is not None:
        if day < mday or (day == mday and clock):
            mon += 1
            if mon > 12:
                year, mon = year + 1, 1
        mday = day
    if mday > calendar.monthrange(year, mon)[1]:
        raise SubmitError(about(value, "BAD_TIME"))
    t = _local(year, mon, mday, hour, minute)
    return t if t > now else t + DAY


def _local(year, month, day, hour, minute):
    return int(time.mktime((year, month, day, hour, minute, 0, 0, 0, -1)))
