"""bpeek of a job whose output is only on its execution host: the
controller asks the job's agent for the output files from the offsets
bpeek has shown, over the link it already has, and hands the answer to
bpeek's next request with the same ticket.

Two requests rather than one that waits: a request is answered in the
turn that handles it, and the agent answers within the next few turns
(bpeek asks again until it has the answer or gives up).  Answers wait
here, in memory, at most KEEP of them: a bpeek that went away leaves
nothing behind for long.
"""

import secrets

from xce.errors import text
from xce.model import states

KIND = "peek"
PROTOCOL = 10           # the first agent protocol that answers "peek"
KEEP = 256


def handle(ctl, user, doc, now):
    job = ctl.jobs.get((int(doc["jobid"]), int(doc.get("idx") or 0)))
    if job is None or job["stat"] in states.FINISHED:
        return {"ok": False, "error": text("NO_JOB")}
    if not ctl.may("bpeek", user, job):
        return {"ok": False, "error": text("PERMISSION")}
    ticket = doc.get("ticket")
    if ticket:
        answer = ctl.peeks.pop(ticket, None)
        if answer is None:
            return {"ok": True, "pending": True, "ticket": ticket}
        return {"ok": True, **answer}
    host = (job["exec_hosts"] or "").split()[:1]
    link = ctl.links.get(host[0]) if host else None
    if link is None or job["stat"] == states.PEND:
        return {"ok": False, "error": text("NOT_STARTED")}
    if ctl.hosts[host[0]].get("protocol", 1) < PROTOCOL:
        return {"ok": False, "error": text("PEEK_OLD_AGENT", host=host[0])}
    ticket = secrets.token_hex(8)
    link.queue({"op": "peek", "job": job["jobid"], "idx": job["idx"],
                "attempt": job["attempt"], "ticket": ticket,
                "out_offset": int(doc.get("out_offset") or 0),
                "err_offset": int(doc.get("err_offset") or 0)})
    return {"ok": True, "pending": True, "ticket": ticket}


def answered(ctl, msg):
    """The agent's "peeked": kept for the bpeek that asked."""
    ticket = msg.get("ticket")
    if not isinstance(ticket, str):
        return
    while len(ctl.peeks) >= KEEP:
        ctl.peeks.pop(next(iter(ctl.peeks)))
    ctl.peeks[ticket] = {k: msg[k] for k in ("out", "err", "error")
                         if isinstance(msg.get(k), str)}
