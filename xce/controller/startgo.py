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
"""

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
