"""How a job's own options and its application profile combine into the
values the job runs with (LSF 10.1, lsb.applications(5)).

The rules, each held by tests/unit/test_appmerge.py:
- limits (run, memory, CPU, per-process and whole-job): the job's value
  wins; the profile's fills what the job did not set.  The queue's default
  fills what neither set, and the queue's maximum then checks the result
  (the controller's submit checks, after this merge).
- RES_REQ: select -- the job's terms AND the profile's (a host must meet
  both); order, span and same -- the job's when it has one, else the
  profile's; rusage -- per resource the job's amount, the profile's other
  resources added.  The queue's RES_REQ is merged after, the same way.
- REQUEUE_EXIT_VALUES: bsub -Q wins, else the profile's.
- RERUNNABLE: bsub -r / -rn win, else the profile's.
- PRE_EXEC, POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC, JOB_STARTER are not
  merged into the job: xce.controller.execplan reads the profile when the
  job starts, with the queue's and the job's steps in LSF's order.
Pure: no I/O, usable by the controller and the simulator alike.
"""

# The profile keys xce applies (xce.config.keys marks them enforced; bapp -l
# marks any other key a profile sets as not acted on).
APPLIED_KEYS = ("DESCRIPTION", "RES_REQ", "PRE_EXEC", "POST_EXEC",
                "HOST_PRE_EXEC", "HOST_POST_EXEC", "JOB_STARTER", "RUNLIMIT",
                "MEMLIMIT", "CPULIMIT", "SWAPLIMIT", "PROCESSLIMIT",
                "DATALIMIT", "STACKLIMIT", "FILELIMIT", "CORELIMIT",
                "THREADLIMIT", "REQUEUE_EXIT_VALUES", "RERUNNABLE")
# What a profile fills into the job when the job left it unset.
_FILLED = (("requeue", "requeue_exit"), ("rerunnable", "rerunnable"))


def fill(app, spec):
    """Fill *spec* (a job's submission) from *app* (an AppConf) in place:
    the job's own values are kept."""
    for key, value in app.limits.items():
        if key == "cpulimit_host":
            continue                # goes with the CPU limit, below
        if spec.get(key) is None and value is not None:
            spec[key] = value
            if key == "cpulimit" and app.limits.get("cpulimit_host"):
                spec["cpulimit_host"] = app.limits["cpulimit_host"]
    for attr, key in _FILLED:
        value = getattr(app, attr)
        if value is not None and spec.get(key) is None:
            spec[key] = value
    if app.resreq:
        spec["app_resreq"] = app.resreq


def resreq_strings(job_strings, app_resreq):
    """The job's -R strings with its profile's RES_REQ merged under them,
    as one string (the job's sections win, selects are ANDed); the job's
    strings unchanged when there is no profile requirement."""
    if not app_resreq:
        return list(job_strings)
    from xce.lang import resreq
    job = resreq.merge(job_strings) if job_strings else None
    return [str(resreq.merge_with_queue(job, app_resreq))]
