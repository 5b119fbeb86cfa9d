"""bjobs -p0 .. -p3: LSF's pending-reason levels.

Level 0 is the classic list (job-wide reasons, host reasons with counts);
level 1 the single key reason; levels 2 and 3 sort host reasons into
candidate hosts (could run the job once something frees up) and
non-candidate hosts (cannot run it as it stands): level 2 shows the
candidate hosts' reasons, level 3 both kinds, each reason with the number
of hosts that give it, the most common first (IBM's bjobs -p).  The
host-based texts that make a host a non-candidate are the scheduler's
"whatever its load" reasons.
"""


from xce.client.jobs import table
from xce.model import jsoncodec

NON_CANDIDATE = frozenset({
    "Not usable to the queue", "Unable to reach slave batch server",
    "Closed by LSF administrator",
    "Queue's resource requirements not satisfied",
    "Job's resource requirements not satisfied",
    "Not specified in job submission",
})


# Non-candidate reasons that only say a host is outside what the job may
# use at all (its -m list, the queue's HOSTS): never the key reason
# while a host the job could use has one.
OUTSIDE = frozenset({"Not usable to the queue",
                     "Not specified in job submission"})


def _reasons(row):
    try:
        reasons = row["pend_reason"]
        return jsoncodec.loads(reasons) if reasons else []
    except ValueError:
        return []


def _hosts_text(hosts):
    return f"{len(hosts)} host{'s' if len(hosts) != 1 else ''}"


def key_reason(row):
    """-p1: the job-wide reason; else the host reason on the most
    candidate hosts (what the job waits for); else the one on the most
    hosts the job could use (the closed host of a -m list rather than
    the many hosts outside it); else the most common."""
    reasons = _reasons(row)
    if row["stat"] == "PSUSP" or not reasons:
        return table.pend_reasons(row)[:1]
    wide = [t for t, hosts in reasons if hosts is None]
    if wide:
        return [f" {wide[0]};"]
    for keep in (lambda t: t not in NON_CANDIDATE,
                 lambda t: t not in OUTSIDE, lambda t: True):
        found = [r for r in reasons if keep(r[0])]
        if found:
            break
    text, hosts = max(found, key=lambda r: len(r[1]))
    return [f" {text}: {_hosts_text(hosts)};"]


def categorized(row, n_hosts, both):
    """-p2 (the candidate hosts) and -p3 (*both*: the non-candidate hosts
    too), each reason with its number of hosts, the most common first."""
    reasons = _reasons(row)
    if row["stat"] == "PSUSP" or not reasons:
        return table.pend_reasons(row)
    lines = [f" {t};" for t, hosts in reasons if hosts is None]
    by_count = sorted((r for r in reasons if r[1] is not None),
                      key=lambda r: -len(r[1]))
    cand = [(t, h) for t, h in by_count if t not in NON_CANDIDATE]
    non = [(t, h) for t, h in by_count if t in NON_CANDIDATE]
    n_non = len({x for _, h in non for x in h})
    n_cand = max(n_hosts - n_non, 0)
    if lines:
        lines.append("")
    lines.append(f" Candidate host pending reasons ({n_cand} of {n_hosts} "
                 f"hosts){':' if cand else '.'}")
    lines += [f"   {t}: {_hosts_text(h)};" for t, h in cand]
    if both:
        lines += ["", f" Non-candidate host pending reasons ({n_non} of "
                  f"{n_hosts} hosts){':' if non else '.'}"]
        lines += [f"   {t}: {_hosts_text(h)};" for t, h in non]
    return lines


def reason_lines(row, level, n_hosts):
    if level == 1:
        return key_reason(row)
    if level in (2, 3):
        return categorized(row, n_hosts, level == 3)
    return table.pend_reasons(row)
