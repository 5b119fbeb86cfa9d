"""Job groups in the controller: bgadd, bgdel, bgmod, and the groups
bsub -g and DEFAULT_JOBGROUP create on the way.

ctl.job_groups is {path: {"owner": user, "limit": JOB_LIMIT or None}},
kept in the store's job_groups table, which bjgroup reads.  The limit
itself is the scheduler's (xce.scheduler.core with room() below), so the
simulator applies it too.
"""

from xce.controller import gangs
from xce.errors import text
from xce.model import jobgroups as jg
from xce.model import states

KIND = "jobgroup"


def load(ctl):
    ctl.job_groups = {p: {"owner": o, "limit": n}
                      for p, (o, n) in ctl.store.load_job_groups().items()}


def room(ctl):
    """{group: jobs it may still start}, or None when no group has a
    limit (then a pass pays nothing)."""
    groups = getattr(ctl, "job_groups", None)
    if not groups or all(g["limit"] is None for g in groups.values()):
        return None
    running = {}
    for job in ctl.jobs.values():
        path = job["spec"].get("job_group")
        if path and job["stat"] in states.RUNNING:
            running[path] = running.get(path, 0) + 1
    return jg.room({p: g["limit"] for p, g in groups.items()}, running)


def adopt(ctl, spec, user, queue):
    """A new job's group: LSB_DEFAULT_JOBGROUP (the submitter's), else
    DEFAULT_JOBGROUP, when it names none; the group and its missing
    parents created, owned by the submitter, as LSF does."""
    path = spec.get("job_group")
    template = spec.pop("default_jobgroup", None)
    if not path:
        template = template or ctl.cfg.params.get("DEFAULT_JOBGROUP")
        if not template:
            return
        path = jg.substitute(str(template), user, queue, spec.get("project"),
                             spec.get("app") or "")
        if not jg.valid(path):
            return      # a default that names no group: LSF ignores it
    spec["job_group"] = path = jg.normal(path)
    _create(ctl, path, user, None)


def _create(ctl, path, user, limit):
    """Create *path* and its missing parents; *limit* on the last only."""
    for g in jg.chain(path):
        if g not in ctl.job_groups:
            ctl.job_groups[g] = {"owner": user,
                                 "limit": limit if g == path else None}
            _save(ctl, g)


def _save(ctl, path):
    g = ctl.job_groups[path]
    ctl.store.save_job_group(path, g["owner"], g["limit"], ctl.now)


def handle(ctl, user, doc, now):
    if doc.get("sweep"):
        return _sweep(ctl, user, doc, now)
    op, path = doc["op"], doc["path"]
    if not jg.valid(path):
        return _fail("BAD_JGROUP_NAME", path)
    path = jg.normal(path)
    limit = doc.get("limit")
    if op == "add":
        if path in ctl.job_groups:
            return _fail("JGROUP_EXISTS", path)
        bad = _limit_fits(ctl, path, limit)
        if bad:
            return _fail(bad, path)
        _create(ctl, path, user, limit)
        ctl.dirty = True
        return {"ok": True, "text": text("JGROUP_ADDED", path=path)}
    if path not in ctl.job_groups:
        return _fail("JGROUP_NULL", path)
    if not may(ctl, user, path):
        return _fail("JGROUP_PERMISSION", path)
    if op == "mod":
        bad = _limit_fits(ctl, path, limit)
        if bad:
            return _fail(bad, path)
        ctl.job_groups[path]["limit"] = limit
        _save(ctl, path)
        ctl.dirty = True
        return {"ok": True, "text": text("JGROUP_MODIFIED", path=path)}
    # del: the group and its subgroups, once none holds an unfinished job
    doomed = [g for g in ctl.job_groups if jg.is_under(g, path)]
    if any(j["stat"] in states.UNFINISHED and
           jg.is_under(j["spec"].get("job_group") or "", path)
           for j in ctl.jobs.values() if j["spec"].get("job_group")):
        return _fail("JGROUP_HAS_JOBS", path)
    for g in doomed:
        del ctl.job_groups[g]
        gangs.dropped(ctl, g)
        ctl.store.delete_job_group(g)
    return {"ok": True, "text": text("JGROUP_DELETED", path=path)}


def _sweep(ctl, user, doc, now):
    """bgdel 0 [-u user|all], -c group, -d idle_time: the empty groups
    (no unfinished job in them or below) that match, deepest first; a
    group is deleted only once no subgroup is left under it."""
    sweep, owner = doc["sweep"], doc.get("owner")
    admin = ctl.is_admin(user)
    if owner is not None and not admin:
        return {"ok": False, "error": text("PERMISSION")}
    path = jg.normal(doc["path"]) if sweep == "below" else jg.ROOT
    if sweep == "below":
        if path not in ctl.job_groups:
            return _fail("JGROUP_NULL", path)
        if not may(ctl, user, path):
            return _fail("JGROUP_PERMISSION", path)
    busy = _busy(ctl)
    last = ctl.store.job_group_activity() if sweep == "idle" else {}
    deleted = []
    for g in sorted(ctl.job_groups, key=lambda g: -g.count("/")):
        mine = ctl.job_groups[g]["owner"]
        if g in busy or any(c != g and jg.is_under(c, g)
                            for c in ctl.job_groups):
            continue
        if sweep == "below" and not jg.is_under(g, path):
            continue
        if sweep == "empty" and owner != "all" and \
                mine != (owner or user):
            continue
        if sweep == "idle" and (now - last.get(g, now) <= doc["idle"] or
                                not (admin or mine == user)):
            continue
        del ctl.job_groups[g]
        gangs.dropped(ctl, g)
        ctl.store.delete_job_group(g)
        deleted.append(g)
    if not deleted:
        return {"ok": True, "text": text("JGROUP_NONE_DELETED")}
    return {"ok": True, "text": "\n".join(
        text("JGROUP_DELETED", path=g) for g in deleted)}


def _busy(ctl):
    """The groups with an unfinished job in them or below them."""
    out = set()
    for j in ctl.jobs.values():
        path = j["spec"].get("job_group")
        if path and j["stat"] in states.UNFINISHED:
            out.update(jg.chain(path))
    return out


def _limit_fits(ctl, path, limit):
    """LSF: a limit may not exceed an ancestor's nor be below a
    subgroup's."""
    if limit is None:
        return None
    for g in jg.chain(path)[:-1]:
        above = ctl.job_groups.get(g, {}).get("limit")
        if above is not None and limit > above:
            return "JGROUP_LIMIT_ABOVE"
    for g, v in ctl.job_groups.items():
        if g != path and jg.is_under(g, path) and v["limit"] is not None \
                and v["limit"] > limit:
            return "JGROUP_LIMIT_BELOW"
    return None


def may(ctl, user, path):
    """Admins, the group's creator, or the creator of a parent group."""
    return ctl.is_admin(user) or any(
        ctl.job_groups.get(g, {}).get("owner") == user
        for g in jg.chain(path))


def _fail(key, path):
    return {"ok": False, "error": text(key, path=path)}
