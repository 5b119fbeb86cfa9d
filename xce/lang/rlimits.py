"""LSF's resource limits beyond the run and memory limits: what each is,
its bsub option and lsb.queues key, and how its values are read.

    bsub  lsb.queues     kind   enforced
    -c    CPULIMIT       time   per job (CPU summed over its processes),
                                and per process (RLIMIT_CPU)
    -v    SWAPLIMIT      size   per job (virtual memory summed)
    -S    STACKLIMIT     size   per process (RLIMIT_STACK)
    -F    FILELIMIT      size   per process (RLIMIT_FSIZE)
    -D    DATALIMIT      size   per process (RLIMIT_DATA)
    -C    CORELIMIT      size   per process (RLIMIT_CORE); 0 is allowed
    -p    PROCESSLIMIT   count  per job (processes at one time)
    -T    THREADLIMIT    count  per job (threads at one time)

Sizes are in LSF_UNIT_FOR_LIMITS (KB unless set) unless suffixed, as
``bsub -M``; they are kept in KB.  Times are ``[hour:]minute[/host_or_model]``
as ``bsub -W``.  CPULIMIT, DATALIMIT, PROCESSLIMIT and THREADLIMIT take
``[default] maximum`` in lsb.queues; the other four take one value, the
hard limit (which is then also the jobs' default).

Pure and stdlib-only; errors are LimitError, a ValueError that names
the value, the catalogue key of LSF's words for it (xce.errors) and the
limit, so that bsub and the configuration say it the same way.
"""

import re
from typing import NamedTuple

from xce.lang import units
from xce.lang.appmerge import FILLED_KEY

INT32_MAX = 2147483647


class Limit(NamedTuple):
    key: str            # the job spec's key (and the agent's)
    name: str           # LSF's name (lsb.queues key, messages, bjobs -l)
    option: str         # bsub's option
    kind: str           # "time", "size" or "count"
    pair: bool          # lsb.queues takes [default] maximum
    resource: str       # prlimit's resource for a per-process limit, or ""


LIMITS = (
    Limit("cpulimit", "CPULIMIT", "-c", "time", True, "cpu"),
    Limit("filelimit", "FILELIMIT", "-F", "size", False, "fsize"),
    Limit("datalimit", "DATALIMIT", "-D", "size", True, "data"),
    Limit("stacklimit", "STACKLIMIT", "-S", "size", False, "stack"),
    Limit("corelimit", "CORELIMIT", "-C", "size", False, "core"),
    Limit("swaplimit", "SWAPLIMIT", "-v", "size", False, ""),
    Limit("processlimit", "PROCESSLIMIT", "-p", "count", True, ""),
    Limit("threadlimit", "THREADLIMIT", "-T", "count", True, ""),
)
BY_KEY = {limit.key: limit for limit in LIMITS}
BY_NAME = {limit.name: limit for limit in LIMITS}
# The job spec's key for the host or model that normalises its CPU limit.
CPU_HOST = "cpulimit_host"
# ... and the one that normalises its run limit (bsub -W 10/hostA).
RUN_HOST = "runlimit_host"

_COUNT = re.compile(r"[0-9]+\Z", re.A)


class LimitError(ValueError):
    """*value* is refused for *name*; *key* is the catalogue's text."""

    def __init__(self, value, key, name):
        super().__init__(f"{value}: {key} ({name})")
        self.value, self.key, self.name = value, key, name


def job_value(limit, value, unit=units.DEFAULT_UNIT, fractions=False):
    """A bsub value of *limit*: (minutes, host or None) for the CPU
    limit, KB for a size, a whole number for a count.  ValueError with
    a LimitError (``10x``, ``LIMIT_NOT_POSITIVE``, ``FILELIMIT``).
    *fractions*: minutes may have decimals (XCE_FRACTIONAL_RUNLIMIT)."""
    text = str(value).strip()
    if limit.kind == "time":
        return _cpu_minutes(limit, text, fractions)
    if limit.kind == "count":
        number = int(text) if _COUNT.match(text) else 0
        if number <= 0:
            raise LimitError(value, "LIMIT_NOT_POSITIVE", limit.name)
        if number > INT32_MAX:
            raise LimitError(value, "LIMIT_TOO_BIG", limit.name)
        return number
    try:
        kb = units.size_bytes(text, unit) // 1024
    except ValueError:
        kb = -1
    # A core limit of 0 is the usual way to have no core files.
    if kb < 0 or (kb == 0 and limit.key != "corelimit"):
        raise LimitError(value, "LIMIT_NOT_POSITIVE", limit.name)
    return kb


def _cpu_minutes(limit, text, fractions):
    try:
        minutes, host = units.clock_minutes(text, fractions)
    except ValueError:
        raise LimitError(text, "LIMIT_BAD_SPEC", limit.name) from None
    if minutes > units.RUNLIMIT_MAX_MINUTES:
        raise LimitError(text, "LIMIT_TOO_BIG", limit.name)
    if minutes <= 0:
        raise LimitError(text, "LIMIT_NOT_POSITIVE", limit.name)
    return float(minutes), host


def queue_value(limit, value, unit=units.DEFAULT_UNIT):
    """An lsb.queues/xce.yaml value as [default, maximum] (one value is
    both); for the CPU limit each is (minutes, host or None), minutes
    with decimals allowed as in xce.yaml's RUNLIMIT.  None for absent,
    empty or ``-``.  ValueError when it is not one."""
    if value is None or str(value).strip() in ("", "-"):
        return None
    words = str(value).split()
    if not limit.pair and len(words) > 1:
        raise LimitError(value, "LIMIT_ONE_VALUE", limit.name)
    pair = units.limit_pair(
        value, lambda word: job_value(limit, word, unit, fractions=True))
    if _amount(pair[0]) > _amount(pair[1]):
        raise LimitError(value, "LIMIT_DEFAULT_ABOVE_MAX", limit.name)
    return pair


def _amount(value):
    return value[0] if isinstance(value, tuple) else value


def spec_limits(spec):
    """{key: value} of the limits a job spec carries."""
    return {limit.key: spec[limit.key] for limit in LIMITS
            if spec.get(limit.key) is not None}


# What bjobs -l and bhist -l show among a job's limits: the limits above,
# the run and memory limits, the hosts that normalise them, and the
# estimate (bsub -We); "app_filled" says which came from the job's
# application profile (the estimate's source, "application configured").
SHOWN_KEYS = tuple(limit.key for limit in LIMITS) + (
    CPU_HOST, "runlimit", RUN_HOST, "memlimit", "estimate", "estimate_host")


def submitted(spec):
    """The limits of a job spec as its SUBMIT event records them (bhist -l
    shows these in its submission block, whatever bmod or bswitch changed
    since): the keys set, and which of them its profile filled."""
    out = {key: spec[key] for key in SHOWN_KEYS if spec.get(key) is not None}
    filled = [key for key in spec.get(FILLED_KEY) or () if key in SHOWN_KEYS]
    if filled:
        out[FILLED_KEY] = filled
    return out


def as_submitted(spec, recorded):
    """*spec* with its limits as *recorded* at submission (submitted());
    *spec* itself when nothing was recorded (a job submitted before its
    SUBMIT event kept them): then its current limits stand in."""
    if not isinstance(recorded, dict):
        return spec
    out = {key: value for key, value in spec.items()
           if key not in SHOWN_KEYS}
    out.update((key, value) for key, value in recorded.items()
               if key in SHOWN_KEYS)
    filled = [key for key in spec.get(FILLED_KEY) or ()
              if key not in SHOWN_KEYS]
    filled += [key for key in recorded.get(FILLED_KEY) or ()
               if key in SHOWN_KEYS]
    out[FILLED_KEY] = filled
    return out
