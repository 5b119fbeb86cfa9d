"""Units of LSF limits: memory amounts and run times, one set of rules for
bsub, xce.yaml, the lsb.* migrator and resource requirement strings.

Memory.  A number, optionally with a unit suffix (K or KB, M or MB, G or
GB, T or TB, P or PB, E or EB, Z or ZB; any case; powers of 1024), as
``bsub -M`` documents them.  A bare number is in LSF_UNIT_FOR_LIMITS,
whose values are KB (the default when it is unset or empty), MB, GB, TB,
PB and EB.  LSF writes limits as whole numbers; a fraction (``1.5G``) is
read as written, a lone trailing dot (``4.``) is not a number.  At most
2^63 bytes (LSF's 64-bit limits).

Run times.  ``[hour:]minute[/host_or_model]``: minutes alone may exceed
59 (``210``), after hours they may not (``3:30``, never ``2:90``).  LSF's
files hold whole minutes; xce.yaml's RUNLIMIT also takes a fraction of a
minute (``0.5``), so that a limit can be seconds (``bsub -W`` does only
with XCE_FRACTIONAL_RUNLIMIT=Y).
At most 2147483647 seconds (LSF's largest, in whole minutes).  The
``/host`` normaliser is parsed and returned: a caller that cannot
normalise refuses it.

Digits are ASCII: a full-width or other Unicode digit is refused, as LSF
refuses it, rather than read as the number it looks like.

Pure and stdlib-only.  Errors are ValueError with a message that names
the value.
"""

import re
from decimal import Decimal

UNITS = ("KB", "MB", "GB", "TB", "PB", "EB")  # LSF_UNIT_FOR_LIMITS values
DEFAULT_UNIT = "KB"
# Power of 1024 above a byte of each unit letter.
_POWERS = {"K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7}
# The largest memory amount (2**63 bytes) and run limit (2147483647 s).
MAX_BYTES = 2 ** 63
RUNLIMIT_MAX_MINUTES = 2147483647 // 60
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)?\Z", re.A)
_TIME = re.compile(r"(?:([0-9]+):)?([0-9]+(?:\.[0-9]+)?)(?:/(\S+))?\Z",
                   re.A)


# ---------------------------------------------------------------- memory
def unit_power(unit):
    """Power of 1024 above a byte of a unit suffix (``K``/``KB`` 1, ``MB``
    2, ... ``ZB`` 7, any case); None for a string that is not one."""
    text = str(unit).strip().upper()
    if len(text) == 2 and text.endswith("B"):
        text = text[0]
    return _POWERS.get(text)


def normal_unit(text):
    """The LSF_UNIT_FOR_LIMITS setting spelt as LSF does (``mb`` -> ``MB``);
    unset or empty is KB; anything else is a ValueError."""
    unit = str(text or "").strip().upper() or DEFAULT_UNIT
    if unit not in UNITS:
        raise ValueError(f"{text}: LSF_UNIT_FOR_LIMITS must be one of "
                         + ", ".join(UNITS))
    return unit


def _setting_power(unit):
    return unit_power(normal_unit(unit))


def size_bytes(value, unit=DEFAULT_UNIT):
    """Bytes of a memory amount: in *unit* (LSF_UNIT_FOR_LIMITS) unless it
    has a suffix."""
    match = _SIZE.match(str(value).strip())
    power = match and (unit_power(match.group(2)) if match.group(2)
                       else _setting_power(unit))
    # Decimal, so that the bound is exact where a float would round.
    amount = power and int(Decimal(match.group(1)) * 1024 ** power)
    if not power or amount > MAX_BYTES:
        raise ValueError(f"{value}: not a memory amount")
    return amount


def memory_kb(value, unit=DEFAULT_UNIT):
    """A memory limit (``bsub -M``, MEMLIMIT, Limit MEM) in whole KB,
    rounded down."""
    try:
        return size_bytes(value, unit) // 1024
    except ValueError:
        raise ValueError(f"{value}: bad MEMLIMIT value") from None


def in_unit(amount, suffix, unit):
    """*amount* *suffix* (``4096``, ``MB``) expressed in the unit *unit*
    (LSF_UNIT_FOR_LIMITS); a whole result is an int.  ValueError when the
    suffix or the unit is not one."""
    have = unit_power(suffix)
    if have is None:
        raise ValueError(f"{suffix}: not a unit of memory")
    result = amount * 1024.0 ** (have - _setting_power(unit))
    return int(result) if float(result).is_integer() else result


def kb_in_unit(kb, unit):
    """A KB amount (host facts are in KB) in LSF_UNIT_FOR_LIMITS, as a
    float; None stays None."""
    return None if kb is None else kb / 1024.0 ** (_setting_power(unit) - 1)


# ------------------------------------------------------------------ time
def clock_minutes(value, fractions=False):
    """(minutes, normalising host or model or None) of ``[hour:]minute
    [/host]``, unbounded; *fractions* lets the minutes have a decimal part.
    ValueError when it is not one."""
    match = _TIME.match(str(value).strip())
    if match is not None:
        hours, minutes, host = match.groups()
        number = float(minutes) if "." in minutes else int(minutes)
        whole = fractions or isinstance(number, int)
        if whole and not (hours is not None and number >= 60):
            return int(hours or 0) * 60 + number, host
    raise ValueError(f"{value}: not a time limit ([hour:]minute)")


def limit_minutes(value, fractions=False):
    """(minutes, normalising host or model or None) of a run or CPU limit
    ``[hour:]minute[/host]``, at most RUNLIMIT_MAX_MINUTES; *fractions* lets
    the minutes have a decimal part (xce.yaml does, LSF's files do not)."""
    total, host = clock_minutes(value, fractions)
    if total > RUNLIMIT_MAX_MINUTES:
        raise ValueError(f"{value}: not a time limit ([hour:]minute)")
    return total, host


def minutes(value):
    """Minutes of an xce.yaml RUNLIMIT value (fractions allowed) without
    a ``/host`` normaliser (an application's RUNLIMIT takes none)."""
    number, host = minutes_of(value)
    if host is not None:
        raise ValueError(f"{value}: a normalising host or model (/{host}) "
                         "is not taken here")
    return number


def minutes_of(value):
    """(minutes, normalising host or model or None) of an xce.yaml
    RUNLIMIT value ``[hour:]minute[/host]``, fractions allowed."""
    try:
        number, host = limit_minutes(value, fractions=True)
    except ValueError:
        raise ValueError(f"{value}: bad RUNLIMIT value") from None
    return float(number), host


# ------------------------------------------------------------ limit pairs
def limit_pair(value, convert=str):
    """LSF's ``[default] maximum`` limit as [default, maximum], each
    converted (one value is both); ValueError for none or more than two.
    (xce.yaml's ``-`` for "no limit" is its loader's to handle.)"""
    words = str(value).split()
    if len(words) > 2:
        raise ValueError(f"{value}: too many values")
    if not words:
        raise ValueError(f"{value!r}: expected [default] maximum")
    values = [convert(word) for word in words]
    return [values[0], values[-1]]
