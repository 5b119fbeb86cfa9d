"""xce sim --plot FILE: queue length, running slots and utilization over
the replay's time, drawn with matplotlib (an optional extra: xce[sim]),
because a curve shows where the waits pile up faster than a table.

The curves come from the jobs' submit, start and end times alone, after
the replay; the format follows FILE's suffix (png, svg, pdf).
"""

import matplotlib

matplotlib.use("Agg")       # a file, never a window

import matplotlib.pyplot as plt  # noqa: E402

HOUR = 3600.0


def series(records):
    """(times, pending jobs, running slots) at each instant where one of
    them changes, from the jobs' submit, start and end."""
    deltas = {}
    for r in records:
        _add(deltas, r.submit, 1, 0)
        if r.start is not None:
            _add(deltas, r.start, -1, r.procs)
            if r.end is not None:
                _add(deltas, r.end, 0, -r.procs)
    times, pending, running = [], [], []
    p = s = 0
    for t in sorted(deltas):
        dp, ds = deltas[t]
        p, s = p + dp, s + ds
        times.append(t)
        pending.append(p)
        running.append(s)
    return times, pending, running


def _add(deltas, t, dp, ds):
    old = deltas.get(t, (0, 0))
    deltas[t] = (old[0] + dp, old[1] + ds)


def draw(replay, slots, path):
    times, pending, running = series(replay.records.values())
    if not times:
        times, pending, running = [0.0], [0], [0]
    start = times[0]
    hours = [(t - start) / HOUR for t in times]
    fig, (ax_q, ax_s, ax_u) = plt.subplots(3, 1, sharex=True,
                                           figsize=(10, 7))
    ax_q.step(hours, pending, where="post", color="tab:red")
    ax_q.set_ylabel("pending jobs")
    ax_s.step(hours, running, where="post", color="tab:blue")
    ax_s.axhline(slots, color="grey", linewidth=0.8, linestyle="--")
    ax_s.set_ylabel("running slots")
    ax_u.plot(hours, _utilization(times, running, slots), color="tab:green")
    ax_u.set_ylabel("utilization\n(cumulative)")
    ax_u.set_ylim(0, 1.05)
    ax_u.set_xlabel("hours from the first submission")
    fig.suptitle(f"xce sim: {len(replay.records)} jobs on {slots} slots")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _utilization(times, running, slots):
    """Slot-seconds used so far over slots x time so far."""
    out, used = [], 0.0
    for i, t in enumerate(times):
        if i:
            used += running[i - 1] * (t - times[i - 1])
        span = t - times[0]
        out.append(used / (slots * span) if span else 0.0)
    return out
