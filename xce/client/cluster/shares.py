"""bqueues -l of a fairshare queue: USER_SHARES and the SHARE_INFO_FOR table.

Each share account of the queue (a user, a group sharing one account, each
member of a ``group@``, or a user falling back on ``default``) with its
shares, its dynamic priority worked out as the scheduler does (the same
fairshare module and weights), the slots its running jobs hold (STARTED),
the CPU time charged (running jobs, and finished ones decayed by
HIST_HOURS) and the run time of the running jobs, from the jobs the store
holds: running ones, and finished ones as far back as the scheduler
counts them (xce.controller.sharehist).  A job
submitted with bsub -G counts in the account through that group, as the
scheduler charges it.
"""

import time

from xce.client.cluster.users import expand
from xce.client.site import sections
from xce.model import fairshare
from xce.store.reader import SPEC

HEADER = (" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  "
          "RUN_TIME   ADJUST")


def _number(shares):
    return f"{shares:g}"


_GROUP = (f"coalesce(json_extract({SPEC}, '$.share_group'), "
          f"json_extract({SPEC}, '$.user_group'))")


def _usage(reader, queue, weights, now):
    """(user, bsub -G group or None) -> (Usage, running slots) in
    *queue*: its unfinished jobs, and its finished ones as far back as the
    scheduler counts them (fairshare.history_since)."""
    since = fairshare.history_since(now, weights.hist_hours)
    rows = reader.jobs(
        "queue=? AND stat NOT IN ('PEND','PSUSP') AND "
        "(stat NOT IN ('DONE','EXIT') OR end_time >= ?)",
        (queue, since or 0),
        ("user", "stat", "start_time", "end_time", "nslots", "cpu_time",
         _GROUP))
    out = {}
    for r in rows:
        use = fairshare.job_usage(r["stat"], r["start_time"], r["end_time"],
                                  r["nslots"], r["cpu_time"], now,
                                  weights.hist_hours)
        if use is None:
            continue
        key = (r["user"], r[_GROUP] or None)
        old, slots = out.get(key, (fairshare.NO_USAGE, 0))
        running = r["stat"] not in ("DONE", "EXIT")
        out[key] = (fairshare.add(old, use),
                    slots + ((r["nslots"] or 1) if running else 0))
    return out


def share_lines(reader, queue, conf, params, now=None, recursive=False):
    """The lines bqueues -l adds for a fairshare queue ([] for others):
    the top level of its share tree, or with *recursive* (bqueues -r)
    every level, each group dividing its shares after its parent."""
    text = (conf.get("lsf") or {}).get("FAIRSHARE")
    if not text:
        return []
    try:
        pairs = fairshare.parse(text)
    except fairshare.FairshareError:
        return ["", f"FAIRSHARE:  {text}  (not applied: not understood)"]
    now = time.time() if now is None else now
    user_groups = sections(reader)["user_groups"]
    groups = {g: [m for m in expand(user_groups, g) if not m.startswith("~")]
              for g in user_groups}
    weights = fairshare.factors_from(params, conf.get("lsf"))
    shares, members, _ = fairshare.tree_config(user_groups)
    policy = fairshare.Policy(pairs, groups, weights, shares, members)
    per_node = {}
    for (user, group), (use, slots) in _usage(reader, queue, weights,
                                              now).items():
        steps = policy.path(user, group)
        for depth in range(1, len(steps) + 1):
            node = tuple(n for n, _ in steps[:depth])
            old_use, old_slots, _ = per_node.get(node, (fairshare.NO_USAGE,
                                                        0, 0))
            per_node[node] = (fairshare.add(old_use, use), old_slots + slots,
                              steps[depth - 1][1])
    lines = ["USER_SHARES:  " + " ".join(
        f"[{n}, {_number(s)}]" for n, s in pairs)]
    for path, listed in policy.levels():
        if path and not recursive:
            break
        lines += _level(policy, queue, path, listed, per_node)
    return lines


def _level(policy, queue, path, listed, per_node):
    """One SHARE_INFO_FOR table: the accounts of one level of the tree."""
    rows = [(n, s) for n, s in listed if n != "default"]
    known = {n for n, _ in rows}
    rows += sorted((node[-1], found[2]) for node, found in per_node.items()
                   if node[:-1] == path and len(node) == len(path) + 1
                   and node[-1] not in known)
    lines = ["", f"SHARE_INFO_FOR: {queue}/" + "".join(
        f"{n}/" for n in path), HEADER]
    for name, shares in rows:
        use, slots, _ = per_node.get(path + (name,),
                                     (fairshare.NO_USAGE, 0, 0))
        prio = policy.priority(shares, slots, use)
        lines.append(f" {name:<12}{_number(shares):>7}{prio:>10.3f}"
                     f"{slots:>9}{0:>10}{use.cpu_hours * 3600:>10.1f}"
                     f"{int(use.run_hours * 3600):>10}"
                     f"{0:>9.3f}")
    return lines
