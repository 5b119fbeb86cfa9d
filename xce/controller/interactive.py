"""Interactive jobs (bsub -I, -Ip, -Is) on the controller's side.

bsub's request carries the job's key (xce.model.termwire).  Every user can
read the state store, so the key never goes there: it is kept in the
spool's interactive/ directory, the controller's alone (mode 0700), read
when the job is dispatched, and removed when the job has ended.
"""

import os

from xce.controller import privfile
from xce.errors import text

PROTOCOL = 9        # the first agent that runs interactive jobs


def _path(ctl, jobid):
    return ctl.cfg.spool / "interactive" / str(int(jobid))


def keep_key(ctl, jobid, key):
    """Write the job's key (before the commit: a replayed request writes
    it again, and a job is never without its key)."""
    if not key:
        return
    privfile.replace(_path(ctl, jobid), key.encode())


def start_fields(ctl, job, host):
    """The start message's "interactive" entry, or {} for a batch job."""
    spec = job["spec"]
    mode = spec.get("interactive")
    if not mode:
        return {}
    if host and ctl.hosts[host].get("protocol", 1) < PROTOCOL:
        raise RuntimeError(text("INTERACTIVE_OLD_AGENT", host=host))
    try:
        key = _path(ctl, job["jobid"]).read_text().strip()
    except OSError:
        key = None      # the relay cannot prove itself: the job ends at once
    # Which of stdin, stdout, stderr go to bsub's terminal: those without
    # a -i, -o or -e file (without -e, stderr goes where stdout goes).
    term = [not spec.get("stdin"), not spec.get("stdout"),
            not spec.get("stderr") and not spec.get("stdout")]
    return {"interactive": {
        "mode": mode, "addrs": list(spec.get("interactive_addrs") or ()),
        "key": key, "term": [int(t) for t in term]}}


def forget(ctl, jobid):
    """The job has ended: its key is of no more use."""
    try:
        os.unlink(_path(ctl, jobid))
    except OSError:
        pass
