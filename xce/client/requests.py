"""Requests to the controller, as the commands make them: the body that
names jobs the way bkill's does, and LSF's line per job of the answer.

Commands reach the spool through this module (``call`` is the spool's
client side), never through ``xce.spool`` themselves.
"""

import sys

from xce.errbase import EXIT_FAILURE, XceError, text
from xce.spool.client import call

NO_TARGET = "Job ID or one of '-m', '-u' '-q' and '-J' must be specified."


def selection(words, user=None, queue=None, name=None, host=None):
    """The body that names jobs the way bkill's does."""
    from xce.client import ids      # here: bsub names no job
    parsed, every = ids.parse_list(words)
    if not parsed and not every and not any((user, queue, name, host)):
        raise XceError(NO_TARGET)
    return {"ids": parsed, "all": every, "user": user, "queue": queue,
            "name": name, "host": host}


def send(site, kind, body):
    """One request naming jobs; LSF's line per job; the exit code."""
    return print_results(call(site, kind, body))


def print_results(reply):
    """One line per job, as bkill does; the exit code."""
    if "results" not in reply:
        raise XceError(reply.get("error") or text("REQUEST_FAILED"))
    failed = False
    for r in reply["results"]:
        if r.get("error"):
            failed = True
            prefix = f"Job <{r['job']}>: " if r.get("job") else ""
            print(f"{prefix}{r['error']}", file=sys.stderr)
        else:
            print(r["text"])
    return EXIT_FAILURE if failed else 0
