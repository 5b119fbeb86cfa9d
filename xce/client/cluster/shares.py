"""bqueues -l of a fairshare queue: USER_SHARES and the SHARE_INFO_FOR table.

Each share account of the queue (a user, a group sharing one account, each
member of a ``group@``, or a user falling back on ``default``) with its
shares, its dynamic priority worked out as the scheduler does (the same
fairshare module and weights), the slots its running jobs hold (STARTED),
the CPU time charged (running jobs, and finished ones decayed by
HIST_HOURS) and the run time of the running jobs, from the jobs the store
holds: running ones, and those finished within the clean period.
"""

import time

from xce.client.cluster.users import expand
from xce.client.site import sections
from xce.client.jobs.query import DEFAULT_CLEAN_PERIOD
from xce.model import fairshare

HEADER = (" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  "
          "RUN_TIME   ADJUST")


def _number(shares):
    return f"{shares:g}"


def _usage(reader, queue, weights, params, now):
    """user -> (Usage, running slots) in *queue*."""
    try:
        period = int(params.get("CLEAN_PERIOD", DEFAULT_CLEAN_PERIOD))
    except ValueError:
        period = DEFAULT_CLEAN_PERIOD
    rows = reader.jobs(
        "queue=? AND stat NOT IN ('PEND','PSUSP') AND "
        "(stat NOT IN ('DONE','EXIT') OR end_time >= ?)", (queue, now - period),
        ("user", "stat", "start_time", "end_time", "nslots", "cpu_time"))
    out = {}
    for r in rows:
        use = fairshare.job_usage(r["stat"], r["start_time"], r["end_time"],
                                  r["nslots"], r["cpu_time"], now,
                                  weights.hist_hours)
        if use is None:
            continue
        old, slots = out.get(r["user"], (fairshare.NO_USAGE, 0))
        running = r["stat"] not in ("DONE", "EXIT")
        out[r["user"]] = (fairshare.add(old, use),
                          slots + ((r["nslots"] or 1) if running else 0))
    return out


def _accounts(pairs, groups):
    """Account names in the order USER_SHARES lists them."""
    names = []
    for name, _ in pairs:
        if name == "default":
            continue
        if name.endswith("@") and name[:-1] in groups:
            names += groups[name[:-1]]
        else:
            names.append(name)
    return list(dict.fromkeys(names))


def share_lines(reader, queue, conf, params, now=None):
    """The lines bqueues -l adds for a fairshare queue ([] for others)."""
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
    policy = fairshare.Policy(pairs, groups, weights)
    per_account = {}
    for user, (use, slots) in _usage(reader, queue, weights, params,
                                     now).items():
        name = policy.account(user)[0]
        old_use, old_slots = per_account.get(name, (fairshare.NO_USAGE, 0))
        per_account[name] = (fairshare.add(old_use, use), old_slots + slots)
    names = _accounts(pairs, groups) + sorted(
        n for n in per_account if n not in _accounts(pairs, groups))
    shares_of = dict(pairs)
    lines = ["USER_SHARES:  " + " ".join(
        f"[{n}, {_number(s)}]" for n, s in pairs), "",
        f"SHARE_INFO_FOR: {queue}/", HEADER]
    for name in names:
        use, slots = per_account.get(name, (fairshare.NO_USAGE, 0))
        shares = shares_of.get(name, policy.account(name)[1])
        prio = policy.priority(shares, slots, use)
        lines.append(f" {name:<12}{_number(shares):>7}{prio:>10.3f}"
                     f"{slots:>9}{0:>10}{use.cpu_hours * 3600:>10.1f}"
                     f"{int(use.run_hours * 3600):>10}"
                     f"{0:>9.3f}")
    return lines
