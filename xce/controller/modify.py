"""Requests that change a job in place: bmod, bswitch, brequeue, btop/bbot.

Each handler checks who asks (owner or administrator) and what state the
job is in, then emits one event per job (MODIFY, SWITCH, REQUEUE, MOVE);
``apply`` changes the row.  Signals to agents are queued and go out after
the commit, as for bkill.
"""

import json

from xce.controller import (containercheck, gpucheck, jobclock, jobgroups,
                            jobdir, jobprio, joblimits, remerge, rlimits,
                            stage, ugroupcheck)
from xce.controller.control import select_jobs
from xce.controller.submit import (Rejected, check_depend, check_hosts,
                                   check_limits, check_project,
                                   default_user_group,
                                   check_project_quota,
                                   check_slots, choose_queue,
                                   tasks_refusal)
from xce.errors import text
from xce.lang import appmerge
from xce.model import jobgroups as jg
from xce.model import jobcwd, states

KINDS = ("modify", "switch", "requeue", "move")

# What LSF lets bmod change on a started job (lsb.err 126,
# LSB_MOD_ALL_JOBS): -c, -M, -W, -o/-oo, -e/-eo, -r/-rn (whether a lost
# host requeues it, xce.controller.hostloss, which reads it then).
# bmod -J "%N" too: an array's running element limit is changed while
# its elements run.
RUNNING_KEYS = frozenset({"runlimit", "runlimit_host", "memlimit", "stdout",
                          "stdout_mode", "stderr", "stderr_mode",
                          "rerunnable", "array_limit", *joblimits.CPU_KEYS})
RUNNING_ONLY = ("Only the following parameters can be used to modify a "
                "running job: -c, -M, -W, -o, -e, -r")
NO_ERRFILE = ("No error file specified before job dispatch. Error file does "
              "not exist, so error file name cannot be changed")
REQUEUED = "Requeued job is waiting for rescheduling"
REQUEUE_TEXT = "is being requeued"


def handle(ctl, user, body, now):
    kind = body["kind"]
    if kind == "modify":
        return bmod(ctl, user, body)
    if kind == "switch":
        return switch(ctl, user, body)
    if kind == "requeue":
        return requeue(ctl, user, body)
    return move(ctl, user, body)


def _allowed(ctl, user, job, action):
    """None if *user* may take *action* on *job*, else the error text."""
    if not ctl.may(action, user, job):
        return text("PERMISSION")
    if job["stat"] in states.FINISHED:
        return text("JOB_FINISHED")
    return None


def _one_job(ctl, user, body, action):
    """(label, jobs, error) for a request naming exactly one job."""
    label, jobid, idx = body["ids"][0]
    jobs = ctl.find_jobs(jobid, idx)
    if not jobs:
        return label, [], text("NO_JOB")
    for job in jobs:
        err = _allowed(ctl, user, job, action)
        if err:
            return label, [], err
    return label, jobs, None


# -- bmod ---------------------------------------------------------------------
def bmod(ctl, user, body):
    """One change for every job the request names (an index list names
    several elements): checked for all of them first, then made for all
    or, if one is refused, for none.  An element the array does not have
    is reported alone, as bkill reports it."""
    results, changes, refused, said = [], [], False, set()
    for label, jobid, idx in body["ids"]:
        jobs = ctl.find_jobs(jobid, idx)
        if not jobs:
            results.append({"job": label, "error": text("NO_JOB")})
            continue
        err = _bmod_checks(ctl, user, body, label, jobs, changes)
        if err:
            refused = True
            if err.get("plain"):        # a queue's refusal: said once
                if err["error"] in said:
                    continue
                said.add(err["error"])
            results.append(err)
        else:
            results.append({"job": label, "ok": True, "text":
                            f"Parameters of job <{label}> are being changed"})
    if refused:         # none changed: only the refusals are said
        results = [r for r in results if not r.get("ok")]
        return {"ok": False, "results": results}
    for job, (new, gone) in changes:
        ctl.emit("MODIFY", job, set=new, unset=gone, by=user)
        jobclock.note(ctl, job)         # a new -b or -t to wake for
        ctl.dirty = True                # e.g. -bn: may start at once
        if job["stat"] in states.RUNNING and \
                set(joblimits.LIMIT_KEYS) & (set(new) | set(gone)):
            joblimits.push(ctl, job, set(new) | set(gone))    # from now on
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _bmod_checks(ctl, user, body, label, jobs, changes):
    """None when bmod may change *jobs* (what one id names; their changes
    appended to *changes*), else the refusal as a result."""
    for job in jobs:
        err = _allowed(ctl, user, job, "bmod")
        if err:
            return {"job": label, "error": err}
    if len(jobs) > 1 and ("queue" in (body.get("set") or {}) or
                          "queue" in (body.get("unset") or [])):
        return {"job": "", "plain": True,
                "error": text("ARRAY_QUEUE_CHANGE")}
    for job in jobs:
        try:
            _check_priority(ctl, user, job, body)
            changes.append((job, _bmod_changes(ctl, job, body)))
        except Rejected as e:
            # about the queue, not the job: said without its id
            return {"job": "", "error": str(e), "plain": True}
        except _JobError as e:
            return {"job": label, "error": str(e)}
    return None


class _JobError(Exception):
    """A refusal about the job itself, printed after ``Job <N>: ``."""


def _check_priority(ctl, user, job, body):
    """bmod -sp as bsub -sp (MAX_USER_PRIORITY; the administrators of the
    cluster or of the job's queue may go above it); -sp and -spn restart
    the job's escalation (JOB_PRIORITY_OVER_TIME) from now."""
    new = body.get("set") or {}
    if "user_priority" in new:
        why = jobprio.refusal(ctl, ctl.cfg.queues.get(job["queue"]), user,
                              new["user_priority"])
        if why:
            raise _JobError(text(why))
    if "user_priority" in new or "user_priority" in (body.get("unset")
                                                     or ()):
        body["set"] = dict(new, user_priority_time=ctl.now)


def _bmod_changes(ctl, job, body):
    """The spec keys to set and to remove, checked against the queues."""
    new, gone = dict(body.get("set") or {}), list(body.get("unset") or [])
    if "array_limit" in new and not job["idx"]:
        raise _JobError(text("NOT_ARRAY"))
    started = job["stat"] not in states.PENDING
    if started:
        if set(new) - RUNNING_KEYS or set(gone) - RUNNING_KEYS:
            raise _JobError(RUNNING_ONLY)
        if "stderr" in new and not job["spec"].get("stderr"):
            raise _JobError(NO_ERRFILE)
        old_agent = joblimits.cpu_refusal(ctl, job, set(new) | set(gone))
        if old_agent:
            raise _JobError(old_agent)
    if new.get("xfiles"):       # bmod -f: the contents go to job_data
        try:
            stage.keep(ctl, new, job["jobid"])
        except stage.Refused as e:
            raise Rejected(str(e))
    spec = dict(job["spec"])
    for key in gone:
        spec.pop(key, None)
    spec.update(new)
    _owned(spec, new)
    if "specified_cwd" in new or "specified_cwd" in gone:
        # -cwd as bsub -cwd: a relative one is under the submission
        # directory; -cwdn: the job runs there again.
        spec["cwd"] = new["cwd"] = _working_directory(spec)
    if "job_group" in new or "job_group" in gone:
        _regroup(ctl, job, spec)
        gone = [key for key in gone if key != "job_group"]
        if spec.get("job_group"):
            new["job_group"] = spec["job_group"]
        else:
            new.pop("job_group", None)
            gone.append("job_group")
    if "app" in new or "app" in gone:
        try:        # -app / -appn: the profile's values replaced
            spec = remerge.moved(ctl.cfg, spec, spec.get("app"))
        except remerge.NoProfile as e:
            raise Rejected(str(e))
        new, gone = appmerge.changes(job["spec"], spec)
    elif spec.get(appmerge.FILLED_KEY) != job["spec"].get(
            appmerge.FILLED_KEY):
        new[appmerge.FILLED_KEY] = spec[appmerge.FILLED_KEY]
    if {"specified_cwd", "app"} & (set(new) | set(gone)):
        _redirect(ctl.cfg, job["spec"], spec, new, gone)
    if "project" in new or "project" in gone:
        # -P is checked as at submit; -Pn gives the job its default.
        spec["project"] = new.get("project")
        check_project(ctl, spec, job["user"])
        new["project"] = spec["project"]
        gone = [key for key in gone if key != "project"]
    if {"user_group", "user_group_exclude"} & (set(new) | set(gone)):
        _regroup_user(ctl, job, spec, new, gone)
    if "depend" in new:
        # -w as bsub -w: it must parse and name jobs that exist.
        check_depend(ctl, spec, job["user"])
    begin, term = spec.get("begin_time"), spec.get("term_time")
    if begin is not None and term is not None and begin > term:
        raise Rejected(text("START_AFTER_TERM"))    # bmod -b or -t
    if "queue" in new or "queue" in gone:
        q, _ = choose_queue(ctl, {"queue": spec.get("queue")}, job["user"])
        new["queue"] = q.name
    else:
        q = ctl.cfg.queues.get(job["queue"])
    if q is not None:
        keys = ("runlimit", "memlimit") + rlimits.SPEC_KEYS
        before = [spec.get(key) for key in keys]
        check_limits(q, spec)       # a queue default fills a removed limit
        rlimits.check(ctl.cfg, q, spec, Rejected)
        for key, old in zip(keys, before):
            if spec.get(key) != old:
                new[key] = spec[key]
        if "nslots" in new or "nslots" in gone:
            spec.setdefault("nslots", [1, 1])
            check_slots(ctl, q, spec)
        if "asked_hosts" in new or "queue" in new:
            check_hosts(ctl, q, spec)
        if {"gpu", "app", "queue"} & (set(new) | set(gone)):
            gpucheck.check(ctl, q, spec, Rejected)     # as bsub -gpu
        if {"user_group_exclude", "queue"} & set(new):
            ugroupcheck.check_queue(ctl.cfg, q, spec, job["user"], Rejected)
        if {"exclusive", "queue"} & set(new) and spec.get("exclusive") \
                and not q.exclusive:        # -x as bsub -x
            raise Rejected(text("QUEUE_EXCLUSIVE", q.name))
        if {"app", "queue"} & (set(new) | set(gone)):
            # A container's runtime and image (the profile's, else the
            # queue's), as at submit.
            containercheck.check(ctl, q, spec, ctl.job_data(job)["env"],
                                 Rejected)
        if {"nslots", "app", "queue"} & (set(new) | set(gone)):
            # TASKLIMIT and JOB_SIZE_LIST of the job's profile and queue.
            why = tasks_refusal(ctl.cfg, q.name, spec)
            if why:
                raise Rejected(why)
        if {"project", "nslots", "resreq", "queue"} & set(new):
            check_project_quota(ctl, q, spec, job["user"])
    return new, gone


def _regroup_user(ctl, job, spec, new, gone):
    """-G as bsub -G (a group the job's owner is a direct member of, or
    groups to be excluded from); -Gn: the job is as submitted without
    -G, so lsb.params DEFAULT_USER_GROUP applies again."""
    ugroupcheck.check(ctl, spec, job["user"], Rejected)
    if spec.get("user_group") or spec.get("user_group_exclude"):
        return
    group = default_user_group(ctl.cfg, job["user"])
    if group:
        spec["user_group"] = new["user_group"] = group
        gone.remove("user_group")


def _working_directory(spec):
    """bmod -cwd as bsub -cwd (xce.model.jobcwd): a relative one is
    under the job's submission directory; -cwdn: that directory again."""
    try:
        return jobcwd.resolve(spec.get("specified_cwd"), spec.get("subcwd"))
    except jobcwd.BadCwd as e:
        raise Rejected(text(e.key, **e.fields))


def _redirect(cfg, old, spec, new, gone):
    """-cwd, -cwdn, -app, -appn: the job's directory chosen again by
    LSF's order (xce.controller.jobdir): -cwdn and a new profile give a
    job without its own -cwd its profile's JOB_CWD, else DEFAULT_JOB_CWD."""
    try:
        jobdir.fill(cfg, spec)
    except jobdir.BadDir as e:
        raise Rejected(str(e))
    for key in ("cwd", jobdir.CONF_KEY):
        if key in spec and spec[key] != old.get(key):
            new[key] = spec[key]
        elif key not in spec and key in old and key not in gone:
            gone.append(key)


def _owned(spec, new):
    """A value bmod sets is the job's own from now on: no longer one its
    profile filled (a reconfig or bmod -app would take it back out)."""
    filled = spec.get(appmerge.FILLED_KEY)
    if filled and set(filled) & set(new):
        spec[appmerge.FILLED_KEY] = [k for k in filled if k not in new]


def _regroup(ctl, job, spec):
    """-g: the group must be a valid path and is created as by bsub -g;
    -gn: the job goes back to DEFAULT_JOBGROUP, or to no group."""
    path = spec.get("job_group")
    if path is not None and not jg.valid(path):
        raise Rejected(text("BAD_JGROUP", path))
    jobgroups.adopt(ctl, spec, job["user"], spec.get("queue") or
                    job["queue"])


# -- bswitch ------------------------------------------------------------------
def switch(ctl, user, body):
    dest = body.get("dest")
    if dest not in ctl.cfg.queues:
        return {"ok": False, "error": text("BAD_QUEUE", dest)}
    targets, errors = select_jobs(ctl, user, body)
    results = [{"job": label or "", "error": err} for label, err in errors]
    for label, job in targets:
        shown = label or ctl.label(job)
        err, plain = _allowed(ctl, user, job, "bswitch"), False
        if err is None:
            err, plain = _switch_one(ctl, user, job, dest)
        # Queue refusals name the queue, not the job (LSF's printErrMsg).
        results.append({"job": "" if plain else shown, "error": err,
                        "ok": err is None,
                        "text": f"Job <{shown}> is switched to queue <{dest}>"})
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _switch_one(ctl, user, job, dest):
    try:
        q, _ = choose_queue(ctl, {"queue": dest}, job["user"])
        spec = dict(job["spec"])
        check_limits(q, spec)
        rlimits.check(ctl.cfg, q, spec, Rejected)
    except Rejected as e:
        return str(e), True
    if job["stat"] in states.RUNNING and q.hosts is not None and \
            not set((job["exec_hosts"] or "").split()) <= set(q.hosts):
        return text("QUEUE_HOST", dest), True
    if job["stat"] in states.PENDING and spec.get("asked_hosts"):
        try:
            check_hosts(ctl, q, spec)   # -m: the new queue must use some
        except Rejected:
            return text("QUEUE_HOST", dest), True
    ctl.emit("SWITCH", job, queue=dest, by=user,
             runlimit=spec.get("runlimit"), memlimit=spec.get("memlimit"),
             **rlimits.switched(spec))
    return None, False


# -- brequeue -----------------------------------------------------------------
def requeue(ctl, user, body):
    wanted = set(body.get("states") or ["RUN"])
    hold = bool(body.get("hold"))
    targets, errors = select_jobs(ctl, user, body)
    results = [{"job": label or "", "error": err} for label, err in errors]
    for label, job in targets:
        shown = label or ctl.label(job)
        err = _requeue_one(ctl, user, job, wanted, hold)
        results.append({"job": shown, "error": err, "ok": err is None,
                        "text": f"Job <{shown}> {REQUEUE_TEXT}"})
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _requeue_one(ctl, user, job, wanted, hold):
    if not ctl.may("brequeue", user, job):
        return text("PERMISSION")
    stat = job["stat"]
    new = states.PSUSP if hold else states.PEND
    if stat in states.FINISHED:
        # A finished job is requeued only with -d/-e/-a, and only where the
        # states module allows DONE/EXIT -> PEND.
        if stat not in wanted or not _legal(stat, new):
            return text("JOB_FINISHED")
        job = _full_row(ctl, job)
    elif stat in states.PENDING:
        if "PEND" not in wanted:
            return text("NOT_STARTED")
    elif "RUN" not in wanted:
        return "Job has already started"
    if stat in states.RUNNING:
        # Signal the current attempt before the row forgets its host; the
        # next dispatch has a new attempt number, so the old copy's reports
        # are stale and a copy that survives is fenced.
        ctl.send_signal(job, "KILLSEQ", "TERM_REQUEUE_OWNER"
                        if job["user"] == user else "TERM_REQUEUE_ADMIN")
    # RUN -> PSUSP is not a legal step; a held requeue goes through PEND.
    first = new if _legal(stat, new) else states.PEND
    if not _legal(stat, first):
        return text("JOB_FINISHED")
    ctl.emit("REQUEUE", job, stat=first, by=user,
             reason=json.dumps([[REQUEUED, None]]))
    if first != new:
        ctl.emit("STATUS", job, stat=new, by=user)
    return None


def _legal(old, new):
    try:
        states.check_transition(old, new)
        return True
    except states.IllegalTransition:
        return False


def _full_row(ctl, job):
    return ctl.store.job_row(job["jobid"], job["idx"])


# -- btop / bbot --------------------------------------------------------------
def move(ctl, user, body):
    action = "btop" if body.get("where", "top") == "top" else "bbot"
    label, jobs, err = _one_job(ctl, user, body, action)
    if not err and len(jobs) != 1:
        err = text("ARRAY_INDEX")
    if not err and jobs[0]["stat"] not in states.PENDING:
        err = "Job has already started"
    if err:
        return {"ok": False, "job": label, "error": err}
    job = jobs[0]
    asked = int(body.get("position") or 1)
    top = body.get("where", "top") == "top"
    pending = sorted((j for j in ctl.jobs.values()
                      if j["queue"] == job["queue"] and j is not job and
                      j["stat"] in states.PENDING),
                     key=lambda j: (j["seq"], j["idx"]))
    # A user moves a job among their own jobs, an administrator (of the
    # cluster or of this queue: who may move it without owning it) among
    # all.
    admin = ctl.may(action, user, dict(job, user=None))
    mine = pending if admin else \
        [j for j in pending if j["user"] == job["user"]]
    position = min(asked, len(mine) + 1)
    seq = _new_seq([j["seq"] for j in pending],
                   [j["seq"] for j in mine], position, top)
    if seq is not None and seq != job["seq"]:
        # position and top: what btop/bbot asked, for the JOB_MOVE record.
        ctl.emit("MOVE", job, seq=seq, by=user, position=position, top=top)
    return {"ok": True, "job": label, "position": position,
            "beyond": position != asked}


def _new_seq(all_seqs, mine, position, top):
    """A sequence number that puts the job at *position* among *mine*.

    Midpoints keep every other job where it is, so a move is one event."""
    if not mine:
        return None
    if not top:
        position = len(mine) + 2 - position
    if position <= len(mine):
        hi = mine[position - 1]
        lower = [s for s in all_seqs if s < hi]
        lo = max(lower) if lower else hi - 1
    else:
        lo = mine[-1]
        higher = [s for s in all_seqs if s > lo]
        hi = min(higher) if higher else lo + 1
    return (lo + hi) / 2
