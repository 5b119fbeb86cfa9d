"""Gang groups in the controller: `xce gang set|unset` on a job group,
and the group's failure policy when a member ends badly.

ctl.gangs is {path: {"size": n, "on_failure": "kill" | "continue"}},
kept in the store's gangs table (xce-store(5)).  Placing a gang whole or
not at all is the scheduler's (xce.scheduler.gangs, given sizes() by
schedpass), so the simulator does it too; the failure policy runs from
schedpass.noted, after every applied event, live and in the simulator.
"""

import json

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
    from xce.controller import jobgroups    # it drops gangs (dropped)
    if not jobgroups.may(ctl, user, path):
        return _fail("JGROUP_PERMISSION", path=path)
    if doc["op"] == "unset":
        if path not in ctl.gangs:
            return _fail("GANG_NOT_SET", path=path)
        dropped(ctl, path)
        return {"ok": True, "text": text("GANG_UNSET", path=path)}
    was = ctl.gangs.get(path, {})
    size = doc.get("size") or was.get("size")
    policy = doc.get("on_failure") or was.get("on_failure") or "kill"
    if size is None:
        return _fail("GANG_NEEDS_SIZE", path=path)
    put(ctl, path, size, policy)
    ctl.store.event(now, "GANG_SET", path=path, size=size, on_failure=policy)
    return {"ok": True, "text": text("GANG_SET", path=path, size=size,
                                     on_failure=policy)}


def put(ctl, path, size, policy):
    """Make *path* a gang (xce sim --verify replays GANG_SET with it)."""
    ctl.gangs[path] = {"size": size, "on_failure": policy}
    ctl.store.save_gang(path, size, policy)
    ctl.dirty = True


def dropped(ctl, path):
    """*path* is no longer a gang (xce gang unset, or its group deleted):
    a GANG_UNSET event, so that a replay of the log drops it too."""
    if ctl.gangs.pop(path, None) is None:
        return
    ctl.store.delete_gang(path)
    ctl.store.event(ctl.now, "GANG_UNSET", path=path)
    ctl.dirty = True


def member_ended(ctl, job):
    """After an event: a member of a gang whose policy is kill ended
    EXIT (other than by that policy): end the group's other unfinished
    members, pending ones at once, started ones by the kill sequence."""
    if job["stat"] != states.EXIT or job.get("exit_reason") == TERM_GANG:
        return
    path, gang = _gang_of(ctl, job)
    if gang is None or gang["on_failure"] != "kill":
        return
    _end_others(ctl, job, path, f"gang <{path}>: job <{ctl.label(job)}> "
                "exited")


def sent_back(ctl, job):
    """The system sent started *job* back to pending (its pre-exec failed,
    its host was lost, it exited with a requeue exit value): its gang no
    longer runs together, and the others must not run on alone.  kill:
    the gang ends, this member and the others (TERM_GANG), as when a
    member exits.  continue: the others that started are requeued (a new
    attempt), so that the gang starts again whole once this one may."""
    path, gang = _gang_of(ctl, job)
    if gang is None or job["stat"] not in states.PENDING:
        return
    started = [o for o in _others(ctl, job, path)
               if o["stat"] in states.RUNNING]
    if not started:
        return      # nothing runs without it: it waits with the gang
    by = f"gang <{path}>: job <{ctl.label(job)}> did not start"
    if gang["on_failure"] == "kill":
        ctl.emit("STATUS", job, stat=states.EXIT, reason=TERM_GANG, by=by)
        _end_others(ctl, job, path, by)
        return
    reason = json.dumps([[text("GANG_REQUEUED", path=path), None]])
    for other in started:
        # Signalled before the row forgets its host, as brequeue does.
        ctl.send_signal(other, "KILLSEQ", TERM_GANG)
        ctl.emit("REQUEUE", other, stat=states.PEND, by="", reason=reason,
                 gang=path, cause=by)


def _gang_of(ctl, job):
    path = job["spec"].get("job_group")
    gang = getattr(ctl, "gangs", {}).get(path) if path else None
    return path, gang


def _others(ctl, job, path):
    return [o for o in list(ctl.jobs.values())
            if o is not job and o["spec"].get("job_group") == path and
            o["stat"] not in states.FINISHED]


def _end_others(ctl, job, path, by):
    for other in _others(ctl, job, path):
        if other["stat"] in states.PENDING:
            ctl.emit("STATUS", other, stat=states.EXIT, reason=TERM_GANG,
                     by=by)
        elif other["stat"] in states.RUNNING:
            ctl.emit("SIGNAL", other, signal="KILL", by=by)
            ctl.send_signal(other, "KILLSEQ", TERM_GANG)


def _fail(key, **fields):
    return {"ok": False, "error": text(key, **fields)}
