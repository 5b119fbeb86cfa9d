"""Application profiles (lsb.applications, xce.yaml ``applications``): the
keys xce applies to a job, read and checked at load.

Each profile becomes an AppConf holding its values in the job spec's own
units, so that xce.lang.appmerge can fill a job from it: run limit in
minutes, memory in KB, the other limits as xce.lang.rlimits has them, the
resource requirement as written (parsed when a job uses it, merged with
the job's), the execution commands as written, requeue exit values in
xce.model.requeue's normal form, RERUNNABLE as a flag.  A profile holds
one value per limit (LSF's lsb.applications has no default/maximum pair).
A key LSF has that xce leaves out (checkpointing, chunk jobs, ...) is
refused with the key table's reason; the profile's other keys are carried
and reported as not acted on (xce.config.unenforced), never silently
ignored.
"""

import re
from dataclasses import dataclass, field

from xce.config import (containerconf, cwdconf, execconf, keys, queuelimits,
                        ranges)
from xce.errors import about, text
from xce.lang import jobcontrols, rlimits, units


@dataclass
class AppConf:
    name: str
    limits: dict = field(default_factory=dict)      # spec key -> value
    resreq: str = None
    exec_commands: dict = field(default_factory=dict)
    requeue: str = None
    rerunnable: bool = None
    # JOB_INCLUDE_POSTPROC (None: lsb.params's)
    include_postproc: bool = None
    gpu_req: str = None     # GPU_REQ as written (xce.config.gpuconf)
    success: frozenset = frozenset()    # SUCCESS_EXIT_VALUES
    env: dict = field(default_factory=dict)     # ENV_VARS
    # ABS_RUNLIMIT=Y: its jobs' run limits are wall-clock, not normalised.
    abs_runlimit: bool = False
    tasks: tuple = None     # TASKLIMIT (or PROCLIMIT): (min, default, max)
    # LOCAL_MAX_PREEXEC_RETRY and its _ACTION (None: the queue's)
    preexec_retry: int = None
    preexec_retry_action: str = None
    max_requeue: int = None     # MAX_JOB_REQUEUE (None: no limit)
    container: object = None    # CONTAINER (containerconf.Container)
    # JOB_SIZE_LIST: the task counts a job may ask, the first its default.
    job_sizes: tuple = ()
    # SUSPEND_CONTROL, RESUME_CONTROL, TERMINATE_CONTROL: action -> signal
    # name, over its queue's JOB_CONTROLS (xce.controller.jobactions).
    job_controls: dict = field(default_factory=dict)
    # JOB_CWD and JOB_CWD_TTL (hours), None where unset
    # (xce.config.cwdconf).
    job_cwd: str = None
    cwd_ttl: int = None


def read(cfg, raw, check):
    """{name: AppConf} of the ``applications`` section; bad values are
    reported against their key, and DEFAULT_APPLICATION must name one."""
    apps = {}
    unit = cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB")
    for name, props in (raw.get("applications") or {}).items():
        props = props if isinstance(props, dict) else {}
        app = AppConf(name=str(name))
        _limits(cfg, app, props, unit, check)
        app.abs_runlimit = props.get("ABS_RUNLIMIT") is True or \
            str(props.get("ABS_RUNLIMIT", "")).upper() in ("Y", "YES")
        if _set(props, "RES_REQ"):
            app.resreq = " ".join(str(props["RES_REQ"]).split())
            _check_resreq(props, app.resreq, check)
        for key in execconf.COMMAND_KEYS:
            if _set(props, key):
                app.exec_commands[key] = str(props[key])
        if _set(props, "REQUEUE_EXIT_VALUES"):
            app.requeue = _requeue(props, check)
        app.rerunnable = _flag(props, "RERUNNABLE", check)
        app.include_postproc = _flag(props, "JOB_INCLUDE_POSTPROC", check)
        if _set(props, "GPU_REQ"):
            app.gpu_req = " ".join(str(props["GPU_REQ"]).split())
        if _set(props, "SUCCESS_EXIT_VALUES"):
            app.success = _success(props, check)
        if _set(props, "ENV_VARS"):
            app.env = _env_vars(props, check)
        if _set(props, "MAX_JOB_REQUEUE"):
            app.max_requeue = _max_requeue(props, check)
        app.tasks = task_limit(props, check)
        _left_out(props, check)
        _controls(app, props, check)
        app.preexec_retry = _preexec_retry(props, check)
        app.preexec_retry_action = execconf.retry_action(props, check)
        app.job_sizes, app.container = sizes_and_container(props, check)
        app.job_cwd, app.cwd_ttl = cwdconf.read_app(props, check)
        apps[app.name] = app
    default = cfg.params.get("DEFAULT_APPLICATION")
    if default not in (None, "") and str(default).strip() not in apps:
        check.error(raw.get("parameters") or {}, "DEFAULT_APPLICATION",
                    about(str(default).strip(), "APP_NULL"))
    return apps


def _flag(props, key, check):
    """A Y/N key as True or False (None when not set)."""
    if not _set(props, key):
        return None
    flag = str(props[key]).strip().upper()
    if flag not in ("Y", "YES", "N", "NO", "TRUE", "FALSE"):
        check.error(props, key, text("CONFIG_APP_YES_NO", key=key))
    return flag in ("Y", "YES", "TRUE")


def _controls(app, props, check):
    """SUSPEND_CONTROL, RESUME_CONTROL, TERMINATE_CONTROL: a signal each
    (LSF's commands and CHKPNT are refused, as in a queue's JOB_CONTROLS)."""
    for action in jobcontrols.ACTIONS:
        key = action + "_CONTROL"
        if not _set(props, key):
            continue
        try:
            app.job_controls[action] = jobcontrols.parse_action(
                action, props[key])
        except jobcontrols.ControlError as e:
            check.error(props, key, text("CONFIG_JOB_CONTROL", problem=e))


def _left_out(props, check):
    """A key LSF has that xce leaves out (xce.config.keys gives why) is
    refused here too: a hand-written profile must not seem to have it."""
    for name in props:
        key = keys.lookup("application", str(name))
        if key.status == keys.NOT_CARRIED and key.why != keys.UNKNOWN_WHY:
            check.error(props, name, text("CONFIG_APP_LEFT_OUT",
                                          why=key.why))


def _set(props, key):
    value = props.get(key)
    return value is not None and str(value).strip() not in ("", "-")


def _limits(cfg, app, props, unit, check):
    if _set(props, "RUNLIMIT"):
        app.limits["runlimit"] = _one(props, "RUNLIMIT", units.minutes, check)
    if _set(props, "RUNTIME"):
        # The run-time estimate, as bsub -We: filled like a limit (the
        # job's -We wins), used by reservation and backfill, never
        # enforced (xce.scheduler.jobtimes).
        # [hour:]minute[/host_name | /host_model], normalised as -We.
        value = _one(props, "RUNTIME", units.minutes_of, check)
        if value is not None and queuelimits.normalisers_known(
                cfg, [value], props, "RUNTIME", check):
            app.limits["estimate"] = value[0]
            if value[1]:
                app.limits["estimate_host"] = value[1]
    if _set(props, "MEMLIMIT"):
        app.limits["memlimit"] = _one(
            props, "MEMLIMIT", lambda v: units.memory_kb(v, unit), check)
    for limit in rlimits.LIMITS:
        if not _set(props, limit.name):
            continue
        words = str(props[limit.name]).split()
        if len(words) != 1:
            check.error(props, limit.name,
                        text("CONFIG_APP_ONE_VALUE", key=limit.name))
            continue
        try:
            value = rlimits.job_value(limit, words[0], unit, fractions=True)
        except rlimits.LimitError as e:
            check.error(props, limit.name, text(e.key, e.value, name=e.name))
            continue
        except ValueError as e:
            check.error(props, limit.name, str(e))
            continue
        if limit.kind == "time" and isinstance(value, tuple):
            app.limits[limit.key] = value[0]
            if value[1]:
                app.limits[rlimits.CPU_HOST] = value[1]
        else:
            app.limits[limit.key] = value


# The profile keys bapp -l shows in its limit table rather than as
# KEY = value lines.
LIMIT_KEYS = ("RUNLIMIT", "MEMLIMIT", *rlimits.BY_NAME)


class _Quiet:
    """A check that keeps nothing: the profile was checked at load."""

    def error(self, *_):
        pass


def limits_of(props, unit):
    """{spec key: value} of a profile's limits as its jobs take them
    (RUNLIMIT in minutes, MEMLIMIT in KB, the others as xce.lang.rlimits
    has them), for bapp -l; *unit* is LSF_UNIT_FOR_LIMITS."""
    app = AppConf(name="")
    _limits(None, app, {k: props[k] for k in LIMIT_KEYS if k in props},
            unit, _Quiet())
    return app.limits


def _one(props, key, convert, check):
    words = str(props[key]).split()
    if len(words) != 1:
        check.error(props, key, text("CONFIG_APP_ONE_VALUE", key=key))
        return None
    try:
        value = convert(words[0])
    except ValueError as e:
        check.error(props, key, str(e))
        return None
    if value is None or (value[0] if isinstance(value, tuple)
                         else value) <= 0:
        check.error(props, key, text("CONFIG_LIMIT_PAIR", value=props[key]))
        return None
    return value


def _check_resreq(props, value, check):
    from xce.lang import resreq
    try:
        resreq.parse(value)
    except resreq.ResReqError as e:
        check.error(props, "RES_REQ", str(e))


def _requeue(props, check):
    from xce.model import requeue
    try:
        return requeue.normalised(
            requeue.parse(str(props["REQUEUE_EXIT_VALUES"]))) or None
    except requeue.BadRequeueValues:
        check.error(props, "REQUEUE_EXIT_VALUES",
                    text("CONFIG_REQUEUE", value=props["REQUEUE_EXIT_VALUES"]))
        return None


def _max_requeue(props, check):
    """MAX_JOB_REQUEUE: how many times a job is requeued automatically,
    a whole number, 0 or more."""
    value = str(props["MAX_JOB_REQUEUE"]).strip()
    if value.isascii() and value.isdigit() and int(value) < 2 ** 31:
        return int(value)
    check.error(props, "MAX_JOB_REQUEUE",
                text("CONFIG_MAX_REQUEUE", value=value))
    return None


def _preexec_retry(props, check):
    """LOCAL_MAX_PREEXEC_RETRY, in the queue's range; None when unset."""
    if not _set(props, "LOCAL_MAX_PREEXEC_RETRY"):
        return None
    value = props["LOCAL_MAX_PREEXEC_RETRY"]
    why = ranges.problem("queue", "LOCAL_MAX_PREEXEC_RETRY", value)
    if why is not None:
        check.error(props, "LOCAL_MAX_PREEXEC_RETRY", why)
        return None
    return int(value)


def sizes_and_container(props, check):
    """JOB_SIZE_LIST and CONTAINER, which a queue has as a profile has
    them: ((), None) where unset."""
    sizes, box = (), None
    if _set(props, "JOB_SIZE_LIST"):
        sizes = _job_sizes(props, check)
    if _set(props, "CONTAINER"):
        try:
            box = containerconf.parse(props["CONTAINER"])
        except containerconf.BadContainer as e:
            check.error(props, "CONTAINER", str(e))
    return sizes, box


def _job_sizes(props, check):
    """JOB_SIZE_LIST = default_size [size ...]: whole numbers from 1."""
    words = str(props["JOB_SIZE_LIST"]).split()
    if all(w.isascii() and w.isdigit() and 0 < int(w) < 2 ** 31
           for w in words):
        return tuple(int(w) for w in words)
    check.error(props, "JOB_SIZE_LIST",
                text("CONFIG_JOB_SIZE_LIST", value=props["JOB_SIZE_LIST"]))
    return ()


def task_limit(props, check):
    """(min, default, max) of a profile's or a queue's TASKLIMIT (or
    PROCLIMIT, its older name; TASKLIMIT wins), or None."""
    found = None
    for key in ("PROCLIMIT", "TASKLIMIT"):
        if _set(props, key):
            found = _task_limit(props, key, check)
    return found


def _task_limit(props, key, check):
    """TASKLIMIT = [min [default]] max, 1 <= min <= default <= max (LSF
    10.1): one number is the maximum (min and default 1); two are min and
    max (the default is the min)."""
    words = str(props[key]).split()
    nums = [int(w) for w in words if w.isascii() and w.isdigit()]
    if not 1 <= len(words) <= 3 or len(nums) != len(words):
        nums = None
    elif len(nums) == 1:
        nums = [1, 1, nums[0]]
    elif len(nums) == 2:
        nums = [nums[0], nums[0], nums[1]]
    if nums is None or not 1 <= nums[0] <= nums[1] <= nums[2]:
        check.error(props, key, text("CONFIG_TASK_LIMIT", key=key,
                                     value=props[key]))
        return None
    return tuple(nums)


def _success(props, check):
    """SUCCESS_EXIT_VALUES: exit codes 0..255 that count as DONE."""
    words = str(props["SUCCESS_EXIT_VALUES"]).split()
    if all(w.isdigit() and w.isascii() and int(w) <= 255 for w in words):
        return frozenset(int(w) for w in words)
    check.error(props, "SUCCESS_EXIT_VALUES",
                text("CONFIG_EXIT_VALUES", value=props["SUCCESS_EXIT_VALUES"]))
    return frozenset()


_ENV_ITEM = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"
    r"(?:'([^']*)'|\"([^\"]*)\"|([^,'\"]*?))\s*(?:,|$)")


def _env_vars(props, check):
    """ENV_VARS: ``name='value'[,name1='value1']...`` (quotes optional)."""
    value = str(props["ENV_VARS"]).strip()
    out, at = {}, 0
    while at < len(value):
        m = _ENV_ITEM.match(value, at)
        if m is None or m.end() == at:
            check.error(props, "ENV_VARS", text("CONFIG_ENV_VARS",
                                                value=value))
            return {}
        name = m.group(1)
        out[name] = next(g for g in m.groups()[1:] if g is not None)
        at = m.end()
    return out
