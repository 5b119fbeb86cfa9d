"""What the spool's per-user bound costs the controller per turn.

Each turn the controller claims a batch of up to 5,000 waiting requests
(listing, open, fstat, read, parse).  The per-user bound on waiting
requests (XCE_SPOOL_USER_REQUESTS / XCE_SPOOL_USER_MB) is counted from the
fstat the claim makes anyway; only a backlog past the batch costs one
lstat per further name, so that a flood is removed at once.  Figures: the
claim of 5,000 waiting requests, and of the first 5,000 of 50,000 (the
backlog counted, none past its bound), CPU and file system, no daemons.
"""

import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

from _common import emit, note

from xce.spool import layout
from xce.spool.client import new_request_id
from xce.spool.server import SpoolServer

BATCH = 5000


def _spool(root, count):
    """*count* waiting requests, written plainly (no fsync: set-up only)."""
    server = SpoolServer(Path(root) / "spool")
    server.setup()
    server.limits.user_requests = 10 * count
    for _ in range(count):
        req_id = new_request_id()
        # The smallest request: what is measured is the channel, not the
        # validation of a job's fields.
        doc = {"version": layout.VERSION, "kind": "ping", "id": req_id}
        (server.dir / "incoming" / f"{req_id}.json").write_text(
            json.dumps(doc))
    return server


def _best_ms(run, repeat=5):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def main():
    clock = itertools.count(0, 3600)    # every claim counts the backlog
    for waiting, name in ((BATCH, "spool_claim_5000"),
                          (10 * BATCH, "spool_claim_5000_of_50000")):
        with tempfile.TemporaryDirectory(prefix="xce-bench-") as root:
            server = _spool(root, waiting)
            taken = server.claim(BATCH)
            assert len(taken) == BATCH and not any(r.error for r in taken)
            emit(name, _best_ms(lambda: server.claim(BATCH, now=next(
                clock))), "ms")
            server.close()
    note("best of 5; a claim takes the batch and counts the backlog")


if __name__ == "__main__":
    sys.exit(main())
