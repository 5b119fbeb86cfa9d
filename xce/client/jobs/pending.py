"""bjobs -pe, -pi and -psum: eligible and ineligible pending jobs, and a
summary of why the pending jobs wait.

A pending job is ineligible when it would stay pending whatever resources
were free: it is held (PSUSP), its queue is inactive, or its dependency is
not (or never) satisfied.  Every other pending job is eligible.
-psum counts jobs per job-wide reason and, for the reasons given per host,
jobs under "Individual host based reasons" with each host reason's
occurrences (one per job and host), most frequent first.
"""

import time

from xce.client.jobs import table
from xce.model import jsoncodec

# The scheduler's job-wide texts that make a job ineligible.
INELIGIBLE = frozenset({
    "The queue is inactivated by the administrator",
    "Job dependency condition not satisfied",
    "Dependency condition invalid or never satisfied",
})
HOST_BASED = "Individual host based reasons"
_LABEL_WIDTH = 56


def _reasons(row):
    try:
        reasons = row["pend_reason"]
        return jsoncodec.loads(reasons) if reasons else []
    except ValueError:
        return []


def eligible(row):
    if row["stat"] == "PSUSP":
        return False
    return not any(hosts is None and text in INELIGIBLE
                   for text, hosts in _reasons(row))


def select(rows, want_eligible):
    return [r for r in rows if eligible(r) == want_eligible]


def _job_reasons(row):
    """(job-wide texts, {host text: occurrences}) of one pending job."""
    if row["stat"] == "PSUSP":
        return [table.held_reason(row)], {}
    reasons = _reasons(row)
    if not reasons:
        return [table.NEW_REASON], {}
    wide = [t for t, hosts in reasons if hosts is None]
    per_host = {t: len(hosts) for t, hosts in reasons if hosts is not None}
    return wide, per_host


def summary(rows, cluster, now=None):
    """The -psum text for the pending *rows*."""
    now = time.time() if now is None else now
    jobs, host_jobs, occurrences = {}, 0, {}
    for row in rows:
        wide, per_host = _job_reasons(row)
        for text in wide:
            jobs[text] = jobs.get(text, 0) + 1
        if per_host:
            host_jobs += 1
        for text, n in per_host.items():
            occurrences[text] = occurrences.get(text, 0) + n
    lines = [f"Pending reason summary: published "
             f"{time.ctime(now)}",
             f"Summarizing {len(rows)} pending job{_s(len(rows))} in cluster "
             f"({cluster}):"]
    top = sorted(jobs.items(), key=lambda kv: -kv[1])
    if host_jobs:
        top.append((HOST_BASED, host_jobs))
        top.sort(key=lambda kv: -kv[1])
    for text, n in top:
        lines.append(f"{text + ':':<{_LABEL_WIDTH}} {n} job{_s(n)}")
        if text == HOST_BASED:
            lines += [f"    {t + ':':<{_LABEL_WIDTH - 4}} {k}" for t, k in
                      sorted(occurrences.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


def _s(n):
    return "" if n == 1 else "s"
