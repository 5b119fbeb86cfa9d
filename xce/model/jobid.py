"""Job ids as users write them: ``123`` or ``123[7]``."""

import re

# ASCII digits only: \d would also read "３" (a full-width digit) as 3.
_JOBID = re.compile(r"^\s*([0-9]+)(?:\[([0-9]+)\])?\s*$")


class BadJobId(ValueError):
    pass


def parse(text):
    """``"123"`` -> (123, None); ``"123[7]"`` -> (123, 7)."""
    m = _JOBID.match(text)
    if not m or int(m.group(1)) < 0:
        raise BadJobId(text)
    idx = m.group(2)
    return int(m.group(1)), (int(idx) if idx is not None else None)


def show(jobid, idx=0):
    """How LSF prints a job or array element id."""
    return f"{jobid}[{idx}]" if idx else str(jobid)
