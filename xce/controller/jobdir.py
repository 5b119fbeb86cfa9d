"""A job's working directory by LSF's order (LSF 10.1, bsub -cwd): its
bsub -cwd, else the submitter's LSB_JOB_CWD (both kept as the job's
``specified_cwd``), else its application profile's JOB_CWD, else
lsb.params DEFAULT_JOB_CWD, else its submission directory.

A directory from the configuration is resolved by the rule of -cwd
(xce.model.jobcwd) and kept as the job's ``cwd``; the value as
configured is kept as ``conf_cwd``, so that its patterns are filled in
when the job starts (xce.model.outdir.working_directory) and a
directory with one is created then.  The choice is made at submission
(live and in xce sim, through submit.admit) and made again for a
pending job whose -cwd or profile changes (bmod -cwd, -cwdn, -app,
-appn) or whose configuration does (badmin reconfig); a started job
keeps the directory it started in.
"""

from xce.config import cwdconf
from xce.errors import text
from xce.model import jobcwd

CONF_KEY = "conf_cwd"


class BadDir(ValueError):
    """The directory cannot be the job's (its message says why)."""


def configured(cfg, spec):
    """(value, key) the configuration gives a job without its own
    directory: its profile's JOB_CWD, else DEFAULT_JOB_CWD; (None,
    None) without either."""
    app = cfg.apps.get(spec.get("app") or "")
    if app is not None and app.job_cwd:
        return app.job_cwd, "JOB_CWD"
    value = cwdconf.default_cwd(cfg.params)
    return (value, "DEFAULT_JOB_CWD") if value else (None, None)


def fill(cfg, spec):
    """Set *spec*'s ``cwd`` (and ``conf_cwd``) in place; BadDir when
    the directory is too long under the submission directory."""
    if "subcwd" not in spec:        # a request made from its "cwd"
        spec["subcwd"] = spec.get("cwd")
    own = spec.get("specified_cwd")
    value, key = (None, None) if own is not None else configured(cfg, spec)
    try:
        spec["cwd"] = jobcwd.resolve(own if own is not None else value,
                                     spec["subcwd"])
    except jobcwd.BadCwd as e:
        if key and e.key == "CWD_TOO_LONG":
            raise BadDir(text("CWD_CONF_TOO_LONG", key=key, **e.fields))
        raise BadDir(text(e.key, **e.fields))
    if value:
        spec[CONF_KEY] = value
    else:
        spec.pop(CONF_KEY, None)


def refilled(cfg, spec):
    """*spec* with its directory chosen afresh, as a new dict (*spec*
    itself when the new choice cannot be made: it keeps its own)."""
    out = dict(spec)
    try:
        fill(cfg, out)
    except BadDir:
        return spec
    return out


def asked(spec):
    """The directory value the job's ``cwd`` was resolved from (its own,
    or the configuration's), or None: the submission directory."""
    own = spec.get("specified_cwd")
    return own if own is not None else spec.get(CONF_KEY)


def ttl_field(cfg, spec, created):
    """The start message's ``cwd_ttl`` (hours) for a job whose directory
    is *created* (it has a dynamic pattern) and is to be removed after
    it (JOB_CWD_TTL of its profile, else of lsb.params); {} otherwise."""
    if not created:
        return {}
    hours = cwdconf.ttl_hours(cfg.params,
                              cfg.apps.get(spec.get("app") or ""))
    return {} if hours is None else {"cwd_ttl": hours}
