"""What a replay measures, per job and summarised (overall, per queue,
per user), with the scheduling literature's definitions:

wait                = start - submit
bounded slowdown    = max(1, (wait + run) / max(run, TAU)), TAU = 10 s
utilization         = slot-seconds run / (slots x makespan)
makespan            = last end - first submit
"""

TAU = 10.0
LONGEST = 10        # the longest waits listed


def wait(rec):
    return rec.start - rec.submit


def bounded_slowdown(rec):
    return max(1.0, (wait(rec) + rec.run) / max(rec.run, TAU))


def _mean(values):
    return sum(values) / len(values) if values else 0.0


def _group(records):
    waits = [wait(r) for r in records]
    return {"jobs": len(records), "mean_wait_s": _mean(waits),
            "max_wait_s": max(waits, default=0.0),
            "mean_bounded_slowdown": _mean([bounded_slowdown(r)
                                            for r in records])}


def _by(records, attr):
    groups = {}
    for rec in records:
        groups.setdefault(getattr(rec, attr), []).append(rec)
    return {name: _group(recs) for name, recs in sorted(groups.items())}


def summary(replay, slots):
    """The JSON-ready summary of a finished replay on *slots* slots."""
    done = [r for r in replay.records.values() if r.end is not None]
    out = _group(done)
    if done:
        first = min(r.submit for r in done)
        makespan = max(r.end for r in done) - first
    else:
        makespan = 0.0
    used = sum(r.run * r.procs for r in done)
    out.update({
        "makespan_s": makespan,
        "utilization": used / (slots * makespan) if makespan else 0.0,
        "slots": slots,
        "killed_at_run_limit": sum(1 for r in done if r.killed),
        "failed": sum(1 for r in done if r.failed),
        # hosts closed by their job exit rate (EXIT_RATE), as live
        "hosts_closed": [{"host": host, "time_s": at}
                         for at, host in replay.closed],
        "rejected": [{"job": tj.number, "line": tj.line, "procs": tj.procs,
                      "reason": why} for tj, why in replay.rejected],
        "never_finished": sorted(r.number for r in replay.unfinished()),
        # SWF groups the configuration does not define: jobs replayed
        # without them, by group
        "ungrouped": dict(sorted(replay.ungrouped.items())),
        "passes": replay.passes,
        "per_queue": _by(done, "queue"),
        "per_user": _by(done, "user"),
        "longest_waits": [
            {"job": r.number, "user": r.user, "queue": r.queue,
             "procs": r.procs, "wait_s": wait(r)}
            for r in sorted(done, key=lambda r: (-wait(r), r.number))[
                :LONGEST]],
    })
    return out
