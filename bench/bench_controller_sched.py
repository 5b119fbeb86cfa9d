"""The controller's own side of scheduling, in process (no agents):

  submit_array_1000 ms          one bsub -J "a[1-1000]" request: rows,
                                events and the commit
  snapshot_10000_pending ms     dispatch.snapshot over 10,000 pending jobs
                                (arrays, -R, -w done() on an unfinished job)
  schedule_turn_10000_pending ms  snapshot + scheduler + reasons stored

The host is never reached (no agent runs), so every job pends: this times
the bookkeeping, not placement (see bench_schedule.py for that).
"""

import os
import tempfile
import time
from pathlib import Path

from _common import emit, note

from tests.lib.xcecluster import Cluster
from xce.config import load as config_load
from xce.controller import dispatch, submit
from xce.controller.main import Controller


def spec(name=None, resreq=(), depend=None):
    return {"command": "true", "name": name, "queue": None, "nslots": [1, 1],
            "stdout": None, "stderr": None, "cwd": "/tmp", "subcwd": "/tmp",
            "resreq": list(resreq), "depend": depend, "env": {"A": "1"},
            "from_host": "h", "project": "default"}


def timed(fn):
    """CPU time of the controller's own work (the store's fsyncs aside),
    so a loaded machine does not blur the figure."""
    t0 = time.process_time()
    out = fn()
    return (time.process_time() - t0) * 1000, out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # launch: none: no agent is started, so every job pends.
        clu = Cluster(Path(tmp) / "c", mxj=1, host_extra="launch: none")
        cfg = config_load.load(clu.envdir)
        ctl = Controller(cfg, clu.envdir)
        ctl.start()
        uid = os.getuid()
        ms, _ = timed(lambda: (submit.accept(ctl, uid, spec("a[1-1000]")),
                               ctl.store.commit()))
        emit("submit_array_1000", ms, "ms")
        first = submit.accept(ctl, uid, spec("blocker"))["jobid"]
        for i in range(9):
            submit.accept(ctl, uid, spec(f"b{i}[1-900]%10",
                                  ["select[maxmem>100] rusage[mem=10]"],
                                  f"done({first})" if i % 2 else None))
        ctl.store.commit()
        note(f"{len(ctl.jobs)} pending jobs")
        ms, _ = timed(lambda: dispatch.snapshot(ctl))
        emit("snapshot_10000_pending", ms, "ms")
        ms, _ = timed(ctl._schedule)
        emit("schedule_turn_10000_pending", ms, "ms")
        ctl.store.commit()
        ms, _ = timed(ctl._schedule)
        emit("schedule_turn_again_10000_pending", ms, "ms")
        ctl.store.close()


if __name__ == "__main__":
    main()
