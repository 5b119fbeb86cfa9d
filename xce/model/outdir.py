"""bsub -outdir: the job's output directory, its patterns filled in.

LSF's patterns (case sensitive): %J job id, %I array index (0 for a
plain job), %EJ and %EI the same (xce runs a job where it was
submitted), %P project, %U user, %G the user group of bsub -G (empty
without), %H first execution host, %JG job group (empty without).  A
relative directory is under the submission directory; a relative -o or
-e then goes inside it.  The agent's wrapper creates the directory with
the user's rights (mode 700) before it opens the output.

Pure and stdlib only: the controller's start message and bpeek use it.
"""

import os
import re

from xce.model import jobcwd

_PATTERN = re.compile(r"%(JG|EJ|EI|J|I|U|P|G|H)")


def directory(job, spec=None):
    """The job's output directory, absolute and filled in; None without
    -outdir.  *spec*: the job's spec when job["spec"] is not decoded."""
    spec = job["spec"] if spec is None else spec
    value = spec.get("outdir")
    if not value:
        return None
    return os.path.normpath(os.path.join(spec.get("subcwd") or "/",
                                         filled(value, job, spec)))


def working_directory(job, spec=None):
    """The job's working directory: its -cwd (or the configuration's
    DEFAULT_JOB_CWD or JOB_CWD), resolved by xce.model.jobcwd, with the same patterns filled in (LSF's -cwd takes
    -outdir's) and made normal again; the submission directory of a job
    without -cwd as it is (a '%' there is the directory's own)."""
    spec = job["spec"] if spec is None else spec
    if spec.get("exec_cwd"):        # its own was missing: it ran in /tmp
        return spec["exec_cwd"]
    value = spec.get("cwd")
    # Its own -cwd, or the configuration's (conf_cwd: DEFAULT_JOB_CWD or
    # its profile's JOB_CWD, xce.controller.jobdir).
    if not value or not (spec.get("specified_cwd") or spec.get("conf_cwd")) \
            or "%" not in value:
        return value
    return jobcwd.normal(filled(value, job, spec))


def filled(value, job, spec):
    """*value* with LSF's %J %I %EJ %EI %U %P %G %H %JG filled in."""
    if "%" not in value:
        return value
    hosts = (dict(job).get("exec_hosts") or "").split()   # a dict or a Row
    fill = {"J": job["jobid"], "EJ": job["jobid"], "I": job["idx"],
            "EI": job["idx"], "U": job["user"],
            "P": spec.get("project") or "default",
            "G": spec.get("user_group") or "",
            "H": hosts[0] if hosts else "",
            "JG": (spec.get("job_group") or "").strip("/")}
    return _PATTERN.sub(lambda m: str(fill[m.group(1)]), value)



def inside(path, outdir):
    """A relative -o/-e file goes inside the output directory."""
    if path is None or outdir is None or path.startswith("/"):
        return path
    return os.path.join(outdir, path)
