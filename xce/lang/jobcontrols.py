"""A queue's job control keys (lsb.queues): JOB_CONTROLS, TERMINATE_WHEN,
STOP_COND and RESUME_COND.  Pure: parsing and checking only.

- ``JOB_CONTROLS = SUSPEND[SIGTSTP] RESUME[SIGCONT] TERMINATE[SIGTERM]``
  replaces the signal each action sends (LSF's defaults: SIGSTOP, SIGCONT
  and the SIGINT, SIGTERM, SIGKILL sequence).  LSF also takes a command
  or ``CHKPNT`` as an action; xce runs signals only, so those are refused
  with their reason rather than accepted and not run.
- ``TERMINATE_WHEN = WINDOW LOAD PREEMPT``: in these situations the job
  gets the TERMINATE action instead of SUSPEND (it ends with TERM_WINDOW,
  TERM_LOAD or TERM_PREEMPT).
- ``STOP_COND`` / ``RESUME_COND``: a select expression over a host's load
  (``select[it < 5 && r1m > 2]`` or bare) that suspends a running job of
  the queue when true, and resumes a suspended one when true; each is
  used instead of the queue's loadStop / loadSched thresholds.
"""

import re
import signal

ACTIONS = ("SUSPEND", "RESUME", "TERMINATE")
SITUATIONS = ("WINDOW", "LOAD", "PREEMPT")
# The exit reason of a job the TERMINATE action ended, per situation.
TERM_REASONS = {"WINDOW": "TERM_WINDOW", "LOAD": "TERM_LOAD",
                "PREEMPT": "TERM_PREEMPT"}

_ACTION = re.compile(r"\s*([A-Za-z]+)\s*\[([^\]]*)\]\s*")


class ControlError(ValueError):
    pass


def signal_number(name):
    """The number of signal *name* (``SIGTSTP``, ``TSTP``, any case), or
    None when it names no signal of this system."""
    word = str(name).strip().upper()
    if not word.startswith("SIG"):
        word = "SIG" + word
    try:
        sig = signal.Signals[word]
    except KeyError:
        return None
    return int(sig)


def parse_controls(value):
    """{action: signal name} of a JOB_CONTROLS value; raises ControlError
    naming what xce cannot take."""
    text = " ".join(str(value if value is not None else "").split())
    out, pos = {}, 0
    while pos < len(text):
        m = _ACTION.match(text, pos)
        if m is None:
            raise ControlError(f"{text[pos:]!r} is not ACTION[signal]")
        pos = m.end()
        action, body = m.group(1).upper(), m.group(2).strip()
        if action not in ACTIONS:
            raise ControlError(f"{m.group(1)} is not SUSPEND, RESUME or "
                               "TERMINATE")
        if action in out:
            raise ControlError(f"{action} is given twice")
        out[action] = _signal_action(action, body)
    if not out:
        raise ControlError("no action given")
    return out


def parse_action(action, value):
    """The signal name of one action given alone, as a profile's
    SUSPEND_CONTROL, RESUME_CONTROL or TERMINATE_CONTROL gives it."""
    return _signal_action(action, " ".join(str(value).split()))


def _signal_action(action, body):
    if not body:
        raise ControlError(f"{action}[] names no signal")
    if body.upper() == "CHKPNT":
        raise ControlError(f"{action}[CHKPNT]: xce does not checkpoint jobs")
    if len(body.split()) == 1 and body.upper().startswith("SIG"):
        if signal_number(body) is None:
            raise ControlError(f"{action}[{body}]: {body} is not a signal "
                               "name")
        return "SIG" + body.upper()[3:]
    raise ControlError(f"{action}[{body}]: xce runs signals only, not "
                       "commands, as job control actions")


def parse_terminate_when(value):
    """The situations of a TERMINATE_WHEN value, in LSF's order."""
    words = str(value if value is not None else "").upper().split()
    bad = [w for w in words if w not in SITUATIONS]
    if bad:
        raise ControlError(f"{bad[0]} is not WINDOW, LOAD or PREEMPT")
    if not words:
        raise ControlError("no situation given")
    return [s for s in SITUATIONS if s in words]


def condition_text(value):
    """The select expression of a STOP_COND/RESUME_COND value, as shown
    (``select[...]``), blanks collapsed; the expression is checked by
    the caller with the resource requirement parser."""
    text = " ".join(str(value if value is not None else "").split())
    if not text:
        raise ControlError("no condition given")
    if not text.startswith("select["):
        text = f"select[{text}]"
    return text


def parse_condition(value, unit="KB"):
    """(text as shown, compiled Select) of a STOP_COND/RESUME_COND value;
    only a select[] section, over load indices and resources."""
    from xce.lang import resreq
    text = condition_text(value)
    try:
        req = resreq.parse(text, unit)
    except (resreq.ResReqError, ValueError) as e:
        raise ControlError(f"{text!r} is not a select expression"
                           + (f" ({e})" if str(e) else "")) from None
    if req.select is None or any((req.order, req.rusage, req.span,
                                  req.same)):
        raise ControlError(f"{text!r}: only a select[] section is taken")
    return text, req.select


_COMPILED = {}


def condition(text, unit="KB"):
    """The compiled Select of a checked condition text (kept, as the
    controller looks at it on each load report)."""
    key = (text, unit)
    if key not in _COMPILED:
        _COMPILED[key] = parse_condition(text, unit)[1]
    return _COMPILED[key]
