"""bjobs latency with 0, 1,000, 10,000 and 100,000 jobs in the store.

The store is filled by writing rows with the controller's own writer into
the stopped cluster's store (see _jobs.fill_store), then the controller is
started again and ``bjobs`` (the caller's unfinished jobs) and ``bjobs -a``
are timed as a user runs them, output included.

Mix at each size N: up to 10,000 jobs PEND (in an inactive queue, so they
stay pending), the rest DONE within the clean period (so ``bjobs -a`` shows
them).  N=1,000 and 10,000 are all pending; N=100,000 is 10,000 pending and
90,000 done.  Targets (issue 2): <= 94 ms at 10,000, <= 500 ms at 100,000.
``bjobs -W`` and ``bjobs -P default`` are timed too: they read whole rows
and decode each job's submission, so they cost more than the default.
``bjobs <id>`` (one pending job, named) is what a script polls: target
(issue 12) <= 60 ms at 100,000, and <= 25 ms for ``bjobs`` at 0.  Each
figure has a ``_cpu_`` twin: the command's user+system time, which moves
much less than the wall time with other people's load; with valgrind
installed, ``bjobs_instructions_0`` is what ``bjobs`` executes on the
empty cluster (callgrind's count, which the load does not move).

``--sizes 0,100000`` times only those sizes.
"""

import argparse

import sys

from _common import cluster, emit, instructions, median_ms, note, timed
from _jobs import count_jobs, fill_store, template_row, wait_for

SIZES = (0, 1000, 10000, 100000)
MAX_PENDING = 10000
QUEUE = "normal"


def runs_for(n):
    return 7 if n >= 100000 else 20


def time_bjobs(clu, n, *args):
    """(wall seconds, CPU seconds) of each run."""
    timed(clu, "bjobs", *args, check=False)       # warm the page cache
    return [timed(clu, "bjobs", *args, check=False)[:2]
            for _ in range(runs_for(n))]


def emit_times(name, n, samples):
    emit(f"{name}_latency_median_{n}", median_ms([w for w, _ in samples]),
         "ms")
    emit(f"{name}_cpu_median_{n}", median_ms([c for _, c in samples]), "ms")


def some_pending_job(clu):
    from _jobs import store_path
    from xce.store.reader import Reader
    reader = Reader(store_path(clu))
    try:
        return reader.db.execute(
            "SELECT MAX(jobid) FROM jobs WHERE stat='PEND'").fetchone()[0]
    finally:
        reader.db.close()


def settle(clu, pending):
    """Wait until the restarted controller has given every pending job its
    pend reason: its first scheduling pass over them is then committed."""
    if pending:
        wait_for(lambda: count_jobs(
            clu, "stat='PEND' AND pend_reason IS NOT NULL") >= pending,
            timeout=120, what="pend reasons")


def refill(clu, template, n):
    clu.stop()
    from xce.store.writer import Store
    store = Store(clu.spool / "store" / "xce.db")
    store.execute("DELETE FROM jobs")
    store.commit()
    store.close()
    pending = min(n, MAX_PENDING)
    fill_store(clu, template, n - pending, pending, inactive_queue=QUEUE)
    clu.start()
    settle(clu, pending)
    got = count_jobs(clu)
    if got != n:
        raise RuntimeError(f"store holds {got} jobs, expected {n}")


def main(argv=()):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="comma-separated job counts (default: %(default)s)")
    sizes = [int(n) for n in ap.parse_args(argv).sizes.split(",")]
    template = None
    with cluster() as clu:
        for n in sizes:
            if n:
                template = template or template_row(clu)
                refill(clu, template, n)
            default = time_bjobs(clu, n)
            note(f"bjobs at {n}: {len(default)} runs each")
            emit_times("bjobs", n, default)
            count = instructions(clu, "bjobs", check=False) if n == 0 \
                else None
            if count is not None:
                emit("bjobs_instructions_0", count, "instructions")
            emit_times("bjobs_a", n, time_bjobs(clu, n, "-a"))
            # Layouts that read whole rows (the submission decoded per job).
            for name, args in (("W", ("-W",)), ("P", ("-P", "default"))):
                emit_times(f"bjobs_{name}", n, time_bjobs(clu, n, *args))
            if n:
                emit_times("bjobs_id", n,
                           time_bjobs(clu, n, str(some_pending_job(clu))))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
