"""What wraps one job's execution, worked out in one place from its queue
and its own options: the pre- and post-execution steps in LSF's order,
the job starter, the login shell, and the pre-exec retry limit.

LSF's order (lsb.queues(5), lsb.applications(5), bsub(1)):
  before the job: HOST_PRE_EXEC (the queue's, then the application
  profile's; on every host of the job: xce.controller.hoststeps), then the
  queue's PRE_EXEC, the profile's PRE_EXEC, then bsub -E;
  after it: bsub -Ep, the profile's POST_EXEC, the queue's POST_EXEC,
  then HOST_POST_EXEC (the profile's, then the queue's).
The profile's JOB_STARTER replaces the queue's.  The profile is read as
the job starts (its -app, or DEFAULT_APPLICATION as it was at submit).

Who runs each step: the job's own commands (-E, -Ep) always run as the
job's user, with its environment, working directory and output files --
they come from the spool, which any local user writes, so they never get
anyone else's rights.  The queue's PRE_EXEC and POST_EXEC run as
PRE_POST_EXEC_USER when the queue sets one, else as the job's user; the
host-based commands as PRE_POST_EXEC_USER, else as root.  Only the
administrator's configuration can name a user other than the job's.
The profile's PRE_EXEC and POST_EXEC run as the job's user (LSF runs them
with the job's user ID); its host-based ones as the queue's host steps.
"""

from xce.config import execconf

# A step: {"cmd": command line, "level": "job" | "queue" | "host",
# "user": user name, or None for the job's own user, or "root"}.
JOB, QUEUE, HOST = "job", "queue", "host"
RETRY_UNLIMITED = 2147483647        # LSF's default LOCAL_MAX_PREEXEC_RETRY


def _expand(cmd, jobid, idx):
    """%J and %I, as in the job's file names."""
    return cmd.replace("%J", str(jobid)).replace("%I", str(idx))


def start_fields(cfg, job):
    """The start message's execution fields; {} for a plain job."""
    spec = job["spec"]
    q = cfg.queues.get(job["queue"])
    commands = q.exec_commands if q is not None else {}
    user = q.prepost_user if q is not None else None
    jobid, idx = job["jobid"], job["idx"]

    def step(cmd, level, who):
        return {"cmd": _expand(cmd, jobid, idx), "level": level, "user": who}

    app = cfg.apps.get(spec.get("app") or "")
    own = app.exec_commands if app is not None else {}
    out = {}
    host_user = user or "root"
    pre, post = [], []
    for where in (commands, own):
        if where.get("HOST_PRE_EXEC"):
            pre.append(step(where["HOST_PRE_EXEC"], HOST, host_user))
    if commands.get("PRE_EXEC"):
        pre.append(step(commands["PRE_EXEC"], QUEUE, user))
    if own.get("PRE_EXEC"):
        pre.append(step(own["PRE_EXEC"], QUEUE, None))
    if spec.get("pre_exec"):
        pre.append(step(spec["pre_exec"], JOB, None))
    if spec.get("post_exec"):
        post.append(step(spec["post_exec"], JOB, None))
    if own.get("POST_EXEC"):
        post.append(step(own["POST_EXEC"], QUEUE, None))
    if commands.get("POST_EXEC"):
        post.append(step(commands["POST_EXEC"], QUEUE, user))
    for where in (own, commands):
        if where.get("HOST_POST_EXEC"):
            post.append(step(where["HOST_POST_EXEC"], HOST, host_user))
    if pre:
        out["pre"] = pre
    if post:
        out["post"] = post
    starter = own.get("JOB_STARTER") or commands.get("JOB_STARTER")
    if starter:
        out["starter"] = starter
    if spec.get("login_shell"):
        out["login_shell"] = spec["login_shell"]
    eexec = eexec_path(cfg)
    if eexec:
        out["eexec"] = eexec
    return out


def eexec_path(cfg):
    """LSF_SERVERDIR/eexec, which the agent runs before every job when the
    execution host has it (LSF: "If an eexec exists in LSF_SERVERDIR, LSF
    invokes that eexec for all jobs"); None without LSF_SERVERDIR."""
    serverdir = cfg.params.get("LSF_SERVERDIR")
    if not serverdir or not str(serverdir).startswith("/"):
        return None
    return str(serverdir).rstrip("/") + "/eexec"


def retry_limit(cfg, queue_name, app_name=None):
    """(LOCAL_MAX_PREEXEC_RETRY, its action): the job's profile's, else
    its queue's, else the cluster's, else LSF's defaults (unlimited,
    SUSPEND)."""
    app = cfg.apps.get(app_name or "")
    limit, action = retry_limit(cfg, queue_name) if app is not None \
        else (None, None)
    if app is not None:
        return (app.preexec_retry or limit,
                app.preexec_retry_action or action)
    q = cfg.queues.get(queue_name)
    raw = q.raw if q is not None else {}
    limit = raw.get("LOCAL_MAX_PREEXEC_RETRY")
    if limit is None:
        limit = cfg.params.get("LOCAL_MAX_PREEXEC_RETRY")
    try:
        limit = int(limit) if limit is not None else RETRY_UNLIMITED
    except (TypeError, ValueError):
        limit = RETRY_UNLIMITED
    action = (q.preexec_retry_action if q is not None else None) or \
        execconf.retry_action(cfg.params, _Quiet()) or "SUSPEND"
    return limit, action


class _Quiet:
    def error(self, *args):
        pass
