"""badmin hrestart / hshutdown / hstartup: the agents' lifecycle.

LSF's badmin restarts, stops and starts sbatchd, the slave batch daemon;
here that daemon is the agent.  Restart and shutdown are messages to the
agent over its link; the agent leaves its jobs running either way.  A
restarted agent re-executes itself in place and re-adopts its jobs from its
journal, the same path as after a kill -9.

A shut-down host is *held*: the controller neither reconnects to it nor
launches its agent until ``hstartup``.  The held hosts are kept in the
store's meta (``agents_down``), so a restarted controller does not start
them again either.  While a host restarts, losing its link does not make
its jobs UNKWN; if it is not back within RESTART_WAIT, host loss applies.
"""

import json
import logging
import sqlite3

from xce.errors import text
from xce.store.writer import saved_meta

log = logging.getLogger("xce.controller")

OPS = ("hrestart", "hshutdown", "hstartup")
RESTART_WAIT = 30.0     # seconds a restarting agent has to say hello again
META_KEY = "agents_down"


def load(ctl):
    """The hosts held down, as the store remembers them."""
    ctl.agents_down = held_in(ctl.store.meta(META_KEY, "[]"))


def held_in(saved):
    """The names of the hosts held down, from the store's META_KEY."""
    try:
        return set(json.loads(saved or "[]"))
    except ValueError:
        return set()


def saved_held(db):
    """The hosts held down as the store file DB says, read before the
    controller opens it; None when it cannot be read."""
    try:
        return held_in(saved_meta(db, META_KEY))
    except sqlite3.Error:
        return None


def held(ctl, name):
    return name in ctl.agents_down


def restarting(ctl, name, now):
    """NAME's agent was asked to restart and may still be on its way back."""
    return ctl.hosts.get(name, {}).get("restart_until", 0.0) > now


def handle(ctl, op, names, now, said=None):
    """One admin request; a result per host, in the order asked."""
    if "all" in names:
        names = list(ctl.hosts)
    results = []
    for name in names:
        if name not in ctl.hosts:
            results.append({"error": text("BAD_HOST", name)})
        elif op == "hstartup":
            results.append(_startup(ctl, name, now, said))
        else:
            results.append(_stop(ctl, name, op == "hrestart", now, said))
    _save(ctl)
    ctl.dirty = True
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _stop(ctl, name, restart, now, said):
    link = ctl.links.get(name)
    if held(ctl, name) or link is None or not link.connected:
        return {"error": text("SBD_UNREACH")}
    link.queue({"op": "exit", "restart": restart})
    if restart:
        ctl.hosts[name]["restart_until"] = now + RESTART_WAIT
    else:
        ctl.agents_down.add(name)
    ctl.store.event(now, "HOST_CTRL", host=name,
                    op="hrestart" if restart else "hshutdown", **(said or {}))
    log.info("%s the agent on %s", "restarting" if restart else
             "shutting down", name)
    return {"ok": True}


def _startup(ctl, name, now, said):
    """Release the hold: the next turn connects (and launches the agent
    where the controller launches agents)."""
    ctl.agents_down.discard(name)
    link = ctl.links.get(name)
    if link is not None and not link.connected:
        link.next_try = 0.0
    ctl.store.event(now, "HOST_CTRL", host=name, op="hstartup",
                    **(said or {}))
    return {"ok": True}


def _save(ctl):
    ctl.store.set_meta(META_KEY, json.dumps(sorted(ctl.agents_down)))
