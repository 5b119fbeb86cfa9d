"""The controller's wait between turns: the doorbell, the agents' links,
the signals, or the deadline ``run_once`` returned.

``run_forever(ctl)`` only waits and hands what arrived to
``ctl.run_once``; SIGTERM and SIGINT only record that the controller is to
stop, which it does after the turn.
"""

import logging
import selectors
import signal
import time

from xce import daemon
from xce.controller import agents, spoolspace

log = logging.getLogger("xce.controller")


def run_forever(ctl):
    sel = selectors.DefaultSelector()
    sel.register(ctl.spool.doorbell, selectors.EVENT_READ, None)
    rfd = daemon.signal_wakeup_pipe()
    sel.register(rfd, selectors.EVENT_READ, None)

    def stop(*_):
        ctl.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    registered = {}
    timeout = 0.0
    while not ctl.stopping:
        _sync_links(sel, ctl.links, registered)
        inbox = []
        for key, _ in sel.select(timeout):
            if key.data is not None:
                msgs = ctl.links[key.data].recv()
                if msgs is None:
                    ctl.link_lost(key.data)
                else:
                    inbox.append((key.data, msgs))
            elif key.fd == rfd:
                daemon.drain(rfd)
        timeout = ctl.run_once(inbox=inbox)
        retry = agents.retry_wait(ctl.links, ctl.agents_down, time.time())
        if retry is not None:
            timeout = min(timeout, retry)
    log.info("controller stopping")
    spoolspace.commit(ctl, stopping=True)
    ctl.store.close()
    ctl.spool.close()


def _sync_links(sel, links, registered):
    for name, link in links.items():
        sock = link.sock
        if registered.get(name) is not sock:
            if registered.get(name) is not None:
                try:
                    sel.unregister(registered[name])
                except (KeyError, ValueError):
                    pass
            if sock is not None:
                sel.register(sock, selectors.EVENT_READ, name)
            registered[name] = sock
