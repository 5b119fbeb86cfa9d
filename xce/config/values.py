"""Readers of one key's value in an xce.yaml node (a queue, a host, the
parameters): each returns the value as xce uses it, or None, and reports a
value it refuses through the checker (``check.error(node, key, message)``)
with its catalogue message.
"""

import re

from xce.errors import text
from xce.lang import timevalue, units


def requeue_values(node, check):
    """REQUEUE_EXIT_VALUES, as bsub -Q reads it."""
    from xce.model import requeue
    value = node.get("REQUEUE_EXIT_VALUES")
    if value is None or str(value).strip() in ("", "-"):
        return None
    try:
        return requeue.normalised(requeue.parse(str(value))) or None
    except requeue.BadRequeueValues:
        check.error(node, "REQUEUE_EXIT_VALUES",
                    text("CONFIG_REQUEUE", value=value))
        return None


_RESERVE = re.compile(r"MAX_RESERVE_TIME\s*\[\s*(\d+)\s*\]", re.I)


def slot_reserve(node, check):
    """SLOT_RESERVE = MAX_RESERVE_TIME[n]: n (in MBD_SLEEP_TIME units)."""
    value = node.get("SLOT_RESERVE")
    if value is None or str(value).strip() in ("", "-"):
        return None
    found = _RESERVE.fullmatch(str(value).strip())
    if found is None or int(found.group(1)) < 1:
        check.error(node, "SLOT_RESERVE",
                    text("CONFIG_SLOT_RESERVE", value=value))
        return None
    return int(found.group(1))


def yes_no(node, key, check):
    value = node.get(key)
    if value is None or isinstance(value, bool):
        return bool(value)
    answer = str(value).strip().upper()
    if answer not in ("Y", "YES", "N", "NO", ""):
        check.error(node, key, text("CONFIG_NOT_YES_NO", value=value))
    return answer in ("Y", "YES")


def estimate(node, check):
    """ESTIMATED_RUNTIME = [hour:]minute: minutes above 0, or None."""
    value = node.get("ESTIMATED_RUNTIME")
    if value is None or str(value).strip() in ("", "-"):
        return None
    try:
        minutes = units.minutes(value)
    except ValueError as e:
        check.error(node, "ESTIMATED_RUNTIME", str(e))
        return None
    if minutes <= 0:
        check.error(node, "ESTIMATED_RUNTIME",
                    text("CONFIG_LIMIT_PAIR", value=value))
        return None
    return minutes


def limit(node, key, convert, check):
    """A ``[default] maximum`` limit; both above 0, the default not
    above the maximum (LSF: "must be positive integers").  Absent, empty
    or ``-``: no limit."""
    value = node.get(key)
    if value is None or str(value).strip() in ("", "-"):
        return None
    try:
        pair = tuple(units.limit_pair(value, convert))
    except ValueError as e:
        check.error(node, key, str(e))
        return None
    if min(pair) <= 0 or pair[0] > pair[1]:
        check.error(node, key, text("CONFIG_LIMIT_PAIR", value=node.get(key)))
        return None
    return pair


def integer(node, key, check):
    """A whole number (a YAML integer or its text), None when absent or
    "-".  2.5 or yes is refused, never rounded or taken as 1."""
    value = node.get(key)
    if value is None or value == "-":
        return None
    digits = str(value).strip()
    if not isinstance(value, bool) and _WHOLE.fullmatch(digits):
        return int(digits)
    # A queue limit of a time of day, as lsb.resources' are: not read
    # here, and said so rather than "not a whole number".
    why = text("CONFIG_TIME_BASED") if timevalue.is_time_based(value) \
        else text("CONFIG_NOT_WHOLE", value=value)
    check.error(node, key, why)
    return None


_WHOLE = re.compile(r"[+-]?\d+")


def positive(node, key, check):
    """A whole number above 0, or None when the key is absent.  Stricter
    than _int: 2.5 or yes is refused, not rounded or taken as 1."""
    value = node.get(key)
    if value is None:
        return None
    digits = str(value).strip()
    if isinstance(value, bool) or not digits.isdigit() or int(digits) < 1:
        check.error(node, key, text("CONFIG_NOT_POSITIVE", value=value))
        return None
    return int(digits)


def number(node, key, check):
    value = node.get(key)
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        check.error(node, key, text("CONFIG_NOT_NUMBER", value=value))
        return None
