"""xce explain: a pending job's decision trace, worked out on request.

The controller builds its usual snapshot and runs the pure scheduler over
it once with a Tracer naming the asked-for jobs; the decisions are thrown
away (the regular pass dispatches), the traces go back in the reply,
which the store keeps with the request id.  Only the job's owner or an
administrator may ask: the trace shows other users' use of the hosts.

Why here and not in the command: the same decisions need the controller's
own view (agent links, fairshare use, allocation limits, dependency index,
the parsed configuration), none of which a user command may load.
"""

from xce.controller import schedpass
from xce.errors import text
from xce.model import states

KIND = "explain"


def handle(ctl, user, doc, now):
    jobs = ctl.find_jobs(int(doc["jobid"]), doc.get("idx"))
    if not jobs:
        return {"ok": False, "code": "NO_JOB", "error": text("NO_JOB")}
    if not all(ctl.may("xce explain", user, j) for j in jobs):
        return {"ok": False, "code": "PERMISSION",
                "error": text("PERMISSION")}
    keys = [(j["jobid"], j["idx"]) for j in jobs if j["stat"] == states.PEND]
    if not keys:
        return {"ok": False, "code": "NOT_PENDING", "stat": jobs[0]["stat"],
                "error": text("JOB_NOT_PENDING")}
    # The pass the controller would run, every reason asked for.
    decisions = schedpass.trace(ctl, keys)
    return {"ok": True, "traces": [decisions.traces[k] for k in sorted(keys)
                                   if k in decisions.traces]}
