"""The range of every numeric key of xce.yaml, in one table.

The loader refuses a value out of its range with a ``file:line`` error,
the migrator leaves such a value out (and reports it), and xce.yaml(5)
prints the table (``man_lines``; a unit test keeps the page in step).
Ranges are LSF's where LSF documents one: a count is a whole number from
0 (or 1) to 2147483646, the largest value LSF's configuration reader
takes (INFINIT_INT - 1); MAX_JOB_ARRAY_SIZE and MAX_JOBID have LSF's
documented bounds.  Keys whose values have their own forms (RUNLIMIT and
MEMLIMIT pairs, load thresholds, time windows) are checked where they
are read.

Stdlib, xce.errbase and xce.model only: the loader, the migrator and the
commands import it.
"""

import math
import re
from dataclasses import dataclass

from xce.errbase import text
from xce.model import cleanperiod
from xce.model.jobid import DEFAULT_MAX_JOBID
from xce.config import queuetime

# The largest count LSF's configuration reader accepts (INFINIT_INT - 1).
COUNT_MAX = 2147483646
_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")
# What a key may hold instead of a number: "-" or nothing is "not set".
_UNSET = ("", "-")


@dataclass(frozen=True)
class Range:
    low: float
    high: float = COUNT_MAX
    whole: bool = True
    unit: str = ""
    above_low: bool = False         # the low bound itself is refused
    words: tuple = ()               # other values taken as they are

    def describe(self):
        kind = "whole number" if self.whole else "number"
        if self.above_low:
            text = f"a {kind} above {_show(self.low)}"
            if self.high != math.inf:
                text += f", at most {_show(self.high)}"
        elif self.high == math.inf:
            text = f"a {kind}, {_show(self.low)} or more"
        else:
            text = f"a {kind} from {_show(self.low)} to {_show(self.high)}"
        if self.words:
            text += " or " + " or ".join(self.words)
        return text + (f" ({self.unit})" if self.unit else "")

    def problem(self, value):
        """Why *value* is not in the range, or None when it is (or unset)."""
        if value is None:
            return None
        text = str(value).strip()
        if text in _UNSET or text in self.words:
            return None
        number = _number(value, text, self.whole)
        if number is None or not self._holds(number):
            return f"{value}: must be {self.describe()}"
        return None

    def _holds(self, number):
        if self.above_low and number <= self.low:
            return False
        return self.low <= number <= self.high


def _number(value, text, whole):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) and not whole else None
    if _WHOLE.match(text):
        return int(text)
    if not whole and _NUMBER.match(text):
        return float(text)
    return None


def _show(number):
    return str(int(number)) if float(number).is_integer() else str(number)


_TABLE = {}


def _add(scope, names, low, high=COUNT_MAX, **kw):
    for name in names.split():
        _TABLE[(scope, name)] = Range(low, high, **kw)


def _fraction(scope, names, low=0, high=math.inf, **kw):
    _add(scope, names, low, high, whole=False, **kw)


# --- queues (lsb.queues) --------------------------------------------------
_add("queue", "PRIORITY", 1)
# 20 as in the stock lsb.queues of LSF and OpenLava (nice(2) caps at 19).
_add("queue", "NICE", -20, 20)
_add("queue", "UJOB_LIMIT QJOB_LIMIT HJOB_LIMIT", 0, unit="slots")
_fraction("queue", "PJOB_LIMIT", unit="slots per processor")
_add("queue", "HOSTLIMIT_PER_JOB", 1, unit="hosts")
_add("queue", "NEW_JOB_SCHED_DELAY", 0, unit="seconds")
_add("queue", "JOB_ACCEPT_INTERVAL", 0, unit="MBD_SLEEP_TIME periods")
_add("queue", "MAX_JOB_REQUEUE", 0, unit="times")
# LSF: 0 < LOCAL_MAX_PREEXEC_RETRY < 2147483647 (attempts of a pre-exec).
_add("queue", "LOCAL_MAX_PREEXEC_RETRY", 1, unit="times")
# PROCESSLIMIT and THREADLIMIT are [default] maximum pairs, read with the
# other per-job limits (xce.config.queuelimits).
# --- hosts (lsb.hosts columns and xce's host keys) ------------------------
_add("host", "MXJ", 0, unit="slots", words=("!",))
_add("host", "JL/U", 0, unit="slots")
_fraction("host", "EXIT_RATE", 0, above_low=True, unit="jobs per minute")
_add("host", "ncpus", 1)
_add("host", "maxmem maxswp", 0, unit="MB")
_add("host", "port", 1, 65535)
_fraction("host", "ssh_timeout", 0, 3600, above_low=True, unit="seconds")
# --- users (lsb.users) ----------------------------------------------------
_add("user", "MAX_JOBS MAX_PEND_JOBS MAX_PEND_SLOTS", 0)
_fraction("user", "JL/P", unit="slots per processor")
# --- limits (lsb.resources Limit) -----------------------------------------
_add("limit", "SLOTS JOBS", 0)
_fraction("limit", "SLOTS_PER_PROCESSOR", above_low=True)
# --- parameters (lsb.params, lsf.conf and xce's own) ----------------------
_add("params", "CLEAN_PERIOD", 1, unit="seconds")
# LSF: limited to one week, and less than CLEAN_PERIOD (checked in check).
_add("params", "CLEAN_PERIOD_DONE", 1, cleanperiod.DONE_MAX, unit="seconds")
_add("params", "LOCAL_MAX_PREEXEC_RETRY", 1, unit="times")
_add("params", "MAX_JOB_REQUEUE", 0, unit="times")
_add("params", "JOB_TERMINATE_INTERVAL", 0, unit="seconds")
_fraction("params", "HIST_HOURS", unit="hours")
_fraction("params", "CPU_TIME_FACTOR RUN_TIME_FACTOR RUN_JOB_FACTOR")
_fraction("params", "FAIRSHARE_ADJUSTMENT_FACTOR", 0, 1)
_add("params", "MAX_JOB_NUM", 1, unit="finished jobs")
_add("params", "ACCT_ARCHIVE_SIZE", 1, unit="kilobytes")
_add("params", "ACCT_ARCHIVE_AGE", 1, unit="days")
_add("params", "MAX_ACCT_ARCHIVE_FILE", 1, unit="files")
_add("params", "MBD_SLEEP_TIME SBD_SLEEP_TIME", 1, unit="seconds")
_add("params", "JOB_ACCEPT_INTERVAL", 0, unit="MBD_SLEEP_TIME periods")
_add("params", "MAX_JOB_ARRAY_SIZE", 1, unit="elements")
_add("params", "LSB_MAX_PACK_JOBS", 0, unit="jobs per request")
_add("params", "LSB_BJOBS_PENDREASON_LEVEL", 0, 3)
# The smallest MAX_JOBID LSF takes is its default.
_add("params", "MAX_JOBID", DEFAULT_MAX_JOBID)
_add("params", "MAX_JOB_MSG_NUM", 1, unit="messages")
_add("params", "MAX_SBD_FAIL MAX_RETRY", 1, unit="times")
_add("params", "PG_SUSP_IT COND_CHECK_TIME FRESH_PERIOD SUB_TRY_INTERVAL "
     "RETRY_INTERVAL", 0, unit="seconds")
_add("params", "MAX_SCHED_STAY", 0, unit="seconds")
_add("params", "EADMIN_TRIGGER_DURATION", 1, unit="minutes")
_fraction("params", "GLOBAL_EXIT_RATE", 0, above_low=True,
          unit="jobs per minute")
_add("params", "JOB_EXIT_RATE_DURATION", 1, unit="minutes")
_add("params", "MAX_USER_PRIORITY", 1)
_add("params", "MAX_PEND_JOBS MAX_PEND_SLOTS", 0)
_add("params", "XCE_HOST_LOST_GRACE", 0, unit="seconds")
# LSF: hours a created job working directory is kept; 2147483647 never.
_add("params", "JOB_CWD_TTL", 0, 2147483647, unit="hours")
_add("params", "LSF_ELIM_BLOCKTIME", 0, unit="seconds")
_add("params", "EXINTERVAL", 1, unit="seconds")
_add("params", "LSF_ELIM_RESTARTS", 0, unit="times")
_fraction("params", "XCE_AGENT_TIMEOUT", 0, 3600, above_low=True,
          unit="seconds")
_fraction("params", "XCE_REQUEST_TIMEOUT", 0, 86400, above_low=True,
          unit="seconds")
_fraction("params", "XCE_LOAD_PASS_INTERVAL", 0, 3600, unit="seconds")
# Spool bounds (defaults in config/spoolparams.py).
_add("params", "XCE_SPOOL_MIN_FREE", 0, unit="megabytes")
_add("params", "XCE_SPOOL_USER_REQUESTS", 1, unit="requests")
_add("params", "XCE_SPOOL_USER_MB", 1, unit="megabytes")
_add("params", "XCE_REJECTED_USER_FILES", 0, unit="files")
_add("params", "XCE_REJECTED_USER_MB XCE_REJECTED_MAX_MB", 0,
     unit="megabytes")
_add("params", "XCE_REJECTED_KEEP_DAYS", 0, unit="days")

# xce.yaml section -> the scope of its keys in the table.
SECTION_SCOPES = {"parameters": "params", "queues": "queue",
                  "hosts": "host", "users": "user"}


def range_of(scope, name):
    """The Range of key *name* in *scope*, or None if it has none."""
    return _TABLE.get((scope, name))


def ranged(scope):
    """Names of the keys of *scope* that have a range."""
    return sorted(name for (table_scope, name) in _TABLE
                  if table_scope == scope)


def problem(scope, name, value):
    """Why *value* is out of *name*'s range, or None; each value of a
    time-based limit or queue key (``[value time_window] ...``,
    xce.config.queuetime) is in the range."""
    found = range_of(scope, name)
    if found is None:
        return None
    text = str(value).strip() if isinstance(value, str) else ""
    if text.startswith("[") and (scope == "limit" or scope == "queue" and
                                 name in queuetime.KEYS):
        words = [w.split()[0] for w in text.strip("[] ").split("]")
                 if w.strip(" [")]
        return next((why for why in (found.problem(w.strip(" [")) for w in
                                     words) if why), None)
    return found.problem(value)


def check(raw, checker):
    """Every ranged key of the loaded YAML *raw*, through the loader's
    *checker* (which names file and line)."""
    params = raw.get("parameters")
    if isinstance(params, dict):
        _check_node(params, "params", checker)
        _check_done_period(params, checker)
    for section, scope in SECTION_SCOPES.items():
        if section == "parameters" or not isinstance(raw.get(section), dict):
            continue
        for node in raw[section].values():
            if isinstance(node, dict):
                _check_node(node, scope, checker)
    limits = raw.get("limits")
    for node in limits if isinstance(limits, list) else ():
        if isinstance(node, dict):
            _check_node(node, "limit", checker)


def _check_done_period(params, checker):
    """CLEAN_PERIOD_DONE less than CLEAN_PERIOD, as LSF requires (it
    ignores a larger one; xce refuses it rather than run otherwise than
    the file says)."""
    pair = cleanperiod.problem(params)
    if pair is not None and "CLEAN_PERIOD_DONE" in params and \
            problem("params", "CLEAN_PERIOD_DONE",
                    params["CLEAN_PERIOD_DONE"]) is None:
        checker.error(params, "CLEAN_PERIOD_DONE",
                      text("CONFIG_CLEAN_PERIOD_DONE", done=pair[0],
                           clean=pair[1]))


def _check_node(node, scope, checker):
    for key, value in node.items():
        why = problem(scope, str(key), value)
        if why is not None:
            checker.error(node, key, why)


_MAN_SCOPES = (("params", "parameters"), ("queue", "queues"),
               ("host", "hosts"), ("user", "users"), ("limit", "limits"))


def man_lines():
    """The xce.yaml(5) table of ranges, as groff lines."""
    lines = []
    for scope, section in _MAN_SCOPES:
        lines += [".TP", f".B {section}"]
        for name in ranged(scope):
            text = range_of(scope, name).describe()
            lines.append(f"{_man_escape(name)}: {_man_escape(text)}.")
            lines.append(".br")
        lines.pop()
    return lines


def _man_escape(text):
    return text.replace("\\", "\\\\").replace("-", "\\-")
