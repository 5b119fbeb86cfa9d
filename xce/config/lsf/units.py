"""Units of LSF limits: memory sizes and run/CPU times (reference §2.10).

Memory limits are integers in ``LSF_UNIT_FOR_LIMITS`` (KB when unset);
newer IBM releases also accept a suffix (``200G``, ``4GB``).  Run limits are
``[hour:]minute[/host_or_model]``.  Parse errors raise ValueError with a
message naming the value.
"""

import re

UNITS = ("KB", "MB", "GB", "TB", "PB", "EB")
DEFAULT_UNIT = "KB"
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGTPE]B?)?\Z", re.IGNORECASE)
_TIME = re.compile(r"(?:(\d+):)?(\d+)(?:/(\S+))?\Z")


def unit_factor(unit):
    """Bytes in one *unit* (``KB`` .. ``EB``, also ``K`` .. ``E``)."""
    letter = unit.upper().rstrip("B") or "B"
    if letter == "B":
        return 1
    index = "KMGTPE".find(letter)
    if index < 0 or len(letter) != 1:
        raise ValueError(f"{unit}: not a unit of size")
    return 1024 ** (index + 1)


def normal_unit(text):
    """``mb`` -> ``MB``; ValueError for anything not in UNITS."""
    unit = (text or DEFAULT_UNIT).strip().upper()
    if unit not in UNITS:
        raise ValueError(f"{text}: LSF_UNIT_FOR_LIMITS must be one of "
                         + ", ".join(UNITS))
    return unit


def size_bytes(value, unit=DEFAULT_UNIT):
    """Bytes of a memory limit written in *unit* unless it has a suffix."""
    match = _SIZE.match(str(value).strip())
    if not match:
        raise ValueError(f"{value}: not a memory size")
    amount, suffix = match.groups()
    return int(float(amount) * unit_factor(suffix or unit))


def limit_minutes(value):
    """(minutes, normalising host or model or None) of a run/CPU limit."""
    match = _TIME.match(str(value).strip())
    if not match:
        raise ValueError(f"{value}: not a time limit ([hour:]minute)")
    hours, minutes, host = match.groups()
    return int(hours or 0) * 60 + int(minutes), host


def limit_pair(value):
    """Words of a ``[default] max`` limit: 1 or 2 words, else ValueError."""
    words = str(value).split()
    if not 1 <= len(words) <= 2:
        raise ValueError(f"{value}: expected [default] maximum")
    return words
