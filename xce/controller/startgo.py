"""A job's start goes to its agent before the commit, its "go" after.

A job must never run unless its START is durable in the store: a
controller that dies before the commit must leave no running job that
the store does not know.  Sent after the commit, a start waits for the
commit's fsync, then for the agent's preparation and its posix_spawn.
So to an agent of protocol 14 (xce.agent.held) the start goes held
(``"hold": true``) before the commit -- right after the pass that
decided it, or before the turn's commit for one sent again -- and the
agent prepares the job meanwhile (its files, environment, even its
wrapper, spawned and waiting); the short ``go`` goes with the messages
that follow the commit (xce.controller.main._after_commit), and is held
back with them while a commit fails (a full spool).  A link that drops
before the go makes the agent discard the held start; the job is then
either not STARTed in the store (a controller that died before its
commit schedules it again) or STARTed and unknown to the agent, whose
hello has it sent again (xce.controller.reconcile).  An older agent
gets the start after the commit, as before.

A controller that stays up has marked the job UNKWN with its link; it
cannot tell a go the agent never read from one it read just before the
link dropped (the job then ran).  The agent can: its hello (protocol 15)
lists the held starts it discarded unread (``discarded``), and such a
job goes back to PEND as though it had never been dispatched -- LSF's
"start failed" (PEND_JOB_START_FAIL), a JOB_STATUS and no exit, no
requeue count, no mail -- and is scheduled again.  A job the agent does
not list stays a start lost with its link (xce.controller.hostloss).
"""

import json
import logging

from xce.controller import gangs
from xce.errors import text
from xce.model import states

log = logging.getLogger("xce.controller")

GO_PROTOCOL = 14        # the first agent protocol with held starts


def send(ctl, host, msg):
    """Start *msg* on *host*: held before the commit where the agent
    can, else queued after it."""
    link = ctl.links[host]
    if ctl.hosts.get(host, {}).get("protocol", 1) < GO_PROTOCOL or \
            not link.connected:
        link.queue(msg)
        return
    ctl.held_starts.append((host, dict(msg, hold=True)))
    link.queue({"op": "go", "job": msg["job"], "idx": msg["idx"],
                "attempt": msg["attempt"]})


def send_held(ctl):
    """Send the held starts decided so far, ahead of the commit."""
    if not ctl.held_starts:
        return
    by_host = {}
    for host, msg in ctl.held_starts:
        by_host.setdefault(host, []).append(msg)
    ctl.held_starts = []
    for host, msgs in by_host.items():
        link = ctl.links.get(host)
        if link is not None and link.connected and not link.send(msgs):
            ctl.link_lost(host)     # its go goes with it (link.close)


def discarded(ctl, host, hello, known):
    """The held starts HOST's agent says (*hello*) it discarded before
    their go: each job still UNKWN at that attempt, unknown to the agent
    (*known*), never ran and goes back to PEND.  Each is acknowledged
    after the commit, and the agent forgets it then."""
    ids = []
    for entry in hello.get("discarded") or ():
        key = (int(entry["job"]), int(entry.get("idx", 0)),
               int(entry["attempt"]))
        ids.append(list(key))
        job = ctl.jobs.get(key[:2])
        if job is None or key in known or job["attempt"] != key[2] or \
                job["stat"] != states.UNKWN or \
                (job["exec_hosts"] or "").split()[:1] != [host]:
            continue
        log.info("job %s: %s discarded its start before running it; "
                 "pending again", ctl.label(job), host)
        ctl.emit("STATUS", job, stat=states.PEND, start_failed=True,
                 reason=json.dumps([[text("START_FAILED_PEND"), None]]))
        gangs.sent_back(ctl, job)
    if ids:
        ctl.links[host].queue({"op": "discarded_ack", "jobs": ids})
