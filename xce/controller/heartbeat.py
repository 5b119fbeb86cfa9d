"""Whether an agent still answers: pings with a deadline.

A closed connection tells the controller that an agent is gone; a stopped
or hung agent (SIGSTOP, a host that hangs while its kernel still ACKs)
keeps its connection open and says nothing.  So the controller pings every
connected agent every third of the deadline, and an agent that leaves a
ping unanswered for the whole deadline is lost as if its connection had
closed: its host goes unavail, its jobs UNKWN, and the host-loss grace
period runs (hostloss.py), as LSF does with an sbatchd that stops answering.

The deadline is the parameter XCE_AGENT_TIMEOUT (seconds); without it,
three times the host's ssh_timeout (15 s by default).
"""

import logging

log = logging.getLogger("xce.controller")

PARAM = "XCE_AGENT_TIMEOUT"
PINGS_PER_TIMEOUT = 3
PING = "ping"
SILENT = "silent"


def timeout(params, host_conf):
    """The deadline for HOST_CONF's agent, in seconds.  The configuration
    loader has checked the parameter's range (config/ranges.py)."""
    value = params.get(PARAM)
    if value is None or str(value).strip() in ("", "-"):
        return PINGS_PER_TIMEOUT * host_conf.ssh_timeout
    return float(value)


class Heartbeat:
    """The pings of one connection.  The clock runs from the first ping
    sent since the agent last spoke, so a controller busy for a while (not
    reading, not pinging) never takes its own delay for the agent's
    silence."""

    def __init__(self, now):
        self.pinged = now           # monotonic time of the last ping
        self.unanswered = None      # the first ping sent since it spoke

    def heard(self):
        self.unanswered = None

    def check(self, now, limit, spoke):
        """PING when one is due, SILENT when a ping went unanswered for
        more than LIMIT seconds, else None.  SPOKE: the agent's bytes wait
        unread (it answered; the controller did not read yet)."""
        if spoke:
            self.unanswered = None
        elif self.unanswered is not None and now - self.unanswered > limit:
            return SILENT
        if now - self.pinged >= limit / PINGS_PER_TIMEOUT:
            self.pinged = now
            if self.unanswered is None:
                self.unanswered = now
            return PING
        return None

    def silence(self, now):
        """Seconds since the first unanswered ping (for the logs)."""
        return now - self.unanswered if self.unanswered is not None else 0.0


def keep_alive(link, now, spoke):
    """One look at LINK (an AgentLink or SSHLink with beat, agent_timeout,
    out and reason): queue a ping when due; False when the agent has been
    silent too long, with the reason kept for bhosts -l."""
    said = link.beat.check(now, link.agent_timeout, spoke)
    if said == SILENT:
        silence = link.beat.silence(now)
        log.warning("agent %s: no answer for %.0f s", link.host, silence)
        link.reason = f"the agent did not answer for {silence:.0f} s"
        return False
    if said == PING:
        link.out.append({"op": "ping"})
    return True
