"""The shared path of bkill, bstop, bresume and bkill -s: one request, one line per job."""

import signal as _signal
import sys

from xce.errors import EXIT_FAILURE, XceError
from xce.model import jobid as jobids
from xce.spool.client import call

NO_TARGET = "Job ID or one of '-m', '-u' '-q' and '-J' must be specified."


def parse_signal(value):
    """``TERM``, ``SIGTERM`` or ``15`` -> 15; LSF's message otherwise."""
    text = value.strip().upper()
    if text.isdigit():
        num = int(text)
        if 0 < num < _signal.NSIG:
            return num
    else:
        name = text if text.startswith("SIG") else "SIG" + text
        sig = getattr(_signal, name, None)
        if isinstance(sig, _signal.Signals):
            return int(sig)
    raise XceError(f"{value}: Illegal signal value")


def control_request(site, action, ids, user=None, queue=None, name=None,
                    host=None, sig=None, force=False):
    """Send one control request; print LSF's line per job; return the exit code."""
    body = {"action": action, "user": user, "queue": queue, "name": name,
            "host": host, "signal": sig, "force": force, "ids": []}
    for text in ids:
        if text == "0":
            body["all"] = True
            continue
        try:
            jobid, idx = jobids.parse(text)
        except jobids.BadJobId:
            raise XceError(f"{text}: Illegal job ID.")
        body["ids"].append([text, jobid, idx])
    if not ids and not any((user, queue, name, host)):
        raise XceError(NO_TARGET)
    reply = call(site, "control", body)
    if "results" not in reply:
        raise XceError(reply.get("error") or "Request failed")
    failed = False
    for r in reply["results"]:
        if r.get("error"):
            failed = True
            prefix = f"Job <{r['job']}>: " if r.get("job") else ""
            print(f"{prefix}{r['error']}", file=sys.stderr)
        else:
            print(r["text"])
    return EXIT_FAILURE if failed else 0
