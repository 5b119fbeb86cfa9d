"""Job control requests: bkill, bstop, bresume and bkill -s share this path."""

import signal as _signal

from xce.controller import interactive, jobactions
from xce.errors import text
from xce.model import states, suspreasons
from xce.config.lsf import hostnames
from xce.model.arrayspec import name_matches
from xce.model.ugroupsel import names_user

# action -> the message LSF prints for a job it acted on
DONE_TEXT = {"kill": "is being terminated", "signal": "is being signaled",
             "stop": "is being stopped", "resume": "is being resumed"}
# action -> its command in the permission table (xce.model.permissions)
COMMAND = {"kill": "bkill", "signal": "bkill", "stop": "bstop",
           "resume": "bresume"}
TERMINATING = {_signal.SIGKILL, _signal.SIGTERM, _signal.SIGINT}
# The states in which bkill -d acts (LSF 10.1: started jobs).
AS_DONE_STATES = (states.RUN, states.USUSP, states.SSUSP)
# bkill -b's exit reason; such a job leaves no lsb.acct record.
BULK_REASON = "TERM_BUCKET_KILL"
# bkill -stat's words and the states of each (those of bjobs -r, -p, -s).
KILL_STAT = {"run": frozenset({states.RUN}), "pend": states.PENDING,
             "susp": states.SUSPENDED}
# bkill -s of these is bstop and bresume (LSF: sending SIGSTOP is the same
# as bstop, SIGCONT as bresume): the same states, lines and records.
SIGNAL_ACTIONS = {int(_signal.SIGSTOP): "stop", int(_signal.SIGCONT): "resume"}
# Stop signals a started job receives as they are: it is then USUSP, as
# after bstop (LSF's sbatchd), and bresume or bkill -s CONT continues it.
RAW_STOPS = frozenset({int(_signal.SIGTSTP), int(_signal.SIGTTIN),
                       int(_signal.SIGTTOU)})
# Signals a started job receives without a JOB_SIGNAL record (nor a bhist
# line): LSF's mbatchd logs none for these, nor for the stops above.
UNLOGGED = frozenset({int(_signal.SIGCHLD), int(_signal.SIGWINCH),
                      int(_signal.SIGIO)})


def select_jobs(ctl, req_user, body):
    """The jobs a control request names: ids, ``0`` with filters, or the
    most recent job that matches the filters."""
    targets, errors = [], []
    for label, jobid, idx in body.get("ids", []):
        jobs = ctl.find_jobs(jobid, idx)
        if not jobs:
            errors.append((label, text("NO_JOB")))
        # `bkill 123` of an array answers for the array, in one line.
        array = len(jobs) > 1 and idx is None and all(j["idx"] for j in jobs)
        targets += [(label if len(jobs) == 1 or array else None, j)
                    for j in jobs]
    if body.get("stat"):
        return _in_stat(ctl, req_user, body, targets), errors
    if body.get("all") or (not body.get("ids") and _has_filter(body)):
        matched = _matching(ctl, req_user, body)
        if not body.get("all"):
            matched = matched[-1:]
        if not matched:
            errors.append((None, text("NO_JOB")))
        targets += [(None, j) for j in matched]
    return targets, errors


def _in_stat(ctl, req_user, body, named):
    """bkill -stat: of the jobs named, or else of those the filters match,
    those in the status that the user may kill; the rest are skipped
    without a word, as LSF does."""
    if not body.get("ids"):
        named = [(None, j) for j in _matching(ctl, req_user, body)]
    wanted = KILL_STAT[body["stat"]]
    return [(label, j) for label, j in named if j["stat"] in wanted and
            ctl.may("bkill", req_user, j)]


def _matching(ctl, req_user, body):
    """The unfinished jobs the filters select, oldest first."""
    users = _users(ctl, body.get("user") or req_user)
    matched = [j for j in ctl.jobs.values()
               if j["stat"] in states.UNFINISHED and
               _matches(j, users, body)]
    matched.sort(key=lambda j: (j["seq"], j["idx"]))
    return matched


def _has_filter(body):
    return any(body.get(k) for k in ("user", "queue", "name", "host",
                                     "job_group"))


def _users(ctl, name):
    """-u: a user, or a user group of lsb.users and its members (any
    depth), as LSF's bkill -u user_group; None for all."""
    if name == "all":
        return None
    if name not in ctl.cfg.user_groups:
        return (name,)
    try:
        return tuple(hostnames.expand([name], ctl.cfg.user_groups))
    except hostnames.PatternError:      # the configuration check says so
        return ()


def _matches(job, users, body):
    if users is not None and not names_user(users, job["user"]):
        return False
    if body.get("job_group") and \
            job["spec"].get("job_group") != body["job_group"]:
        return False
    if body.get("queue") and job["queue"] != body["queue"]:
        return False
    if body.get("name") and not name_matches(job["name"], body["name"]):
        return False
    if body.get("host") and body["host"] not in (job["exec_hosts"] or "").split():
        return False
    return True


def control(ctl, req_user, body, now):
    """Act on each selected job; one result line per job."""
    action = body.get("action")
    if action not in DONE_TEXT:
        return {"ok": False, "error": text("BAD_REQUEST")}
    sig = body.get("signal")
    if action == "signal":
        action = SIGNAL_ACTIONS.get(sig, action)
    targets, errors = select_jobs(ctl, req_user, body)
    if body.get("stat") and not targets and not errors:
        errors = [(None, text("NO_JOB"))]
    results = [{"job": label or "", "error": err} for label, err in errors]
    admin = ctl.is_admin(req_user)
    for label, job in targets:
        shown = label or ctl.label(job)
        if not ctl.may(COMMAND[action], req_user, job):
            err = text("PERMISSION")
        elif job["stat"] in states.FINISHED:
            err = text("JOB_FINISHED")
        else:
            err = _act(ctl, job, action, sig, req_user, admin, body, now)
        if err is not None and label is None and body.get("bulk") and \
                body.get("all"):
            continue        # bkill -b 0: LSF skips these without a word
        results.append({"job": shown, "error": err,
                        "ok": err is None,
                        "array": shown if label and job["idx"] and
                        "[" not in label else None,
                        "text": f"Job <{shown}> {DONE_TEXT[action]}"})
    results = _one_per_array(results)
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _one_per_array(results):
    """Elements named by their array's id give one result: the first that
    succeeded, else the first error."""
    out, seen = [], {}
    for r in results:
        label = r.pop("array", None)
        if label is None or label not in seen:
            if label is not None:
                seen[label] = len(out)
            out.append(r)
        elif r.get("ok") and not out[seen[label]].get("ok"):
            out[seen[label]] = r
    return out


def _act(ctl, job, action, sig, req_user, admin, body, now):
    stat = job["stat"]
    reason = "TERM_OWNER" if job["user"] == req_user else "TERM_ADMIN"
    if body.get("bulk") and action == "kill":
        reason = BULK_REASON
    if action == "kill" or (action == "signal" and stat in states.PENDING
                            and sig in TERMINATING):
        if stat in states.PENDING or body.get("force"):
            ctl.emit("STATUS", job, stat=states.EXIT, reason=reason,
                     by=req_user)
            if stat in states.PENDING and job["spec"].get("interactive"):
                interactive.forget(ctl, job["jobid"])
            if stat in states.RUNNING or stat == states.ZOMBI:
                ctl.send_signal(job, _signal.SIGKILL, reason)
        elif stat in (states.UNKWN, states.ZOMBI):
            # Its host is lost: ZOMBI until the host returns and the job
            # is killed there (hostloss.zombie_seen), or bkill -r.
            if stat == states.UNKWN:
                ctl.emit("STATUS", job, stat=states.ZOMBI, reason=reason,
                         by=req_user)
                ctl.send_signal(job, "KILLSEQ", reason)
        else:
            ctl.emit("SIGNAL", job, signal="KILL", by=req_user,
                     **_as_done(job, body))
            # The queue's JOB_CONTROLS TERMINATE, else LSF's sequence.
            ctl.send_signal(job, jobactions.signal_of(ctl, job, "TERMINATE"),
                            reason)
        return None
    if action == "signal":
        if stat in states.PENDING:
            return text("NOT_STARTED")
        if sig in RAW_STOPS:
            return _stop(ctl, job, req_user, sig)
        if sig not in UNLOGGED:
            ctl.emit("SIGNAL", job, signal=sig, by=req_user)
        ctl.send_signal(job, sig, None)
        return None
    if action == "stop":
        return _stop(ctl, job, req_user,
                     jobactions.signal_of(ctl, job, "SUSPEND"))
    return _resume(ctl, job, req_user)


def _stop(ctl, job, req_user, sig):
    """bstop, bkill -s STOP and the other stop signals (*sig* is what the
    job's process group receives): PEND becomes PSUSP, RUN or SSUSP
    becomes USUSP.  A job already held or stopped is left as it is, but
    that an administrator's stop keeps its owner from resuming it (LSF:
    an administrator may bstop a USUSP job to that end)."""
    stat = job["stat"]
    by_admin = _admin_stop(job, req_user)
    mark = {suspreasons.ADMIN_STOP: True} if by_admin else {}
    if stat == states.PEND:
        ctl.emit("STATUS", job, stat=states.PSUSP, by=req_user, **mark)
    elif stat in (states.RUN, states.SSUSP):
        ctl.emit("STATUS", job, stat=states.USUSP, by=req_user, **mark)
        ctl.send_signal(job, sig, None)
    elif stat in (states.PSUSP, states.USUSP) and by_admin and \
            not suspreasons.admin_stopped(job["spec"]):
        ctl.emit("STATUS", job, stat=stat, by=req_user, **mark)
    return None


def _admin_stop(job, req_user):
    """Is a stop by *req_user* an administrator's?  Whoever may stop
    another user's job is one of its administrators (root, a cluster
    admin, or an administrator of its queue, user group or project); an
    administrator's stop of a job of their own is their user stop."""
    return req_user != job["user"]


def _resume(ctl, job, req_user):
    """bresume and bkill -s CONT: PSUSP becomes PEND; USUSP becomes SSUSP,
    which the system resumes when its hosts' loads allow
    (xce.controller.windows, from the next turn on), as LSF does; SSUSP
    is left as it is.  A job an administrator stopped stays with the
    administrators unless ENABLE_USER_RESUME=Y."""
    stat = job["stat"]
    if stat not in states.SUSPENDED:
        return text("NOT_SUSPENDED")
    if not suspreasons.may_resume(
            suspreasons.admin_stopped(job["spec"]),
            ctl.may(COMMAND["resume"], req_user, job, as_admin=True),
            ctl.cfg.param_flag("ENABLE_USER_RESUME")):
        return text("PERMISSION")
    if stat == states.PSUSP:
        ctl.emit("STATUS", job, stat=states.PEND, by=req_user)
    elif stat == states.USUSP:
        ctl.emit("STATUS", job, stat=states.SSUSP, by=req_user,
                 reason=suspreasons.USER_RESUME)
    return None


def _as_done(job, body):
    """bkill -d: LSF records a started job (RUN, USUSP, SSUSP) DONE once it
    exits; of a job in any other state the option changes nothing."""
    if body.get("as_done") and job["stat"] in AS_DONE_STATES:
        return {"as_done": True}
    return {}
