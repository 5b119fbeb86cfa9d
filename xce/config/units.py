"""Units LSF uses for limits: run times in [hour:]minute, memory with units.

Stdlib only: bsub uses it to check -W and -M before spooling.
"""

import re

_MEM_UNITS = {"K": 1, "KB": 1, "M": 1024, "MB": 1024, "G": 1024 ** 2,
              "GB": 1024 ** 2, "T": 1024 ** 3, "TB": 1024 ** 3,
              "P": 1024 ** 4, "PB": 1024 ** 4, "E": 1024 ** 5, "EB": 1024 ** 5,
              "Z": 1024 ** 6, "ZB": 1024 ** 6}
# ASCII digits only: a full-width or other Unicode digit is refused, as
# LSF refuses it, rather than read as the number it looks like.
_MEM = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?)\s*([KMGTPEZ]B?)?\s*$",
                  re.I | re.A)
_RUNTIME = re.compile(r"^\s*(?:([0-9]+):)?([0-9]+(?:\.[0-9]+)?)\s*$", re.A)
# The largest run limit LSF keeps: 2147483647 seconds, in whole minutes.
RUNLIMIT_MAX_MINUTES = 2147483647 // 60
# The largest memory limit: 2**63 bytes, in KB.
MEMLIMIT_MAX_KB = 2 ** 53


def minutes(text):
    """``90`` -> 90.0; ``1:30`` -> 90.0 (LSF's [hour:]minute)."""
    m = _RUNTIME.match(str(text))
    if not m:
        raise ValueError(f"{text}: bad RUNLIMIT value")
    hours = int(m.group(1) or 0)
    mins = float(m.group(2))
    if m.group(1) is not None and mins >= 60:
        raise ValueError(f"{text}: bad RUNLIMIT value")
    total = hours * 60 + mins
    if total > RUNLIMIT_MAX_MINUTES:
        raise ValueError(f"{text}: bad RUNLIMIT value")
    return total


def memory_kb(text, unit="KB"):
    """A memory amount in KB; bare numbers are in LSF_UNIT_FOR_LIMITS."""
    m = _MEM.match(str(text))
    if not m:
        raise ValueError(f"{text}: bad MEMLIMIT value")
    suffix = (m.group(2) or unit or "KB").upper()
    if suffix not in _MEM_UNITS:
        raise ValueError(f"{text}: bad MEMLIMIT unit")
    kb = float(m.group(1)) * _MEM_UNITS[suffix]
    if kb > MEMLIMIT_MAX_KB:
        raise ValueError(f"{text}: bad MEMLIMIT value")
    return int(kb)


def limit_pair(value, convert):
    """LSF's ``[default] maximum`` limit form -> (default, maximum)."""
    if value is None or str(value).strip() in ("", "-"):
        return None
    parts = str(value).split()
    if len(parts) > 2:
        raise ValueError(f"{value}: too many values")
    values = [convert(p) for p in parts]
    return (values[0], values[-1])
