"""LSF time windows: queue DISPATCH_WINDOW and RUN_WINDOW, host
DISPATCH_WINDOW (lsb.queues(5), lsb.hosts(5)).

A window is ``begin-end``, each end ``hour``, ``hour:minute`` or
``day:hour:minute`` (day 0 or 7 is Sunday), both ends in the same form; a
window without days comes back every day, one whose end is earlier than
its begin runs past midnight (or past the end of the week).  Several
windows are separated by blanks; an empty value or ``()`` is "always
open".

Pure and deterministic: ``is_open`` and ``next_change`` are functions of
the windows and a time, read in local time as LSF does; the controller
and the simulator give them their own clock.
"""

import time

DAY = 24 * 60                   # minutes
WEEK = 7 * DAY


class WindowError(ValueError):
    pass


def parse(text):
    """The windows of *text* as sorted, merged ``(begin, end)`` minutes of
    the week (end excluded), or None when it is always open.  Raises
    WindowError naming the bad window."""
    text = " ".join(str(text if text is not None else "").split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if text in ("", "-"):
        return None
    spans = []
    for word in text.split():
        spans += _spans(word)
    return _merge(spans)


def _spans(word):
    if word.count("-") != 1:
        raise WindowError(f"{word}: a time window is begin-end, "
                          "[day:]hour[:minute]-[day:]hour[:minute]")
    begin, end = (_point(part, word) for part in word.split("-"))
    if (begin[0] is None) != (end[0] is None):
        raise WindowError(f"{word}: both ends of a time window must give a "
                          "day, or neither")
    if begin == end:
        raise WindowError(f"{word}: the window begins and ends at the same "
                          "time")
    if begin[0] is None:        # every day
        start, stop = begin[1], end[1]
        return [span for day in range(7)
                for span in _wrap(day * DAY + start, day * DAY + stop
                                  + (DAY if stop < start else 0))]
    start = begin[0] * DAY + begin[1]
    stop = end[0] * DAY + end[1]
    return _wrap(start, stop + (WEEK if stop < start else 0))


def _point(part, word):
    """(day or None, minute of the day) of one end."""
    fields = part.split(":")
    if not 1 <= len(fields) <= 3 or not all(f.isdigit() for f in fields):
        raise WindowError(f"{word}: {part!r} is not [day:]hour[:minute]")
    numbers = [int(f) for f in fields]
    day = numbers.pop(0) if len(numbers) == 3 else None
    hour, minute = numbers[0], numbers[1] if len(numbers) == 2 else 0
    if day is not None and day > 7:
        raise WindowError(f"{word}: day {day} is not 0 to 7 (0 and 7 are "
                          "Sunday)")
    if hour > 23 or minute > 59:
        raise WindowError(f"{word}: {part} is not a time of day (hour 0-23, "
                          "minute 0-59)")
    return (None if day is None else day % 7), hour * 60 + minute


def _wrap(start, stop):
    """[start, stop) within one week, split where it passes the week's end."""
    if stop <= WEEK:
        return [(start, stop)]
    return [(start, WEEK), (0, stop - WEEK)]


def _merge(spans):
    out = []
    for start, stop in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((start, stop))
    return tuple(out)


def _week_seconds(t):
    """Seconds since the start of the local week (Sunday 00:00) at *t*."""
    tm = time.localtime(t)
    day = (tm.tm_wday + 1) % 7          # Python: Monday 0; LSF: Sunday 0
    return (day * DAY + tm.tm_hour * 60 + tm.tm_min) * 60 + tm.tm_sec + \
        (t - int(t))


def is_open(windows, t):
    """Is any of *windows* (parse's result) open at time *t*?"""
    if windows is None:
        return True
    minute = _week_seconds(t) / 60.0
    return any(start <= minute < stop for start, stop in windows)


def next_change(windows, t):
    """The first time after *t* at which *windows* open or close; None
    when they never change (always open)."""
    if windows is None or windows == ((0, WEEK),):
        return None
    now = _week_seconds(t)
    # Every begin and end, with the week's end read as its start: a span
    # that runs on through it (ends at WEEK, the next begins at 0) changes
    # nothing there.
    edges = {e * 60 for span in windows for e in span}
    edges.discard(WEEK * 60)
    if windows[0][0] == 0 and windows[-1][1] == WEEK:
        edges.discard(0)
    elif windows[-1][1] == WEEK:
        edges.add(0)
    edges = sorted(edges)
    later = [e for e in edges if e > now]
    delta = (later[0] if later else edges[0] + WEEK * 60) - now
    return t + delta


def closes_at(windows, t):
    """When *windows*, open at *t*, close next (spans that meet are one);
    None when they are closed at *t* or never close."""
    if not is_open(windows, t):
        return None
    for _ in range(2 * len(windows or ()) + 2):
        t = next_change(windows, t)
        if t is None or not is_open(windows, t):
            return t
    return None


def show(text):
    """A window value as bqueues -l and bhosts -l print it (blanks
    collapsed, LSF's parentheses dropped)."""
    text = " ".join(str(text or "").split())
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text
