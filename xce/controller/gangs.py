"""Gang groups in the controller: `xce gang set|unset` on a job group,
and the group's failure policy when a member ends badly.

ctl.gangs is {path: {"size": n, "on_failure": "kill" | "continue"}},
kept in the store's gangs table (xce-store(5)).  Placing a gang whole or
not at all is the scheduler's (xce.scheduler.gangs, given sizes() by
schedpass), so the simulator does it too; the failure policy runs from
schedpass.noted, after every applied event, live and in the simulator.
"""

from xce.controller import jobgroups
from xce.errors import text
from xce.model import jobgroups as jg
from xce.model import states

KIND = "gang"
POLICIES = ("kill", "continue")
# The exit reason of a member ended by its gang's policy.
TERM_GANG = "TERM_GANG"


def load(ctl):
    ctl.gangs = {p: {"size": n, "on_failure": f}
                 for p, (n, f) in ctl.store.load_gangs().items()}


def sizes(ctl):
    """{group: size} of the gangs, or None (then a pass pays nothing)."""
    found = getattr(ctl, "gangs", None)
    if not found:
        return None
    return {p: g["size"] for p, g in found.items()}


def handle(ctl, user, doc, now):
    path = doc["path"]
    if not jg.valid(path):
        return _fail("BAD_JGROUP_NAME", path=path)
    path = jg.normal(path)
    if path == jg.ROOT:
        return _fail("GANG_ROOT")
    if path not in ctl.job_groups:
        return _fail("JGROUP_NULL", path=path)
    if not jobgroups.may(ctl, user, path):
        return _fail("JGROUP_PERMISSION", path=path)
    if doc["op"] == "unset":
        if path not in ctl.gangs:
            return _fail("GANG_NOT_SET", path=path)
        del ctl.gangs[path]
        ctl.store.delete_gang(path)
        ctl.dirty = True
        return {"ok": True, "text": text("GANG_UNSET", path=path)}
    was = ctl.gangs.get(path, {})
    size = doc.get("size") or was.get("size")
    policy = doc.get("on_failure") or was.get("on_failure") or "kill"
    if size is None:
        return _fail("GANG_NEEDS_SIZE", path=path)
    ctl.gangs[path] = {"size": size, "on_failure": policy}
    ctl.store.save_gang(path, size, policy)
    ctl.dirty = True
    return {"ok": True, "text": text("GANG_SET", path=path, size=size,
                                     on_failure=policy)}


def member_ended(ctl, job):
    """After an event: a member of a gang whose policy is kill ended
    EXIT (other than by that policy): end the group's other unfinished
    members, pending ones at once, started ones by the kill sequence."""
    if job["stat"] != states.EXIT or job.get("exit_reason") == TERM_GANG:
        return
    path = job["spec"].get("job_group")
    gang = getattr(ctl, "gangs", {}).get(path) if path else None
    if gang is None or gang["on_failure"] != "kill":
        return
    by = f"gang <{path}>: job <{ctl.label(job)}> exited"
    for other in list(ctl.jobs.values()):
        if other is job or other["spec"].get("job_group") != path or \
                other["stat"] in states.FINISHED:
            continue
        if other["stat"] in states.PENDING:
            ctl.emit("STATUS", other, stat=states.EXIT, reason=TERM_GANG,
                     by=by)
        elif other["stat"] in states.RUNNING:
            ctl.emit("SIGNAL", other, signal="KILL", by=by)
            ctl.send_signal(other, "KILLSEQ", TERM_GANG)


def _fail(key, **fields):
    return {"ok": False, "error": text(key, **fields)}
