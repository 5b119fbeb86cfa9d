"""A started job's run and memory limits as its agent enforces them.

The start message carries them; ``bmod -W/-M/-Wn/-Mn`` of a started job
sends them again in a ``limits`` message (agent protocol version 2), so the
new values are enforced, the run limit still counted from the job's start.
An agent that said hello with an older version cannot take the message:
the new value is kept in the store only, and the log says so.
"""

import logging

log = logging.getLogger("xce.controller")

LIMITS_VERSION = 2          # the first agent protocol with "limits"
LIMIT_KEYS = ("runlimit", "memlimit")


def agent_limits(spec):
    """{runlimit: seconds or None, memlimit: KB or None} of a job spec
    (whose runlimit is in minutes), as dispatch.start_message sends them."""
    run = spec.get("runlimit")
    return {"runlimit": run * 60 if run else None,
            "memlimit": spec.get("memlimit")}


def push(ctl, job):
    """Send a started job's current limits to the agent of its first host."""
    hosts = (job["exec_hosts"] or "").split()
    link = ctl.links.get(hosts[0]) if hosts else None
    if link is None:
        return
    if ctl.hosts.get(hosts[0], {}).get("protocol", 1) < LIMITS_VERSION:
        log.warning("job %s: the agent on %s is too old to change a "
                    "running job's limits", ctl.label(job), hosts[0])
        return
    link.queue({"op": "limits", "job": job["jobid"], "idx": job["idx"],
                "attempt": job["attempt"], **agent_limits(job["spec"])})
