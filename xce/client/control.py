"""The shared path of bkill, bstop, bresume and bkill -s: one request, one line per job."""

import signal as _signal

from xce.client import ids as job_ids
from xce.client.requests import NO_TARGET, print_results
from xce.errbase import XceError, about, text
from xce.model import numbers
from xce.spool.client import call


def parse_signal(value):
    """``TERM``, ``SIGTERM`` or ``15`` -> 15; LSF's message otherwise."""
    text = value.strip().upper()
    if numbers.digits(text):
        num = int(text)
        if 0 < num < _signal.NSIG:
            return num
    else:
        name = text if text.startswith("SIG") else "SIG" + text
        sig = getattr(_signal, name, None)
        if isinstance(sig, _signal.Signals):
            return int(sig)
    raise XceError(about(value, "ILLEGAL_SIGNAL"))


# bkill -stat's words (the jobs of each: xce.controller.control.KILL_STAT).
KILL_STATS = ("run", "pend", "susp")


def kill_stat(value):
    """bkill -stat's value: run, pend or susp, as LSF spells them."""
    if value not in KILL_STATS:
        raise ValueError(value)
    return value


def control_request(site, action, ids, user=None, queue=None, name=None,
                    host=None, sig=None, force=False, as_done=False,
                    job_group=None, stat=None, bulk=False):
    """Send one control request; print LSF's line per job; return the exit code."""
    parsed, every = job_ids.parse_list(ids)
    body = {"action": action, "user": user, "queue": queue, "name": name,
            "host": host, "signal": sig, "force": force, "ids": parsed}
    if as_done:
        body["as_done"] = True
    if job_group:
        from xce.model import jobgroups
        if not jobgroups.valid(job_group):
            raise XceError(text("BAD_JGROUP_NAME", path=job_group))
        body["job_group"] = jobgroups.normal(job_group)
    if bulk:
        body["bulk"] = True
    if stat:
        # bkill -stat: every job in that status, with or without 0.
        body["stat"] = stat
        every = every or not ids
    if every:
        body["all"] = True
    if not ids and not any((user, queue, name, host, job_group, stat)):
        raise XceError(NO_TARGET)
    return print_results(call(site, "control", body))
