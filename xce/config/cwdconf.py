"""The working directory the configuration gives a job, and how long a
directory made for one is kept (LSF 10.1: lsb.params DEFAULT_JOB_CWD
and JOB_CWD_TTL, lsb.applications JOB_CWD and JOB_CWD_TTL).

DEFAULT_JOB_CWD and a profile's JOB_CWD are directories, absolute or
relative to the job's submission directory, that may hold LSF's dynamic
patterns (%J %I %EJ %EI %U %G %P %H %JG; any other % is text, and no
environment variable is expanded): a job without its own bsub -cwd (or
LSB_JOB_CWD) runs in its profile's JOB_CWD, else in DEFAULT_JOB_CWD
(xce.controller.jobdir).  A value is checked as a -cwd is
(xce.model.jobcwd): not empty, no NUL or line break, at most 4094
characters.

JOB_CWD_TTL is hours, 0 to 2147483647: a directory created for a job (a
value with a pattern) is removed that long after the job has ended, 0 as
soon as it has, 2147483647 never; a profile's value wins over
lsb.params's, and without either the directory is kept (xce.agent.cwdttl).

Stdlib, xce.errbase and xce.model only: the loader and the controller
import it.
"""

from xce.config import ranges
from xce.errbase import text
from xce.model import jobcwd

# LSF's "never remove" value of JOB_CWD_TTL (its default).
TTL_NEVER = 2147483647
_BAD = {"CWD_EMPTY": "CONFIG_CWD_EMPTY", "CWD_NUL": "CONFIG_CWD_CONTROL",
        "CWD_TOO_LONG": "CONFIG_CWD_TOO_LONG"}


def path_problem(value):
    """Why *value* cannot be a DEFAULT_JOB_CWD or JOB_CWD, or None."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return text("CONFIG_CWD_EMPTY")
    value = str(value)
    if "\n" in value or "\r" in value:
        return text("CONFIG_CWD_CONTROL")
    try:
        jobcwd.check_asked(value.strip())
    except jobcwd.BadCwd as e:
        return text(_BAD[e.key], **e.fields)
    return None


def ttl_problem(value):
    """Why *value* cannot be a JOB_CWD_TTL, or None."""
    return ranges.problem("params", "JOB_CWD_TTL", value)


def _set(value):
    return value is not None and str(value).strip() not in ("", "-")


def check_params(params, check):
    """lsb.params DEFAULT_JOB_CWD (JOB_CWD_TTL's range is
    xce.config.ranges's)."""
    if isinstance(params, dict) and _set(params.get("DEFAULT_JOB_CWD")):
        why = path_problem(params["DEFAULT_JOB_CWD"])
        if why:
            check.error(params, "DEFAULT_JOB_CWD", why)


def read_app(props, check):
    """(JOB_CWD, JOB_CWD_TTL) of a profile, None where unset or bad."""
    where = ttl = None
    if _set(props.get("JOB_CWD")):
        why = path_problem(props["JOB_CWD"])
        if why:
            check.error(props, "JOB_CWD", why)
        else:
            where = str(props["JOB_CWD"]).strip()
    if _set(props.get("JOB_CWD_TTL")):
        why = ttl_problem(props["JOB_CWD_TTL"])
        if why:
            check.error(props, "JOB_CWD_TTL", why)
        else:
            ttl = int(str(props["JOB_CWD_TTL"]).strip())
    return where, ttl


def default_cwd(params):
    """lsb.params DEFAULT_JOB_CWD, or None."""
    value = params.get("DEFAULT_JOB_CWD")
    return str(value).strip() if _set(value) else None


def ttl_hours(params, app=None):
    """The JOB_CWD_TTL of a job of profile *app* (None: none): the
    profile's, else lsb.params's; None when the directory is kept (unset,
    or 2147483647)."""
    hours = app.cwd_ttl if app is not None else None
    if hours is None and _set(params.get("JOB_CWD_TTL")):
        hours = int(str(params["JOB_CWD_TTL"]).strip())
    return None if hours is None or hours >= TTL_NEVER else hours
