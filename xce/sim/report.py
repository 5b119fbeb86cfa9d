"""The summary of a replay for the terminal (tables, via tabulate) and
for scripts (one JSON object on the last line)."""

import json

from tabulate import tabulate

from xce.errors import text

USERS_SHOWN = 10        # the users with the longest mean wait


def _num(value, digits=1):
    return f"{value:,.{digits}f}"


def table(s):
    """The terminal report of summary *s* (metrics.summary)."""
    parts = [tabulate([
        ("jobs", f"{s['jobs']:,}"),
        ("mean wait (s)", _num(s["mean_wait_s"])),
        ("max wait (s)", _num(s["max_wait_s"])),
        ("mean bounded slowdown (tau 10 s)",
         _num(s["mean_bounded_slowdown"], 2)),
        ("utilization", f"{s['utilization']:.1%}"),
        ("makespan (s)", _num(s["makespan_s"], 0)),
        ("slots", f"{s['slots']:,}"),
        ("killed at their run limit", f"{s['killed_at_run_limit']:,}"),
        ("failed (trace status 0)", f"{s['failed']:,}"),
        ("hosts closed by exit rate", ", ".join(
            h["host"] for h in s["hosts_closed"]) or "0"),
        ("rejected", f"{len(s['rejected']):,}"),
        ("never finished", f"{len(s['never_finished']):,}"),
    ], tablefmt="plain")]
    parts.append(_groups("queue", s["per_queue"], s["per_queue"]))
    users = sorted(s["per_user"].items(),
                   key=lambda kv: (-kv[1]["mean_wait_s"], kv[0]))
    parts.append(_groups(f"user (the {USERS_SHOWN} longest mean waits)",
                         dict(users[:USERS_SHOWN]), s["per_user"]))
    parts.append(tabulate(
        [(w["job"], w["user"], w["queue"], w["procs"], _num(w["wait_s"]))
         for w in s["longest_waits"]],
        headers=("longest waits: job", "user", "queue", "procs",
                 "wait (s)"), tablefmt="simple"))
    return "\n\n".join(parts)


def _groups(title, shown, every):
    rows = [(name, f"{g['jobs']:,}", _num(g["mean_wait_s"]),
             _num(g["max_wait_s"]), _num(g["mean_bounded_slowdown"], 2))
            for name, g in shown.items()]
    return tabulate(rows, headers=(title, "jobs", "mean wait (s)",
                                   "max wait (s)", "mean bsld"),
                    tablefmt="simple")


def json_line(s):
    return json.dumps(s, sort_keys=True)


def rejected_lines(s):
    """For standard error: the jobs replayed without their trace's user
    group, then one line per job the cluster cannot take."""
    return _ungrouped_lines(s.get("ungrouped") or {}) + [
        text("SIM_REJECTED", job=r["job"], line=r["line"],
             procs=r["procs"], reason=r["reason"])
        for r in s["rejected"]]


def _ungrouped_lines(groups, shown=10):
    if not groups:
        return []
    more = f" and {len(groups) - shown} more" if len(groups) > shown else ""
    return ["warning: " + text(
        "SIM_UNGROUPED", count=f"{sum(groups.values()):,}",
        groups=", ".join(list(groups)[:shown]), more=more)]
