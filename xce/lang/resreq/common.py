"""Shared vocabulary of the resource requirement language.

Pure and stdlib-only: the error type, the built-in resource names and the
memory unit conversion (xce.lang.units) used by both the select and the
rusage parsers.
"""

from xce.lang import units
from xce.lang.units import unit_power

SYNTAX_MESSAGE = "Bad resource requirement syntax"

# Built-in resources (reference section 5.5).  Kept here, in one place, so the
# "unknown resource" check and the default `type == local|any` rule agree.
STRING_RESOURCES = frozenset({"type", "model", "hname"})
BOOLEAN_RESOURCES = frozenset({"server"})
NUMERIC_RESOURCES = frozenset({
    "slots", "maxslots", "mem", "swp", "tmp", "r15s", "r1m", "r15m", "ut",
    "pg", "io", "ls", "it", "ncpus", "ncores", "nthreads", "nprocs",
    "ndisks", "maxmem", "maxswp", "maxtmp", "cpuf", "rexpri",
    "ngpus", "ngpus_physical",
})
BUILTIN_RESOURCES = STRING_RESOURCES | BOOLEAN_RESOURCES | NUMERIC_RESOURCES

# Load indices a select[] or order[] reads as the host's agent last
# reported them (lsload); mem, swp and tmp are what is left to reserve.
LOAD_INDICES = ("r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it")

# LSF accepts `swap` for `swp`; canonical output always says `swp`.
ALIASES = {"swap": "swp"}

# Only these take a unit suffix (LSF_UNIT_FOR_LIMITS governs their bare
# numbers); a suffix on anything else is a syntax error.
MEMORY_RESOURCES = frozenset({"mem", "swp", "tmp"})

# Resources a job can reserve without site configuration.
BUILTIN_CONSUMABLE = frozenset({"mem", "swp", "tmp", "slots"})



class ResReqError(ValueError):
    """A resource requirement string that xce rejects.

    `message` is what bsub prints before ". Job not submitted."; `kind` lets
    a caller tell a syntax error ("syntax"), an unknown resource
    ("resource"), a feature xce parses but does not implement
    ("unsupported") and a conflict between several strings ("merge").
    """

    def __init__(self, message=SYNTAX_MESSAGE, kind="syntax"):
        super().__init__(message)
        self.message = message
        self.kind = kind


def canonical_name(name):
    """The name LSF shows for a resource (aliases folded)."""
    return ALIASES.get(name, name)


def convert_units(value, suffix, unit_for_limits):
    """Express `value` `suffix` (e.g. 4096, "MB") in `unit_for_limits`;
    a suffix that is not a memory unit is a syntax error."""
    if unit_power(suffix) is None:
        raise ResReqError()
    return units.in_unit(value, suffix, unit_for_limits)


def format_number(value):
    """Shortest faithful text for a number: 4000, 0.5, 1e-07 stays exact."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return repr(float(value))
