"""What the controller does with the outcome of a job's pre- and
post-execution commands (run by the agent, xce.agent.prepost).

A failed pre-exec: the job never ran.  It goes back to PEND with LSF's
pend reason and runs again; after LOCAL_MAX_PREEXEC_RETRY failed
attempts LSF's LOCAL_MAX_PREEXEC_RETRY_ACTION applies: SUSPEND (the
default) leaves it PSUSP until bresume, EXIT ends it.  A pre-exec that
exits 99 ends the job at once (LSF: "the job exits without pending").

The post-exec status (POST_DONE or POST_ERR) comes after the job's own
end, which LSF reports first; it goes into the job's spec ("post") and
the dependency index, so that post_done() and post_err() can be met.
A parallel job's HOST_POST_EXEC also runs on its other hosts
(xce.controller.hoststeps); as in LSF, their results are part of the
job's post-processing result: the status is final when every host has
said how its part ended, and POST_ERR when any part failed.  Each part
is kept in the spec ("post_parts", host -> state) as it comes, so a
controller restart loses none.

With JOB_INCLUDE_POSTPROC=Y (the profile's, else lsb.params's) the
post-exec is part of the job: its end is held (xce.controller.reconcile)
until the post-exec status comes, and then applied, finished at that
time, so that the job is RUN with its slots meanwhile.
"""

import json
import logging

from xce.config.model import MBD_SLEEP_TIME
from xce.controller import execplan, gangs, requeue
from xce.errors import text
from xce.model import states

log = logging.getLogger("xce.controller")

NO_RETRY = 99       # a pre-exec's "do not try this job again"


def pre_failed(ctl, job, code):
    tries = int(job["spec"].get("preexec_tries") or 0) + 1
    limit, action = execplan.retry_limit(ctl.cfg, job["queue"],
                                         job["spec"].get("app"))
    reason = json.dumps([[text("PREEXEC_PEND"), None]])
    log.info("job %s: pre-exec failed with %s (attempt %d of %s)",
             ctl.label(job), code, tries, limit)
    # LSF dispatches it again at its next scheduling session.
    again = ctl.now + ctl.cfg.param_int("MBD_SLEEP_TIME", MBD_SLEEP_TIME)
    if code == NO_RETRY or (tries >= limit and action == "EXIT"):
        ctl.emit("STATUS", job, stat=states.EXIT, exit_code=code,
                 reason=None, pre_failed=code, preexec_tries=tries)
    elif tries >= limit:
        ctl.emit("REQUEUE", job, stat=states.PSUSP, by="", reason=reason,
                 pre_failed=code, preexec_tries=tries)
        gangs.sent_back(ctl, job)
    else:
        # LSF requeues it to the head of its queue.
        seq = requeue.head_seq(ctl, job)
        ctl.emit("REQUEUE", job, stat=states.PEND, by="", reason=reason,
                 pre_failed=code, preexec_tries=tries, retry_at=again,
                 **({"seq": seq} if seq is not None else {}))
        ctl.retry_waiting[(job["jobid"], job["idx"])] = again
        gangs.sent_back(ctl, job)


def holds_back(ctl, job):
    """Is *job* waiting out the session after a failed pre-exec?"""
    at = (job.get("spec") or {}).get("preexec_retry_at")
    if job["stat"] != states.PEND or at is None or at <= ctl.now:
        return False
    # Kept for wake() (after a controller restart too).
    ctl.retry_waiting[(job["jobid"], job["idx"])] = at
    return True


def wake(ctl):
    """Jobs whose wait after a failed pre-exec is over: to the scheduler
    (called every turn of the controller's loop)."""
    if not ctl.retry_waiting:
        return
    due = [k for k, at in ctl.retry_waiting.items() if at <= ctl.now]
    for key in due:
        del ctl.retry_waiting[key]
        if key in ctl.jobs:
            ctl.passes.changed.add(key)
            ctl.dirty = True


def post_reported(ctl, msg):
    """The agent's "post" message: the post-exec stage has ended."""
    key = (int(msg["job"]), int(msg.get("idx", 0)))
    job = post_job(ctl, key)
    if job is None or job["attempt"] != msg["attempt"] or \
            job["stat"] not in states.FINISHED:
        log.info("ignoring a stale post-exec report of job %s", key)
        return
    state = msg.get("post_state")
    if state not in ("POST_DONE", "POST_ERR"):
        raise ValueError(f"bad post_state {state!r}")
    if (job["spec"] or {}).get("post") == state:
        return          # said again at a hello
    post_part(ctl, job, (job["exec_hosts"] or "").split()[0], state)


def post_job(ctl, key):
    """The finished job *key* (None when there is none)."""
    job = ctl.post_waiting.get(key)
    return job if job is not None else _stored(ctl, key)


def post_part(ctl, job, host, state):
    """*host*'s part of the job's post-exec stage has ended with *state*
    (its first host's post-exec, or another host's HOST_POST_EXEC)."""
    spec = job["spec"] or {}
    if spec.get("post") != "RUN":
        return                  # no post stage running (or it has ended)
    others = spec.get("post_hosts")
    if not others:
        _post_ended(ctl, job, post=state)
        return
    parts = dict(spec.get("post_parts") or {})
    if parts.get(host) == state:
        return                  # said again at a hello
    parts[host] = state
    if not {(job["exec_hosts"] or "").split()[0], *others} <= set(parts):
        ctl.emit("POST", job, post="RUN", post_parts=parts)
        return
    failed = [h for h, part in parts.items() if part == "POST_ERR"]
    if failed:
        log.warning("job %s: post-exec failed on %s", ctl.label(job),
                    " ".join(failed))
    _post_ended(ctl, job, post="POST_ERR" if failed else "POST_DONE",
                post_parts=parts)


def _post_ended(ctl, job, **data):
    ctl.post_waiting.pop((job["jobid"], job["idx"]), None)
    ctl.emit("POST", job, **data)
    ctl.index.generation += 1           # post_done()/post_err() may be met


def _stored(ctl, key):
    try:
        return ctl.store.job_row(*key)
    except TypeError:           # no such row
        return None


def includes_postproc(ctl, job):
    """JOB_INCLUDE_POSTPROC of the job's profile, else of lsb.params:
    is its post-exec part of the job (RUN until it has ended)?"""
    app = ctl.cfg.apps.get((job["spec"] or {}).get("app") or "")
    if app is not None and app.include_postproc is not None:
        return app.include_postproc
    return ctl.cfg.param_flag("JOB_INCLUDE_POSTPROC")


def note_finish(ctl, job):
    """A job just finished with its post-exec still to come: keep it at
    hand for the report (its row may not be committed yet)."""
    if (job["spec"] or {}).get("post") == "RUN":
        ctl.post_waiting[(job["jobid"], job["idx"])] = job
