"""A queue's job control keys in xce.yaml: JOB_CONTROLS, TERMINATE_WHEN,
STOP_COND and RESUME_COND (xce.lang.jobcontrols reads them).

A value xce cannot act on (a bad signal name, a command or CHKPNT action,
a malformed expression) is refused with a ``file:line`` error naming the
key; what is read goes into QueueConf for xce.controller.windows, the
preemption carrier and bqueues -l.
"""

from xce.errors import text
from xce.lang import jobcontrols


def read_queue(q, props, unit, check):
    q.job_controls = _read(props, "JOB_CONTROLS", check,
                           jobcontrols.parse_controls) or {}
    q.terminate_when = _read(props, "TERMINATE_WHEN", check,
                             jobcontrols.parse_terminate_when) or []
    for key in ("STOP_COND", "RESUME_COND"):
        found = _read(props, key, check,
                      lambda v: jobcontrols.parse_condition(v, unit)[0])
        setattr(q, key.lower(), found)


def _read(props, key, check, parse):
    if key not in props:
        return None
    try:
        return parse(props[key])
    except jobcontrols.ControlError as e:
        check.error(props, key, text("CONFIG_JOB_CONTROL", problem=e))
        return None
