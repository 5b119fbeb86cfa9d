"""Where the controller's turn answers a submission, in CPU time:

  reply_turn_cpu_to_reply ms   from the start of the turn that takes one
                               ``bsub true`` request to its reply being
                               written (intake, pass, commit, agents'
                               messages, the reply): what a waiting bsub
                               waits for, the commit's fsync aside
  reply_turn_cpu ms            the whole turn (lsb.events/lsb.acct,
                               retention and copies back included)

Medians over serial requests to a controller in process (no agent, so
the job pends: the pass gives it its reasons).  CPU time of the
controller's thread, so other work on the machine hardly moves it.
"""

import logging
import os
import statistics
import tempfile
import time
from pathlib import Path

from _common import emit, env_for, note

from tests.lib.xcecluster import Cluster

RUNS = 200
WARMUP = 5


def main():
    from xce.cli import bsub
    from xce.config import load as config_load
    from xce.controller.main import Controller
    from xce.envdir import Site
    from xce.spool.client import write_request
    # No agent runs: its link's failures are expected, not news.
    logging.getLogger("xce").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        clu = Cluster(Path(tmp) / "c", mxj=1, host_extra="launch: none")
        ctl = Controller(config_load.load(clu.envdir), clu.envdir)
        ctl.start()
        env_for(clu)
        site = Site(clu.envdir)
        spec = bsub.build_spec(bsub._parse(["true"]), site)
        replied = []
        reply = ctl.spool.reply

        def timed_reply(req, doc):
            reply(req, doc)
            replied.append(time.thread_time())
        ctl.spool.reply = timed_reply
        to_reply, whole = [], []
        for n in range(WARMUP + RUNS):
            write_request(site.spool, "submit", {"spec": dict(spec)},
                          durable=False)
            replied.clear()
            t0 = time.thread_time()
            ctl.run_once()
            t1 = time.thread_time()
            if len(replied) != 1:
                raise RuntimeError(f"{len(replied)} replies in one turn")
            if n >= WARMUP:
                to_reply.append(replied[0] - t0)
                whole.append(t1 - t0)
        ctl.store.close()
        os.environ.pop("XCE_ENVDIR", None)
    note(f"{RUNS} turns of one submission each, {len(ctl.jobs)} jobs")
    emit("reply_turn_cpu_to_reply", statistics.median(to_reply) * 1000, "ms")
    emit("reply_turn_cpu", statistics.median(whole) * 1000, "ms")


if __name__ == "__main__":
    main()
