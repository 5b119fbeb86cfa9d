"""A started job's run, memory and CPU limits as its agent enforces them.

The start message carries them; ``bmod -W/-M/-Wn/-Mn`` of a started job
sends them again in a ``limits`` message (agent protocol version 2), so the
new values are enforced, the run limit still counted from the job's start.
An agent that said hello with an older version cannot take the message:
the new value is kept in the store only, and the log says so.  ``bmod
-c/-cn`` (LSF lets them change a running job) adds the CPU limit to the
message (version 12); the controller refuses them for an older agent
before anything is recorded (``cpu_refusal``).
"""

import logging

log = logging.getLogger("xce.controller")

from xce.controller import rlimits
from xce.errors import text

LIMITS_VERSION = 2          # the first agent protocol with "limits"
CPU_VERSION = 12            # ... whose "limits" may carry "cpulimit"
CPU_KEYS = ("cpulimit", "cpulimit_host")
LIMIT_KEYS = ("runlimit", "runlimit_host", "memlimit") + CPU_KEYS


def agent_limits(cfg, job):
    """{runlimit: seconds or None, memlimit: KB or None} of a job (its
    spec's runlimit is in minutes, normalised by xce.controller.rlimits to
    its first execution host), as startmsg.start_message sends them."""
    spec = job["spec"]
    hosts = (job["exec_hosts"] or "").split()
    return {"runlimit": rlimits.run_seconds(
                cfg, cfg.queues.get(job["queue"]), spec,
                hosts[0] if hosts else None),
            "memlimit": spec.get("memlimit")}


def _protocol(ctl, job):
    hosts = (job["exec_hosts"] or "").split()
    return hosts[0] if hosts else None, \
        ctl.hosts.get(hosts[0], {}).get("protocol", 1) if hosts else 0


def cpu_refusal(ctl, job, keys):
    """Why a running *job*'s CPU limit cannot be changed now (its agent
    predates CPU_VERSION), or None."""
    host, version = _protocol(ctl, job)
    if set(CPU_KEYS) & set(keys) and host and version < CPU_VERSION:
        return text("CPU_OLD_AGENT", host=host)
    return None


def push(ctl, job, keys=()):
    """Send a started job's current limits to the agent of its first host;
    the CPU limit too when *keys* (those changed) name it."""
    hosts = (job["exec_hosts"] or "").split()
    link = ctl.links.get(hosts[0]) if hosts else None
    if link is None:
        return
    if ctl.hosts.get(hosts[0], {}).get("protocol", 1) < LIMITS_VERSION:
        log.warning("job %s: the agent on %s is too old to change a "
                    "running job's limits", ctl.label(job), hosts[0])
        return
    msg = {"op": "limits", "job": job["jobid"], "idx": job["idx"],
           "attempt": job["attempt"], **agent_limits(ctl.cfg, job)}
    if set(CPU_KEYS) & set(keys):
        # Normalised for the host as at the start (xce.controller.rlimits).
        msg["cpulimit"] = rlimits.cpu_seconds(
            ctl.cfg, ctl.cfg.queues.get(job["queue"]), job["spec"],
            hosts[0])
    link.queue(msg)
