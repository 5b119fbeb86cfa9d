"""badmin's requests and their LSF wording.

Names are checked against the store first, so one bad name stops the whole
command before anything changes, as LSF's badmin does.  Queue results go to
stdout (``Queue <normal> is opened``); host results go to stderr
(``Close <hostA> ...... done``), as LSF prints them.
"""

import socket
import sys

from xce.errors import EXIT_FAILURE, XceError, text
from xce.model import states
from xce.spool.client import call

QUEUE_OPS = ("qopen", "qclose", "qact", "qinact")
HOST_OPS = {"hopen": "Open", "hclose": "Close"}


def queue_names(reader, names):
    """No name: the default queue; ``all``: every queue; else check each."""
    queues = reader.queues()
    known = [q["name"] for q in queues]
    if not names:
        default = [q["name"] for q in queues if q["conf"].get("default")]
        return default[:1] or known[:1]
    if "all" in names:
        return known
    for name in names:
        if name not in known:
            raise XceError(text("BAD_QUEUE", name))
    return list(dict.fromkeys(names))


def host_names(reader, names, cluster=None):
    """No name: this host; ``all`` or the cluster's name: every host."""
    known = [h["name"] for h in reader.hosts()]
    if not names:
        names = [socket.gethostname()]
    if "all" in names or (cluster and cluster in names):
        return known
    for name in names:
        if name not in known:
            raise XceError(text("BAD_HOST", name))
    return list(dict.fromkeys(names))


def queue_control(site, op, names, comment=None):
    reply = call(site, "admin", {"op": op, "names": names,
                                 "comment": comment})
    if "results" not in reply:
        # One refusal for the request (e.g. not an admin): LSF says it per queue.
        for name in names:
            print(f"{name}: {reply.get('error') or 'Request failed'}",
                  file=sys.stderr)
        return EXIT_FAILURE
    failed = False
    for r in reply["results"]:
        if r.get("ok"):
            print(r["text"])
        else:
            failed = True
            print(r.get("error") or "Request failed", file=sys.stderr)
    return EXIT_FAILURE if failed else 0


def full_hosts(reader):
    """Hosts whose slots are all taken: hopen leaves them closed_Full."""
    from xce.client.cluster.hosts import host_view
    counts = reader.host_counts()
    return {h["name"] for h in reader.hosts()
            if host_view(dict(h, status=states.HOST_OK), counts)["status"] ==
            states.HOST_CLOSED_FULL}


def host_control(site, op, names, comment=None, full=()):
    reply = call(site, "admin", {"op": op, "names": names,
                                 "comment": comment})
    verb = HOST_OPS[op]
    if "results" not in reply:
        err = reply.get("error") or "Request failed"
        for name in names:
            print(f"{verb} <{name}> ...... Host control failed: {err}",
                  file=sys.stderr)
        return EXIT_FAILURE
    failed = False
    for name, r in zip(names, reply["results"]):
        if r.get("ok") and op == "hopen" and name in full:
            print(f"{verb} <{name}> ...... done : host remains closed due to "
                  "job limit;  ", file=sys.stderr)
        elif r.get("ok"):
            print(r["text"], file=sys.stderr)
        else:
            failed = True
            print(f"{verb} <{name}> ...... Host control failed: "
                  f"{r.get('error') or 'Request failed'}", file=sys.stderr)
    return EXIT_FAILURE if failed else 0


def reconfig(site, check_only, aborted="Reconfiguration aborted.",
             initiated="Reconfiguration initiated"):
    """badmin reconfig / ckconfig (and mbdrestart, with its own words):
    the controller checks (and applies).  Every refusal, whatever its
    cause, ends with LSF's *aborted* line."""
    print("\nChecking configuration files ...\n", file=sys.stderr)
    reply = call(site, "admin", {"op": "reconfig", "check": check_only})
    if reply.get("errors"):
        print("There are fatal errors.\n", file=sys.stderr)
        for err in reply["errors"]:
            print(err, file=sys.stderr)
    elif not reply.get("ok"):
        print(reply.get("error") or "Request failed", file=sys.stderr)
    if reply.get("errors") or not reply.get("ok"):
        if not check_only:
            print(f"\n{aborted}", file=sys.stderr)
        return EXIT_FAILURE
    for warning in reply.get("warnings") or ():
        print(f"Warning: {warning}", file=sys.stderr)
    print("No errors found.\n", file=sys.stderr)
    if not check_only:
        print(initiated)
    return 0


# badmin hrestart / hshutdown / hstartup: LSF's words for each (stderr).
AGENT_OPS = {"hrestart": "Restart slave batch daemon on",
             "hshutdown": "Shut down slave batch daemon on",
             "hstartup": "Start up slave batch daemon on"}


def agent_targets(reader, op, names, force, cluster=None):
    """The hosts to act on, after LSF's confirmations: ``all`` asks once
    for every host, then host by host if the answer was no; hstartup asks
    for each named host too.  ``-f`` asks nothing."""
    targets = host_names(reader, names, cluster)
    if force or not names:
        return targets
    words = AGENT_OPS[op]
    every = "all" in names or (cluster and cluster in names)
    if every and op != "hstartup" and _confirm(f"\n{words} all the hosts? "
                                               "[y/n] "):
        return targets
    if every or op == "hstartup":
        return [h for h in targets if _confirm(f"\n{words} <{h}>? [y/n] ")]
    return targets


def _confirm(prompt):
    print(prompt, end="", flush=True)
    answer = sys.stdin.readline()
    return answer.strip().lower() in ("y", "yes")


def agent_control(site, op, names):
    """One request for every host; ``<words> <host> ...... done`` each."""
    if not names:
        return 0
    reply = call(site, "admin", {"op": op, "names": names})
    words = AGENT_OPS[op]
    results = reply.get("results") or \
        [{"error": reply.get("error") or text("REQUEST_FAILED")}] * len(names)
    failed = False
    for name, r in zip(names, results):
        if r.get("ok"):
            print(f"{words} <{name}> ...... done", file=sys.stderr)
        else:
            failed = True
            print(f"{words} <{name}> ...... Host control failed: "
                  f"{r.get('error') or 'Request failed'}", file=sys.stderr)
    return EXIT_FAILURE if failed else 0
