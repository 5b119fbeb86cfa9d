"""What xce explain costs the controller, on bench_schedule's snapshots
(pure scheduler, no daemons; best CPU time of a few passes):

  explain_pass_100000_pending_1000_hosts ms   one pass with the trace of
                                              the last job (what one
                                              explain request costs, less
                                              the snapshot)
  explain_trace_extra_1000_hosts ms           that pass minus a plain one
  explain_trace_1000_hosts KB                 the trace as JSON (the reply)
  schedule_untraced_100000_pending_1000_hosts ms   a regular pass, for
                                              comparison: it does no trace
                                              work at all
"""

import json
import time

from _common import emit, note
from bench_schedule import snapshot

from xce.scheduler.core import schedule
from xce.scheduler.trace import Tracer


def _best(queues, hosts, jobs, keys, runs=3):
    times, out = [], None
    for _ in range(runs):
        t0 = time.process_time()
        out = schedule(queues, hosts, jobs,
                       trace=Tracer(keys) if keys else None)
        times.append((time.process_time() - t0) * 1000)
    return min(times), out


def main():
    queues, hosts, jobs = snapshot(100000, 1000)
    # The last job of the lowest queue: every host is looked at after the
    # whole pass has filled them.
    last = max((j for j in jobs if j.queue == "low"), key=lambda j: j.seq)
    plain, _ = _best(queues, hosts, jobs, None)
    traced, out = _best(queues, hosts, jobs, [last.key])
    trace = out.traces[last.key]
    note(f"traced job {last.key}: {len(trace['hosts'])} hosts, decision "
         f"{trace['decision']['action']}")
    emit("schedule_untraced_100000_pending_1000_hosts", plain, "ms")
    emit("explain_pass_100000_pending_1000_hosts", traced, "ms")
    emit("explain_trace_extra_1000_hosts", traced - plain, "ms")
    emit("explain_trace_1000_hosts", len(json.dumps(trace)) / 1024.0, "KB")


if __name__ == "__main__":
    main()
