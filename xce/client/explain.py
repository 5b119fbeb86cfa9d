"""xce explain: why a pending job is where it is, host by host.

The job and the caller's right to see it are checked against the store
first (a quick, clear answer without the controller); the controller
checks again -- it knows the caller from the kernel -- and answers with
the job's decision trace for one scheduling pass (see xce-explain(1)).
"""

import json

from xce.client.ids import parse as parse_id
from xce.client.site import current_user
from xce.errors import XceError, text as err_text
from xce.model.jobid import show
from xce.spool.client import call


def explain(site, reader, word, as_json=False):
    jobid, idx = parse_id(word)
    _check(reader, word, jobid, idx)
    reply = call(site, "explain", {"jobid": jobid, "idx": idx})
    if not reply.get("ok"):
        raise XceError(_refusal(word, reply))
    traces = reply.get("traces") or []
    for trace in traces:
        trace["jobid"] = show(*trace["job"])
    if as_json:
        print(json.dumps({"COMMAND": "xce explain", "JOBS": len(traces),
                          "RECORDS": traces}, indent=2))
    else:
        print("\n\n".join("\n".join(lines(t)) for t in traces))
    return 0


def _check(reader, word, jobid, idx):
    where, args = "jobid=?", [jobid]
    if idx is not None:
        where += " AND idx=?"
        args.append(idx)
    rows = reader.jobs(where, args, columns=("user", "stat"), readonly=True)
    if not rows:
        raise XceError(err_text("JOB_NOT_FOUND", job=word))
    me = current_user()
    admins = (reader.meta().get("admins") or "").split()
    if me != "root" and me not in admins and \
            any(r["user"] != me for r in rows):
        raise XceError(err_text("JOB_ERROR", job=word,
                            error=err_text("PERMISSION")))
    if all(r["stat"] != "PEND" for r in rows):
        raise XceError(_not_pending(word, rows[0]["stat"]))


def _not_pending(word, stat):
    return f"Job <{word}> is not pending (status {stat}): " \
        "the scheduler has no decision to explain"


def _refusal(word, reply):
    code = reply.get("code")
    if code == "NO_JOB":
        return f"Job <{word}> is not found"
    if code == "NOT_PENDING":
        return _not_pending(word, reply.get("stat"))
    return f"Job <{word}>: {reply.get('error')}"


# -- the text form -------------------------------------------------------
def lines(t):
    rank, of = t["queue_rank"]
    pos, count = t["position"]
    out = [f"Job <{t['jobid']}>, User <{t['user']}>, Queue <{t['queue']}>: "
           "one scheduling pass",
           f"  Order:    queue {rank} of {of} by priority (PRIORITY "
           f"{t['queue_priority']}); job {pos} of {count} pending in the "
           f"queue; {t['placed_before']} job(s) placed ahead of it",
           f"  Wants:    {_wants(t['wants'])}"]
    why = t.get("job_reason")
    if why:
        out.append(f"  Job-wide: {why['reason']}")
        out += [f"            {_detail(d)}" for d in why["details"]]
        out.append("  Hosts:    not looked at (a job-wide reason comes "
                   "first)")
    else:
        out.append("  Hosts:")
        for row in t["hosts"]:
            verdict = "usable" if row["usable"] else \
                f"not usable: {row['reason']}"
            out.append(f"    {row['host']:<15} {verdict}")
            out += [f"    {'':<15} {_detail(d)}" for d in row["details"]]
    out.append(f"  Decision: {_decision(t['decision'])}")
    return out


def _wants(w):
    lo, hi = w["slots"]
    parts = [f"{lo} slot{'s' if lo != 1 else ''}" if lo == hi
             else f"{lo} to {hi} slots"]
    if w.get("resreq"):
        parts.append(w["resreq"])
    if w.get("queue_select"):
        parts.append(f"queue RES_REQ {w['queue_select']}")
    return "; ".join(parts)


def _detail(d):
    had = "-" if d["had"] is None else d["had"]
    return f"{d['what']}: had {had}, wanted {d['wanted']}"


def _decision(d):
    if d["action"] == "dispatch":
        counts = {}
        for host in d["hosts"]:
            counts[host] = counts.get(host, 0) + 1
        where = " ".join(f"{n}*{h}" if n > 1 else h
                         for h, n in counts.items())
        return f"start on {where}"
    texts = []
    for text, hosts in d["reasons"]:
        texts.append(f"{text}: {len(hosts)} host{'s' if len(hosts) != 1 else ''}"
                     if hosts else text)
    return "stays pending: " + "; ".join(texts)
