"""The rusage[] section: what a job reserves on the hosts it runs on.

    rusage[mem=20:swp=50:duration=1h:decay=1, license=1:duration=2 || mem=10]

`||` separates alternatives (tried in order), `,` separates groups inside one
alternative (each group has its own duration and decay), `:` separates the
items of a group.  Durations are kept in seconds; a bare number is minutes.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

from .common import (
    BUILTIN_CONSUMABLE, MEMORY_RESOURCES, ResReqError, convert_units,
)
from .sections import check_name

_VALUE = re.compile(r"(\d+\.?\d*|\.\d+)([A-Za-z]*)\Z", re.ASCII)
_DURATION = re.compile(r"(\d{1,9})([smh]?)\Z", re.ASCII)
_SECONDS = {"s": 1, "m": 60, "": 60, "h": 3600}


@dataclass(frozen=True)
class RusageGroup:
    amounts: Tuple[Tuple[str, float], ...]
    duration: Optional[int] = None  # seconds; None = until the job ends
    decay: bool = False  # reservation shrinks linearly over the duration

    def __str__(self):
        parts = ["%s=%.2f" % (name, value) for name, value in self.amounts]
        if self.duration is not None:
            parts.append("duration=%s" % _format_duration(self.duration))
        if self.decay:
            parts.append("decay=1")
        return ":".join(parts)

    def names(self):
        return [name for name, _ in self.amounts]


@dataclass(frozen=True)
class RusageAlternative:
    groups: Tuple[RusageGroup, ...]

    def __str__(self):
        return ", ".join(str(g) for g in self.groups)

    def amounts(self):
        """{resource: amount} over all groups of this alternative."""
        return {n: v for g in self.groups for n, v in g.amounts}


@dataclass(frozen=True)
class Rusage:
    alternatives: Tuple[RusageAlternative, ...]

    def __str__(self):
        return "rusage[%s]" % " || ".join(str(a) for a in self.alternatives)

    def amounts(self, alternative=0):
        return self.alternatives[alternative].amounts()


def _format_duration(seconds):
    if seconds % 3600 == 0:
        return "%dh" % (seconds // 3600)
    if seconds % 60 == 0:
        return "%d" % (seconds // 60)  # minutes are LSF's default unit
    return "%ds" % seconds


def parse_rusage(text, unit="KB", known=None, consumable=None):
    """Parse the inside of rusage[...]."""
    if "(" in text or ")" in text:
        raise ResReqError("multi-phase rusage[res=(a b):duration=(x y)] is "
                          "not supported by xce", "unsupported")
    allowed = None if consumable is None else \
        frozenset(consumable) | BUILTIN_CONSUMABLE
    alternatives = []
    for alt_text in text.split("||"):
        groups = tuple(_parse_group(g, unit, known, allowed)
                       for g in alt_text.split(","))
        _check_unique(groups)
        alternatives.append(RusageAlternative(groups))
    return Rusage(tuple(alternatives))


def _parse_group(text, unit, known, allowed):
    amounts, duration, decay = [], None, None
    for item in text.split(":"):
        key, sep, value = (s.strip() for s in item.partition("="))
        if not sep or not value:
            raise ResReqError()
        if key == "duration" and duration is None and amounts:
            duration = _parse_duration(value)
        elif key == "decay" and decay is None and amounts:
            if value not in ("0", "1"):
                raise ResReqError()
            decay = value == "1"
        elif key in ("duration", "decay"):
            raise ResReqError()  # before any amount, or given twice
        elif duration is None and decay is None:
            # Amounts come first; duration/decay close the group.
            amounts.append(_parse_amount(key, value, unit, known, allowed))
        else:
            raise ResReqError()
    if not amounts:
        raise ResReqError()
    return RusageGroup(tuple(amounts), duration, bool(decay))


def _parse_amount(key, value, unit, known, allowed):
    name = check_name(key, known)
    if allowed is not None and name not in allowed:
        raise ResReqError("%s: Resource is not consumable and cannot be "
                          "reserved in rusage[]" % name, "resource")
    match = _VALUE.match(value)
    if not match:
        raise ResReqError()
    number = float(match.group(1))
    if match.group(2):
        if name not in MEMORY_RESOURCES:
            raise ResReqError()  # units are for mem/swp/tmp only
        number = convert_units(number, match.group(2), unit)
    return (name, float(number))


def _parse_duration(value):
    match = _DURATION.match(value)
    if not match or int(match.group(1)) == 0:
        raise ResReqError()
    return int(match.group(1)) * _SECONDS[match.group(2)]


def _check_unique(groups):
    names = [n for g in groups for n in g.names()]
    if len(names) != len(set(names)):
        raise ResReqError()  # one resource reserved twice in one alternative


def held_now(terms, elapsed, released=()):
    """What a started job holds now of each rusage[] term it started
    with, [(name, amount, duration s or 0, decay)], *elapsed* seconds
    after its start: a term is given back after its duration, shrinks
    linearly over it with decay, and *released* names hold nothing.
    {name: amount}; the scheduler's pass and bhosts -l read the same."""
    held = {}
    for name, amount, duration, decay in terms:
        if (duration and elapsed >= duration) or name in released:
            continue
        share = 1 - elapsed / duration if duration and decay else 1
        held[name] = held.get(name, 0.0) + amount * share
    return held
