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
- RUNTIME: the job's bsub -We wins, else the profile's estimate; the
  queue's ESTIMATED_RUNTIME fills what neither set (at reservation).
- REQUEUE_EXIT_VALUES: bsub -Q wins, else the profile's.
- RERUNNABLE: bsub -r / -rn win, else the profile's.
- ENV_VARS: set in the job's environment when it starts, over the
  submission environment's value of the same name; SUCCESS_EXIT_VALUES:
  a job exiting with one of them is DONE.  Both are read from the profile
  when the job starts and ends (xce.controller.startmsg, reconcile).
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
                "THREADLIMIT", "REQUEUE_EXIT_VALUES", "RERUNNABLE",
                "GPU_REQ",   # merged per job by xce.config.gpuconf
                "ENV_VARS", "SUCCESS_EXIT_VALUES",
                "ABS_RUNLIMIT",     # read at dispatch (controller.rlimits)
                # checked and defaulted at submit (xce.controller.submit)
                "PROCLIMIT", "TASKLIMIT",
                "RUNTIME",      # filled as the job's estimate (bsub -We)
                "MAX_JOB_REQUEUE",  # read at each requeue (controller.requeue)
                "CONTAINER",    # placement and start (controller.containercheck)
                "JOB_SIZE_LIST",    # at submit, bmod and reconfig
                # at each failed pre-exec (controller.execplan.retry_limit)
                "LOCAL_MAX_PREEXEC_RETRY", "LOCAL_MAX_PREEXEC_RETRY_ACTION",
                # at the job's finish (controller.reconcile holds it)
                "JOB_INCLUDE_POSTPROC",
                # the signals of bstop, bresume, bkill (controller.jobactions)
                "SUSPEND_CONTROL", "RESUME_CONTROL", "TERMINATE_CONTROL",
                # the job's directory without -cwd (controller.jobdir), and
                # how long one made for it is kept (agent.cwdttl)
                "JOB_CWD", "JOB_CWD_TTL")
# What a profile fills into the job when the job left it unset.
_FILLED = (("requeue", "requeue_exit"), ("rerunnable", "rerunnable"))


# The spec key listing what the profile filled (so that a later merge,
# after bmod -app or a reconfig, can take the profile's values back out).
FILLED_KEY = "app_filled"


def fill(app, spec):
    """Fill *spec* (a job's submission) from *app* (an AppConf) in place:
    the job's own values are kept; the keys filled are listed under
    FILLED_KEY."""
    filled = []
    for key, value in app.limits.items():
        if key in ("cpulimit_host", "estimate_host"):
            continue                # goes with its time, below
        if spec.get(key) is None and value is not None:
            spec[key] = value
            filled.append(key)
            host = app.limits.get(key + "_host")
            if key in ("cpulimit", "estimate") and host:
                spec[key + "_host"] = host
                filled.append(key + "_host")
    for attr, key in _FILLED:
        value = getattr(app, attr)
        if value is not None and spec.get(key) is None:
            spec[key] = value
            filled.append(key)
    if app.resreq:
        spec["app_resreq"] = app.resreq
    if filled:
        spec[FILLED_KEY] = sorted(set(filled) | set(spec.get(FILLED_KEY)
                                                    or ()))


def unfill(spec):
    """Take out of *spec* in place what a profile filled, leaving the
    job's own values (before a merge with another or a changed profile)."""
    for key in spec.pop(FILLED_KEY, None) or ():
        spec.pop(key, None)
    spec.pop("app_resreq", None)


def refill(app, spec):
    """*spec* merged afresh with *app* (None: no profile), as a new dict;
    the job's own values are kept, the old profile's are replaced."""
    out = dict(spec)
    unfill(out)
    if app is not None:
        fill(app, out)
    return out


def changes(old, new):
    """(keys set, keys removed) from spec *old* to spec *new*."""
    set_ = {k: v for k, v in new.items() if old.get(k, _NONE) != v}
    gone = [k for k in old if k not in new]
    return set_, gone


_NONE = object()


def resreq_strings(job_strings, app_resreq):
    """The job's -R strings with its profile's RES_REQ merged under them,
    as one string (the job's sections win, selects are ANDed); the job's
    strings unchanged when there is no profile requirement."""
    if not app_resreq:
        return list(job_strings)
    from xce.lang import resreq
    job = resreq.merge(job_strings) if job_strings else None
    return [str(resreq.merge_with_queue(job, app_resreq))]


def job_requirement(spec, queue_resreq, unit=None):
    """The whole requirement (combined) of a job with submission *spec* in
    a queue whose RES_REQ is *queue_resreq*: bjobs -l's "Combined:" and
    "Effective:", the job's LSB_EFFECTIVE_RSRCREQ.  None when nothing is
    asked.  Raises resreq.ResReqError."""
    strings = list(spec.get("resreq") or ())
    if spec.get("nnodes"):
        strings.append("span[ptile=1]")
    options = {"unit": unit} if unit else {}
    return combined(strings, spec.get("app_resreq"),
                    str(queue_resreq) if queue_resreq else None, **options)


def combined(job_strings, app_resreq, queue_resreq, **options):
    """The job's whole requirement as bjobs -l shows it (LSF's
    "Combined:"): the job's -R strings, its profile's RES_REQ merged under
    them, then the queue's RES_REQ merged under both, selects ANDed.
    None when none of them says anything.  Raises resreq.ResReqError."""
    from xce.lang import resreq
    strings = resreq_strings(job_strings, app_resreq)
    own = resreq.merge(strings, **options) if strings else None
    merged = resreq.merge_with_queue(own, queue_resreq or None, **options)
    return None if merged == resreq.ResReq() else str(merged)
