"""LSF's time-based values: ``[value time_window] ...`` (lsb.resources,
e.g. ``SLOTS = [200 8:00-18:00] [400 18:00-8:00]``).

The value in force at a time is the first whose windows are open then;
outside all of them the key has no value (the limit does not apply).
Pure: the controller and the simulator give the time.
"""

import re

from xce.lang import timewindow

_PAIR = re.compile(r"\[([^\[\]]*)\]")


def is_time_based(value):
    return isinstance(value, str) and value.strip().startswith("[")


def parse(text):
    """[(value text, windows)] of *text*; raises timewindow.WindowError
    (a ValueError) naming what is wrong."""
    text = str(text).strip()
    pairs = _PAIR.findall(text)
    if not pairs or _PAIR.sub("", text).strip():
        raise timewindow.WindowError(
            f"{text}: a time-based value is [value time_window] ...")
    out = []
    for pair in pairs:
        words = pair.split()
        if len(words) < 2:
            raise timewindow.WindowError(
                f"[{pair}]: a time-based value is [value time_window]")
        out.append((words[0], timewindow.parse(" ".join(words[1:]))))
    return out


def value_at(pairs, t):
    """The value text in force at *t*, or None outside every window."""
    for value, windows in pairs:
        if timewindow.is_open(windows, t):
            return value
    return None


def in_force(value, t):
    """A configured amount at *t*: itself, or the time-based value in
    force then (None outside all its windows, or without a time, or when
    it does not parse: no limit then)."""
    if not is_time_based(value):
        return value
    if t is None:
        return None
    try:
        return value_at(parse(value), t)
    except ValueError:
        return None


def windows_of(pairs):
    return [windows for _, windows in pairs]
