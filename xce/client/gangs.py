"""xce gang set|unset (one request each) and xce gang list (the store)."""

import sys

from xce.errors import XceError, text
from xce.model import jobgroups as jg


def request(site, op, path, size=None, on_failure=None):
    """One gang request; print the controller's line; exit code."""
    from xce.spool.client import call
    if not jg.valid(path):
        raise XceError(text("BAD_JGROUP_NAME", path=path))
    body = {"op": op, "path": path}
    if size is not None:
        body["size"] = size
    if on_failure is not None:
        body["on_failure"] = on_failure
    reply = call(site, "gang", body)
    if not reply.get("ok"):
        raise XceError(reply.get("error") or text("REQUEST_FAILED"))
    print(reply["text"])
    return 0


def show(reader, out=sys.stdout):
    """One line per gang group: its path, size and failure policy."""
    rows = reader.gangs()
    if not rows:
        print("No gang group found", file=sys.stderr)
        return 0
    width = max(len("GROUP_NAME"), *(len(r[0]) for r in rows))
    print(f"{'GROUP_NAME':<{width}}  SIZE  ON_FAILURE", file=out)
    for path, size, policy in rows:
        print(f"{path:<{width}}  {size:<4}  {policy}", file=out)
    return 0
