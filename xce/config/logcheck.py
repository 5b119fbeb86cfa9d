"""Validation of the ``parameters`` that switch lsb.events and archive
lsb.acct (MAX_JOB_NUM, ACCT_ARCHIVE_SIZE, ACCT_ARCHIVE_AGE, and the carried
but unused ACCT_ARCHIVE_TIME and MAX_ACCT_ARCHIVE_FILE).  A bad value is a
configuration error naming file, line and key, so that a typo does not
silently mean "never rotate"."""

import re

# key -> what its positive whole number counts, for the error message
_COUNTS = {"MAX_JOB_NUM": "finished jobs", "ACCT_ARCHIVE_SIZE": "kilobytes",
           "ACCT_ARCHIVE_AGE": "days", "MAX_ACCT_ARCHIVE_FILE": "files"}
_CLOCK = re.compile(r"([01]?[0-9]|2[0-3]):[0-5][0-9]$")


def check(raw, check_):
    params = raw.get("parameters")
    if not isinstance(params, dict):
        return
    for key, unit in _COUNTS.items():
        value = params.get(key)
        if value is None:
            continue
        text = str(value).strip()
        if not text.isdigit() or int(text) < 1:
            check_.error(params, key, f"{value}: must be a positive whole "
                         f"number ({unit})")
    clock = params.get("ACCT_ARCHIVE_TIME")
    if clock is not None and not _CLOCK.match(str(clock).strip()):
        check_.error(params, "ACCT_ARCHIVE_TIME",
                     f"{clock}: must be a time of day, hh:mm")
