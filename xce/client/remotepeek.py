"""bpeek of a job whose output is only on its execution host (bsub -f
sites with no shared file system): the controller fetches the output
from the job's agent (xce.controller.peek); bpeek asks, then asks again
with the ticket it got until the answer is there."""

import base64
import sys
import time

from xce.errors import XceError, text
from xce.model.jobid import show as show_id

POLL = 0.05
ANSWER_WITHIN = 15.0        # seconds the execution host has to answer
FOLLOW_POLL = 0.5


def show_output(ask, job, offsets):
    """One round: the new bytes of each file, written to stdout; the
    new offsets.  False when the job is no longer running."""
    body = {"jobid": job["jobid"], "idx": job["idx"],
            "out_offset": offsets["out"], "err_offset": offsets["err"]}
    reply = ask(body)
    deadline = time.monotonic() + ANSWER_WITHIN
    while reply.get("ok") and reply.get("pending"):
        if time.monotonic() > deadline:
            host = (job["exec_hosts"] or "").split()[:1]
            raise XceError(text("PEEK_NO_ANSWER", job=_label(job),
                                host=host[0] if host else "",
                                seconds=int(ANSWER_WITHIN)))
        time.sleep(POLL)
        reply = ask(dict(body, ticket=reply["ticket"]))
    if not reply.get("ok"):
        return None
    if reply.get("error"):
        raise XceError(reply.get("error"))
    return {name: base64.b64decode(reply.get(name) or "")
            for name in ("out", "err")}


def _label(job):
    return show_id(job["jobid"], job["idx"])


def show(ask, reader_factory, job, follow):
    offsets = {"out": 0, "err": 0}
    got = show_output(ask, job, offsets)
    if got is None:
        raise XceError(text("PEEK_FINISHED", job=_label(job)))
    print("<< output from stdout >>", flush=True)
    _write(got["out"], offsets, "out")
    if follow:          # -f follows the stdout alone, as peek.py does
        offsets["err"] += len(got["err"])
    elif got["err"]:
        print("\n<< output from stderr >>", flush=True)
        _write(got["err"], offsets, "err")
    while follow:
        time.sleep(FOLLOW_POLL)
        got = show_output(ask, job, offsets)
        if got is None:
            return 0
        _write(got["out"], offsets, "out")
        offsets["err"] += len(got["err"])   # not shown, not asked again
    return 0


def _write(data, offsets, name):
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    offsets[name] += len(data)
