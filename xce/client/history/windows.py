"""LSF time windows of ``bacct``/``bhist`` ``-C``, ``-S`` and ``-D``.

A window is ``time0,time1``, ``time0,`` (from then on), ``,time1`` (up to
then) or one ``time`` (that whole minute or day).  A time is
``[[[year/]month/]day/]hour:minute``, ``[[year/]month/]day[/]`` (a whole
day), ``.`` (now) or ``.-N`` (N days ago).  Missing parts are the current
ones.  A bad window is an error in LSF's words, ``<text>: Bad time
specification``, and the command exits 255.
"""

import datetime
import time

from xce.errors import XceError, text as err_text
from xce.model import numbers

DAY = 86400


def parse_window(spec, now=None):
    """``(t0, t1)`` epoch seconds, both inclusive; ``None`` is unbounded."""
    now = time.time() if now is None else now
    try:
        if "," in spec:
            first, _, second = spec.partition(",")
            if "," in second or not (first.strip() or second.strip()):
                raise ValueError(spec)
            t0 = _point(first.strip(), now)[0] if first.strip() else None
            t1 = _point(second.strip(), now)[1] if second.strip() else None
        else:
            t0, t1 = _point(spec.strip(), now)
        if t0 is not None and t1 is not None and t0 > t1:
            raise ValueError(spec)
    except (ValueError, OverflowError):
        raise XceError(f"{spec}: {err_text('BAD_TIME')}")
    return t0, t1


def _point(text, now):
    """The (first, last) second a time names."""
    if text == ".":
        return now, now
    if text.startswith(".-"):
        days = _number(text[2:])
        t = now - days * DAY
        return t, t
    if not text:
        raise ValueError(text)
    parts = text.split("/")
    hm = None
    if ":" in parts[-1]:
        hour, _, minute = parts.pop().partition(":")
        hm = (_number(hour), _number(minute))
    elif parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 3 or (hm is None and not parts):
        raise ValueError(text)
    today = datetime.datetime.fromtimestamp(now)
    values = [_number(p) for p in parts]
    year, month, day = today.year, today.month, today.day
    if len(values) == 3:
        year, month, day = values
    elif len(values) == 2:
        month, day = values
    elif len(values) == 1:
        day = values[0]
    if hm is None:
        start = datetime.datetime(year, month, day).timestamp()
        return start, start + DAY - 1
    start = datetime.datetime(year, month, day, hm[0], hm[1]).timestamp()
    return start, start + 59


def _number(text):
    if not numbers.digits(text) or len(text) > 9:
        raise ValueError(text)
    return int(text)


def in_window(value, window):
    """Whether the time *value* (None: never happened) lies in *window*."""
    if window is None:
        return True
    if value is None:
        return False
    t0, t1 = window
    return (t0 is None or value >= t0) and (t1 is None or value <= t1)


def sql_clause(column, window, clauses, args):
    """Add ``column`` within *window* to a WHERE clause list."""
    if window is None:
        return
    t0, t1 = window
    clauses.append(f"{column} IS NOT NULL")
    if t0 is not None:
        clauses.append(f"{column} >= ?")
        args.append(t0)
    if t1 is not None:
        clauses.append(f"{column} < ?")
        args.append(t1 + 1)


# -C, -S and -D of bhist and bacct: the job column each window applies to.
WINDOW_COLUMNS = {"C": "end_time", "S": "submit_time", "D": "start_time"}


def windows(completed=None, submitted=None, dispatched=None):
    """{column: (t0, t1)} for the time windows given on the command line."""
    out = {}
    for letter, spec in (("C", completed), ("S", submitted),
                         ("D", dispatched)):
        if spec is not None:
            out[WINDOW_COLUMNS[letter]] = parse_window(spec)
    return out
