"""Pending jobs merged afresh with their application profile once it
may have changed (badmin reconfig), and moved to another profile (bmod
-app, -appn).  The merge itself is xce.lang.appmerge's: the job's own
values stay, the profile's are taken out and filled again; each change
is a MODIFY event, as bmod makes.  Started jobs keep what they started
with."""

from xce.controller import jobdir
from xce.errors import text
from xce.lang import appmerge
from xce.model import states


class NoProfile(Exception):
    """bmod -app named a profile the configuration does not have."""


def after_reconfig(ctl, by):
    """Every pending job with a profile, merged with the profile as the
    new configuration has it (a profile that is gone leaves the job as
    it was); every pending job without its own -cwd, given the working
    directory the new configuration gives it (xce.controller.jobdir)."""
    for job in list(ctl.jobs.values()):
        spec = job.get("spec") or {}
        if job["stat"] not in states.PENDING:
            continue
        app = ctl.cfg.apps.get(spec.get("app") or "")
        if spec.get("app") and app is None:
            continue
        out = appmerge.refill(app, spec) if app is not None else spec
        if spec.get("specified_cwd") is None and spec.get("subcwd"):
            out = jobdir.refilled(ctl.cfg, out)
        new, gone = appmerge.changes(spec, out)
        if new or gone:
            ctl.emit("MODIFY", job, set=new, unset=gone, by=by)


def moved(cfg, spec, name):
    """*spec* with the profile *name* (None: no profile, or
    DEFAULT_APPLICATION when the cluster has one) in place of its own;
    raises NoProfile for a name the configuration lacks."""
    name = name or str(cfg.params.get("DEFAULT_APPLICATION") or "").strip()
    app = cfg.apps.get(name) if name else None
    if name and app is None:
        raise NoProfile(text("APP_NULL"))
    out = appmerge.refill(app, spec)
    if name:
        out["app"] = name
    else:
        out.pop("app", None)
    return out
