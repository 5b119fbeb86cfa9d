"""Validation of ACCT_ARCHIVE_TIME, the time of day at which lsb.acct is
archived (carried but unused).  The counts that switch lsb.events and
archive lsb.acct (MAX_JOB_NUM, ACCT_ARCHIVE_SIZE, ...) have their ranges
in config/ranges.py.  A bad value is a configuration error naming file,
line and key, so that a typo does not silently mean "never rotate"."""

import re

from xce.errors import text

_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):[0-5][0-9]$")


def check(raw, check_):
    params = raw.get("parameters")
    if not isinstance(params, dict):
        return
    clock = params.get("ACCT_ARCHIVE_TIME")
    if clock is not None and not _CLOCK.match(str(clock).strip()):
        check_.error(params, "ACCT_ARCHIVE_TIME",
                     text("CONFIG_TIME_OF_DAY", clock=clock))
