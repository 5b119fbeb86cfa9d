"""Keys whose one value is what xce always does (PARALLEL_SCHED_BY_SLOT=Y,
say): that value is enforced by being xce's behaviour, any other is
refused by the loader with the reason (so the migrator reports it not
carried).  The key table (xce.config.keys) lists each as enforced.
"""

# scope, name -> (the values taken, in capitals, why the others are not).
FIXED = {}


def _fixed(scopes, names, values, why):
    for scope in scopes.split():
        for name in names.split():
            FIXED[(scope, name)] = (tuple(values.split()), why)


_fixed("params", "PARALLEL_SCHED_BY_SLOT", "Y YES",
       "xce schedules parallel jobs by job slots (Y); by CPUs is not "
       "supported")
_fixed("params queue", "RELAX_JOB_DISPATCH_ORDER", "N NO",
       "xce keeps the strict dispatch order of each pass (N); reusing a "
       "finished job's slots for a like job out of order is not supported")
_fixed("params", "EXIT_RATE_TYPE", "JOBEXIT_NONLSF",
       "a host's exit rate counts the jobs that exit after they started, "
       "but for LSF's own reasons such as bkill, limits and preemption "
       "(JOBEXIT_NONLSF, LSF's default); counting other exits is not "
       "supported")
_fixed("lsf.conf", "LSB_MOD_ALL_JOBS", "Y YES",
       "bmod changes a started job's -c, -M, -W, -o and -e (Y); refusing "
       "every change to a started job is not supported")
_fixed("lsf.conf", "LSF_STRICT_RESREQ", "Y YES",
       "xce refuses an rusage[] of a resource that is not consumable, at "
       "submission (Y, LSF's installed value); the lenient check (N) is "
       "not supported")
_fixed("lsf.conf", "LSF_GPU_AUTOCONFIG", "Y YES",
       "xce's agents always detect their GPUs with nvidia-smi (Y); "
       "setting them by hand here is not supported (give a host's gpus: "
       "in xce.yaml)")

_fixed("lsf.conf", "LSB_JOB_MEMLIMIT LSB_MEMLIMIT_ENFORCE", "Y YES",
       "xce's agent kills a job whose processes' resident memory together "
       "passes its -M or MEMLIMIT (Y); leaving the limit to setrlimit per "
       "process, which Linux does not enforce, is not supported")
_fixed("lsf.conf", "LSB_SUB_COMMANDNAME", "Y YES",
       "xce's esub parameter file always holds LSB_SUB_COMMAND_LINE (Y); "
       "leaving it out is not supported")
# LSF 10.1 lsf.conf: Y shows an array element's index in bjobs' JOBID
# column; xce's bjobs always does (xce.client.jobs.table).
_fixed("lsf.conf", "LSB_BJOBS_DISPLAY_ENH", "Y YES",
       "xce's bjobs always shows an array element as jobID[index] in the "
       "JOBID column (Y); the job ID alone (N, LSF's default) is not "
       "supported")
_fixed("params", "FAIRSHARE_ADJUSTMENT_FACTOR", "0 0.0",
       "its term of the fairshare priority comes from a site's "
       "libfairshareadjust plug-in, which xce cannot load: 0 (no "
       "adjustment) is what xce does, another value is not supported")


def fixed_problem(scope, name, value):
    """Why *value* of a fixed-value key is refused, or None.  The reason
    says which value xce takes and that the others are not supported; the
    value itself is on the line the reason is reported with."""
    found = FIXED.get((scope, name))
    if found is None or value is None:
        return None
    text = str(value).strip().upper()
    if value is True:
        text = "Y"
    elif value is False:
        text = "N"
    if text in found[0] or _same_number(text, found[0]):
        return None
    return found[1]


def _same_number(text, allowed):
    """A number written another way (0.00 for 0) is the same value."""
    try:
        number = float(text)
    except ValueError:
        return False
    return any(_number(a) == number for a in allowed)


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None
