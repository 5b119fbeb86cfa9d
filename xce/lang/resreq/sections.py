"""The order[], span[] and same[] sections of a resource requirement."""

import re
from dataclasses import dataclass, field, replace
from typing import Optional, Tuple, Union

from .common import (
    BUILTIN_RESOURCES, ResReqError, canonical_name,
)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Indices where a larger value makes a host more attractive; `order[]`
# sorts these descending and everything else ascending (reference 5.3).
BIGGER_IS_BETTER = frozenset({
    "mem", "swp", "tmp", "it", "slots", "maxslots", "ncpus", "ncores",
    "nthreads", "nprocs", "maxmem", "maxswp", "maxtmp", "cpuf", "ndisks",
    "ngpus",
})


def check_name(name, known):
    """Validate one resource name; return its canonical spelling."""
    if not _NAME.match(name):
        raise ResReqError()
    name = canonical_name(name)
    if known is not None and name not in known and \
            name not in BUILTIN_RESOURCES:
        raise ResReqError("%s: Bad resource name" % name, "resource")
    return name


# --------------------------------------------------------------------- order
@dataclass(frozen=True)
class OrderKey:
    name: str
    reverse: bool = False  # written `-name`: flip the natural direction

    def __str__(self):
        return ("-" if self.reverse else "") + self.name


@dataclass(frozen=True)
class Order:
    keys: Tuple[OrderKey, ...]
    # Site resources (lsf.shared INCREASING=N) that, like mem, sort
    # descending; the controller adds them (see directed).
    more: frozenset = field(default=frozenset(), compare=False)

    def __str__(self):
        return "order[%s]" % ":".join(str(k) for k in self.keys)

    def directed(self, more_is_better):
        """This order, knowing which site resources are better larger."""
        more = frozenset(k.name for k in self.keys
                         if k.name in more_is_better)
        return replace(self, more=more) if more != self.more else self

    def sort_key(self, host, bigger_is_better=BIGGER_IS_BETTER):
        """Key for sorted(): best host first; hosts lacking an index last."""
        key = []
        for item in self.keys:
            value = host.get(item.name)
            if not isinstance(value, (int, float)):
                key.append((1, 0))
                continue
            descending = (item.name in bigger_is_better or
                          item.name in self.more) != item.reverse
            key.append((0, -value if descending else value))
        return tuple(key)


def parse_order(text, known=None):
    keys = []
    for part in text.split(":"):
        part = part.strip()
        if part.startswith("!"):
            raise ResReqError("order[!...] is not supported by xce",
                              "unsupported")
        reverse = part.startswith("-")
        name = check_name(part[1:].strip() if reverse else part, known)
        keys.append(OrderKey(name, reverse))
    return Order(tuple(keys))


# ---------------------------------------------------------------------- span
@dataclass(frozen=True)
class Span:
    """Exactly one of hosts (1 or -1), ptile (int or "!") and block."""
    hosts: Optional[int] = None
    ptile: Union[int, str, None] = None
    block: Optional[int] = None

    def __str__(self):
        if self.hosts is not None:
            return "span[hosts=%d]" % self.hosts
        if self.ptile == "!":
            return "span[ptile='!']"
        if self.ptile is not None:
            return "span[ptile=%d]" % self.ptile
        return "span[block=%d]" % self.block


def parse_span(text):
    text = text.strip()
    if text.startswith("stripe"):
        raise ResReqError("span[stripe] is not supported by xce",
                          "unsupported")
    key, sep, value = (s.strip() for s in text.partition("="))
    if not sep or key not in ("hosts", "ptile", "block"):
        raise ResReqError()
    if key == "ptile":
        return Span(ptile=_ptile(value))
    number = _int(value)
    if key == "hosts":
        if number not in (1, -1):
            raise ResReqError()  # LSF only knows hosts=1 and hosts=-1
        return Span(hosts=number)
    if number < 1:
        raise ResReqError()
    return Span(block=number)


def _ptile(value):
    if "," in value:
        raise ResReqError("span[ptile=...] per host type or model is not "
                          "supported by xce", "unsupported")
    if value in ("'!'", "!", '"!"'):
        return "!"
    number = _int(value)
    if number < 1:
        raise ResReqError()
    return number


def _int(text):
    if not re.fullmatch(r"-?\d{1,9}", text, re.ASCII):
        raise ResReqError()
    return int(text)


# ---------------------------------------------------------------------- same
@dataclass(frozen=True)
class Same:
    names: Tuple[str, ...]

    def __str__(self):
        return "same[%s]" % ":".join(self.names)


def parse_same(text, known=None):
    names = tuple(check_name(p.strip(), known) for p in text.split(":"))
    if len(set(names)) != len(names):
        raise ResReqError()
    return Same(names)
