"""xce's own history as a workload: the jobs of a real run, read from its
state store (spool/store/xce.db), each submitted at its submit time with
its own submission (queue, -n, -R, -W, -m ...) and running as long as it
ran live, cut at its run limit as live.

Dependencies (-w) are left out: the replay's job ids are not the live
ones (each array element is a job of its own here).  Jobs that never
started or have not ended live give no run time and are skipped, counted
like a trace's bad lines.  To compare decisions with the live run, use
--verify, which replays the run itself.
"""

import json
from pathlib import Path

from xce.model import states
from xce.sim.swf import Trace, TraceJob
from xce.store.reader import Reader

# Spec keys the controller adds after submission (apply, preemption),
# from what happened live: a failed pre-exec's retry, a requeue's count
# and excluded hosts are not the replay's.
LATER_KEYS = ("preempted", "rusage_alt", "gpu_alloc", "unkwn",
              "share_group", "share_path",
              "output_fallback", "preexec_tries", "preexec_retry_at",
              "auto_requeues", "requeue_excluded",
              "depend")
SQLITE = b"SQLite format 3\x00"


def is_store(path):
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE)) == SQLITE
    except OSError:
        return False


def read(path):
    trace = Trace()
    with Reader(Path(path), history=True) as reader:
        rows = reader.jobs()
    for n, job in enumerate(rows, 1):
        start, end = job.get("start_time"), job.get("end_time")
        if job["stat"] not in states.FINISHED or start is None or \
                end is None or job.get("submit_time") is None:
            trace.bad.append((n, "the job did not run to its end live"))
            continue
        spec = job["spec"]
        spec = dict(json.loads(spec) if isinstance(spec, str) else spec)
        for key in LATER_KEYS:
            spec.pop(key, None)
        spec["queue"] = job["queue"]
        run = max(0.0, end - start)
        limit = float(spec["runlimit"]) * 60 if spec.get("runlimit") \
            else run
        trace.jobs.append(TraceJob(
            job["jobid"], job["submit_time"], run, job["nslots"], limit,
            job["user"], "", -1, n, spec))
    trace.jobs.sort(key=lambda j: (j.submit, j.number))
    return trace
