"""bparams' outputs (summary, -l, -a) and badmin showconf.

Values come from the store's params table (xce.yaml's parameters, as the
controller put them in force) over LSF 10.1's documented defaults; -a and
showconf add the site's lsf.conf, which is where tools such as Toil look
for LSF_UNIT_FOR_LIMITS.
"""

import time

from xce.client.jobs.query import DEFAULT_CLEAN_PERIOD
from xce.config.model import MBD_SLEEP_TIME
from xce.model.jobid import DEFAULT_MAX_JOBID

# lsb.params defaults that the summary and -l show (LSF 10.1 defaults).
DEFAULTS = {
    "MBD_SLEEP_TIME": str(MBD_SLEEP_TIME),
    "SBD_SLEEP_TIME": "30",
    "JOB_ACCEPT_INTERVAL": "0",
    "CLEAN_PERIOD": str(DEFAULT_CLEAN_PERIOD),
    "MAX_JOB_NUM": "1000",
    "MAX_SBD_FAIL": "3",
    "DEFAULT_PROJECT": "default",
    "JOB_TERMINATE_INTERVAL": "10",
    "MAX_JOB_ARRAY_SIZE": "1000",
    "MAX_JOBID": str(DEFAULT_MAX_JOBID),
    "ENFORCE_ONE_UG_LIMITS": "N",
}

# bparams -l: (explanation, parameter, unit shown after the value)
_LONG = (
    ("System default queues for automatic queue selection:",
     "DEFAULT_QUEUE", ""),
    ("The interval for dispatching jobs by master batch daemon:",
     "MBD_SLEEP_TIME", " (seconds)"),
    ("The interval for checking jobs by slave batch daemon:",
     "SBD_SLEEP_TIME", " (seconds)"),
    ("The interval for a host to accept two batch jobs:",
     "JOB_ACCEPT_INTERVAL", " (* MBD_SLEEP_TIME)"),
    ("The amount of time during which finished jobs are kept in core:",
     "CLEAN_PERIOD", " (seconds)"),
    ("The amount of time during which successfully finished jobs are kept "
     "in core:", "CLEAN_PERIOD_DONE", " (seconds)"),
    ("The maximum number of finished jobs that can be stored in current "
     "events file:", "MAX_JOB_NUM", ""),
    ("The maximum number of retries for reaching a slave batch daemon:",
     "MAX_SBD_FAIL", ""),
    ("The default project assigned to jobs.", "DEFAULT_PROJECT", ""),
    ("The interval to terminate a job.", "JOB_TERMINATE_INTERVAL", ""),
    ("The maximum number of jobs in a job array.", "MAX_JOB_ARRAY_SIZE", ""),
    ("The Maximum JobId defined in the system:", "MAX_JOBID", ""),
)


def effective(params, queues):
    """lsb.params as in force: defaults, then the configured values."""
    values = dict(DEFAULTS)
    values.update({k: str(v) for k, v in params.items()})
    if "DEFAULT_QUEUE" not in params:
        names = [q["name"] for q in queues if q["conf"].get("default")]
        values["DEFAULT_QUEUE"] = " ".join(names)
    return values


def _int(values, key):
    try:
        return int(float(values.get(key, DEFAULTS.get(key, "0"))))
    except ValueError:
        return int(DEFAULTS.get(key, "0"))


def summary(values):
    """bparams with no option (LSF 10.1 wording)."""
    sleep = _int(values, "MBD_SLEEP_TIME")
    out = [f"Default Queues:  {values.get('DEFAULT_QUEUE', '')}"]
    if values.get("DEFAULT_HOST_SPEC"):
        out.append(f"Default Host Specification:  "
                   f"{values['DEFAULT_HOST_SPEC']}")
    out += [f"MBD_SLEEP_TIME used for calculations:  {sleep} seconds",
            f"Job Checking Interval:  {_int(values, 'SBD_SLEEP_TIME')} "
            "seconds",
            f"Job Accepting Interval:  "
            f"{_int(values, 'JOB_ACCEPT_INTERVAL') * sleep} seconds"]
    return "\n".join(out)


def long_text(values):
    """bparams -l: an explanation line, then ``    NAME = value``."""
    out = [""]
    for text, key, unit in _LONG:
        if key == "MAX_JOBID":
            out += _priority_lines(values)
        if key == "CLEAN_PERIOD_DONE" and not values.get(key):
            continue        # shown when set only (no default)
        out += [text, f"    {key} = {values.get(key, '')}{unit}", ""]
    return "\n".join(out)


def _priority_lines(values):
    """User-assigned job priority, when set (LSF 10.1 shows it before
    MAX_JOBID): the maximum, the default of a job without -sp, and the
    escalation."""
    out = []
    if values.get("MAX_USER_PRIORITY"):
        top = _int(values, "MAX_USER_PRIORITY")
        out += ["Maximal job priority defined for all users:",
                f"    MAX_USER_PRIORITY = {top}",
                f"The default job priority is: {top // 2}", ""]
    if values.get("JOB_PRIORITY_OVER_TIME"):
        out += ["Job priority is increased by the system dynamically "
                "based on waiting time:",
                f"    JOB_PRIORITY_OVER_TIME = "
                f"{values['JOB_PRIORITY_OVER_TIME']} (minutes)", ""]
    return out


def all_values(values, lsf_conf):
    """Every parameter in force, lsb.params first, then lsf.conf."""
    merged = dict(sorted(values.items()))
    for key, value in lsf_conf.items():
        merged.setdefault(key, value)
    return merged


def all_text(values, lsf_conf):
    """bparams -a: one ``NAME = value`` line per parameter."""
    return "\n".join(f"    {k} = {v}"
                     for k, v in all_values(values, lsf_conf).items())


def showconf_text(daemon, values, lsf_conf, now=None):
    """badmin showconf mbd: one header line, then ``KEY = VALUE`` lines."""
    stamp = time.ctime(now)
    merged = dict(lsf_conf)
    for key, value in values.items():
        merged.setdefault(key, value)
    lines = [f"{daemon.upper()} configuration at {stamp}"]
    lines += [f"    {k} = {v}" for k, v in merged.items()]
    return "\n".join(lines)
