"""The submit handler: check a job against the queues, then accept it."""

import json
import pwd
import re
from types import SimpleNamespace

from xce.config import queueaccept
from xce.config.model import QueueConf
from xce.config.lsf import hostnames
from xce.controller import containercheck, gpucheck, interactive, jobclock, jobgroups
from xce.controller import jobdir, ugroupcheck
from xce.controller.ugroupcheck import direct_member
from xce.controller import (asked, jobprio, jobreq, limitconf, pendlimit, rlimits,
                            stage)
from xce.errors import text
from xce.lang import appmerge
from xce.model import arrayspec, jobcwd
from xce.scheduler import hostfit
from xce.scheduler.limits import Limits
from xce.lang import depend
from xce.lang.rlimits import submitted as submitted_limits
from xce.store.schema import JOB_COLUMNS


class Rejected(Exception):
    """The request is refused; ``str()`` is the message before 'Job not submitted.'"""


def user_of(uid):
    try:
        pw = pwd.getpwuid(uid)
        return pw.pw_name, pw.pw_gid
    except KeyError:
        raise Rejected(text("UNKNOWN_USER", f"uid {uid}"))


def choose_queue(ctl, spec, user):
    """The queue named by -q, or the first default queue the user may use."""
    names = spec.get("queue")
    # LSB_DEFAULTQUEUE names the queue, but bsub still calls it the default.
    explicit = bool(names) and not spec.get("queue_is_default")
    if names:
        candidates = names.split() if isinstance(names, str) else list(names)
    else:
        candidates = ctl.cfg.default_queues
    last_error = None
    for name in candidates:
        q = ctl.cfg.queues.get(name)
        if q is None:
            last_error = text("BAD_QUEUE", name)
            continue
        if not ctl.queue_state[name]["open"]:
            last_error = text("QUEUE_CLOSED", name)
            continue
        if not q.allows(user) and not ctl.is_admin(user):
            last_error = text("QUEUE_USER", name)
            continue
        return q, explicit
    raise Rejected(last_error or text("BAD_QUEUE", "default"))


def check_limits(q, spec):
    """Job limits beyond the queue's hard limits are refused; defaults filled."""
    for key, attr in (("memlimit", "memlimit"),):   # runlimit: rlimits
        pair = getattr(q, attr)
        if pair is None:
            continue
        value = spec.get(key)
        if value is None:
            spec[key] = pair[0]
        elif value > pair[1]:
            raise Rejected(text("HARD_LIMIT", key.upper()))


def check_slots(ctl, q, spec):
    lo, hi = spec["nslots"]
    if lo < 1:
        raise Rejected(text("TOO_FEW_PROCS"))
    if hi < lo:
        raise Rejected(f"{lo},{hi}: {text('BAD_ARGUMENT')}")
    capacity = _capacity(ctl, q)
    if capacity and lo > capacity:
        raise Rejected(text("TOO_MANY_PROCS"))


def _capacity(ctl, q):
    """The slots of the queue's hosts.  Hosts' slots change with the
    configuration or a hello, which both move view_epoch: worked out once
    per epoch, not over every host at every submission (6,000 hosts)."""
    key = (q.name, ctl.view_epoch)
    kept = ctl.passes.capacity
    found = kept.get(key)
    if found is None:
        if len(kept) > 1000:
            kept.clear()
        found = kept[key] = sum(
            h["max_slots"] for name, h in ctl.hosts.items()
            if q.hosts is None or name in q.hosts)
    return found


def check_hosts(ctl, q, spec):
    """-m names known hosts or host groups, some of which the queue uses."""
    words = spec.get("asked_hosts")
    if words:
        why = asked.problem(ctl.cfg, q, words)
        if why is not None:
            raise Rejected(why)


def check_resreq(ctl, q, spec):
    """-R (merged with the queue's RES_REQ) must parse: bsub checked the
    syntax, but the controller is the one that must not keep a bad one."""
    try:
        jobreq.check_names(ctl.cfg, spec.get("resreq") or ())
        rr = jobreq.parse_job(jobreq.own_strings(spec), q,
                              jobreq.unit(ctl.cfg))
        jobreq.check_reservable(ctl.cfg, rr)
    except jobreq.BadRequirement as e:
        raise Rejected(str(e))
    check_host_limit(q, rr, spec)


def check_host_limit(q, rr, spec):
    """HOSTLIMIT_PER_JOB: with span[ptile=n] the hosts a job needs are
    known now (its -n minimum over n, rounded up), and LSF refuses a job
    that needs more than the limit; any other job is left to the
    scheduler, which never places it on more hosts."""
    span = rr.span if rr is not None else None
    if q.host_limit is None or span is None or \
            not isinstance(span.ptile, int):
        return
    lo = (spec.get("nslots") or [1])[0]
    if -(-lo // span.ptile) > q.host_limit:
        raise Rejected(text("HOST_LIMIT", q.name))


# A job group is an absolute path of names: /proj/run1.
_JOB_GROUP = re.compile(r"(/[A-Za-z0-9_.-]+)+|/")


def apply_profile(cfg, spec):
    """-app, else DEFAULT_APPLICATION: the profile must exist (LSF's
    message otherwise), and fills what the job left unset
    (xce.lang.appmerge); the queue's checks then see the merged values."""
    name = spec.get("app") or \
        str(cfg.params.get("DEFAULT_APPLICATION") or "").strip()
    if not name:
        return
    app = cfg.apps.get(name)
    if app is None:
        raise Rejected(text("APP_NULL"))
    spec["app"] = name
    appmerge.fill(app, spec)
    if app.job_sizes:
        # JOB_SIZE_LIST: a job without -n gets its first size.
        if spec.pop("nslots_default", None):
            spec["nslots"] = [app.job_sizes[0]] * 2
        why = size_refusal(app, spec["nslots"])
        if why:
            raise Rejected(why)
    if app.tasks is not None:
        check_task_limit(app.tasks, spec)


def check_queue_sizes(cfg, q, spec):
    """The queue's JOB_SIZE_LIST, for a job whose profile has none (the
    profile's wins, as in LSF): a job without -n gets its first size,
    one asking a size out of it is refused."""
    app = cfg.apps.get(spec.get("app") or "")
    if not q.job_sizes or (app is not None and app.job_sizes):
        return
    if spec.pop("nslots_default", None):
        spec["nslots"] = [q.job_sizes[0]] * 2
    why = size_refusal(q, spec["nslots"])
    if why:
        raise Rejected(why)


def check_task_limit(tasks, spec):
    """A profile's or a queue's TASKLIMIT (LSF 10.1): a job without -n gets
    the default task count (its profile's first, then its queue's); a job asking fewer tasks than the minimum (its largest
    count below it) or more than the maximum (its smallest count above
    it) is refused."""
    if spec.pop("nslots_default", None):
        spec["nslots"] = [tasks[1], tasks[1]]
    why = tasks_outside(tasks, spec["nslots"])
    if why:
        raise Rejected(text(why))


def tasks_outside(tasks, nslots):
    """The error key of a task range *nslots* out of a TASKLIMIT, or None."""
    if nslots[1] < tasks[0]:
        return "TOO_FEW_PROCS"
    if nslots[0] > tasks[2]:
        return "TOO_MANY_PROCS"
    return None


def size_refusal(owner, nslots):
    """Why *nslots* is not a size of the JOB_SIZE_LIST of *owner* (a
    profile or a queue; LSF refuses a size out of the list, and a
    range), or None."""
    if not owner.job_sizes or (nslots[0] == nslots[1] and
                               nslots[0] in owner.job_sizes):
        return None
    asked = str(nslots[0]) if nslots[0] == nslots[1] else \
        f"{nslots[0]},{nslots[1]}"
    key = "QUEUE_JOB_SIZE_LIST" if isinstance(owner, QueueConf) \
        else "JOB_SIZE_LIST"
    return text(key, asked=asked,
                sizes=" ".join(str(n) for n in owner.job_sizes))


def tasks_refusal(cfg, queue, spec):
    """Why the job's task count no longer fits its profile (TASKLIMIT,
    JOB_SIZE_LIST) or its queue (TASKLIMIT), as they are now; or None.
    bmod and a re-merge after reconfig check it (LSF: such a job
    pends)."""
    nslots = spec.get("nslots") or [1, 1]
    app = cfg.apps.get(spec.get("app") or "")
    q = cfg.queues.get(queue)
    for tasks in (app.tasks if app else None, q.tasks if q else None):
        why = tasks_outside(tasks, nslots) if tasks else None
        if why:
            return text(why)
    if app is not None and app.job_sizes:
        return size_refusal(app, nslots)
    return size_refusal(q, nslots) if q is not None else None


def check_profiles(ctl, spec, user):
    """-app, -G and -g name what the configuration has (LSF refuses
    the job otherwise); job groups are made as jobs name them. -sla is
    refused whatever it names: service-level goals are not scheduled for,
    and a request from an older client must not slip through."""
    if spec.get("sla"):
        raise Rejected(text("SLA_UNSUPPORTED"))
    ugroupcheck.check(ctl, spec, user, Rejected)
    jgroup = spec.get("job_group")
    if jgroup is not None and not _JOB_GROUP.fullmatch(jgroup):
        raise Rejected(text("BAD_JGROUP", jgroup))


def default_user_group(cfg, user):
    """lsb.params DEFAULT_USER_GROUP: the group a job submitted without -G
    is associated with (charged to in fairshare, shown by bjobs, its
    administrators' under STRICT_UG_CONTROL), when *user* is a direct
    member of it, as bsub -G needs (LSF has the group hold `all` as a
    direct member, which makes every user one); a user who is not, a
    member of one of its subgroups only included, submits with no group,
    as without DEFAULT_USER_GROUP; or None."""
    group = cfg.params.get("DEFAULT_USER_GROUP")
    if not group or str(group) not in cfg.user_groups:
        return None
    return str(group) if direct_member(cfg.user_groups[str(group)], user) \
        else None


def check_project(ctl, spec, user):
    """-P (or LSB_DEFAULTPROJECT) must name a project the user is a
    member of, once projects are defined; without one the job gets the
    user's default project (xce.model.projects)."""
    projects = ctl.cfg.projects
    name = spec.get("project")
    if not name:
        spec["project"] = projects.default_of(
            user, lambda u: groups_of(ctl.cfg, u))
        return
    why = projects.refusal(user, name, lambda u: groups_of(ctl.cfg, u))
    if why == "PROJECT_MEMBER" and ctl.is_admin(user):
        return
    if why is not None:
        raise Rejected(text(why, name))


def groups_of(cfg, user):
    """The user groups *user* belongs to, nested groups expanded (kept on
    the configuration: a reconfig brings a new one)."""
    known = cfg.__dict__.setdefault("_xce_groups_of", {})
    found = known.get(user)
    if found is None:
        found = known[user] = frozenset(
            g for g in cfg.user_groups
            if user in hostnames.expand([g], cfg.user_groups))
    return found


def check_project_quota(ctl, q, spec, user):
    """A job its project's quota could never let start is refused now
    rather than left pending for ever (xce.scheduler.limits)."""
    found = limitconf.limits(ctl.cfg, ctl.now)
    if not any(lim.projects is not None for lim in found):
        return
    rr = jobreq.parse_job(jobreq.own_strings(spec), q, jobreq.unit(ctl.cfg))
    nslots = (spec.get("nslots") or [1])[0]
    mem = hostfit.job_mem(SimpleNamespace(
        resreq=rr, nslots=nslots,
        mem_per_task=ctl.cfg.param_flag("RESOURCE_RESERVE_PER_TASK")))
    never = Limits(found).never_met(user, q.name, spec.get("project") or
                                    ctl.cfg.projects.cluster_default,
                                    nslots, mem, spec.get("app") or "",
                                    limitconf.limit_groups(ctl.cfg, spec))
    if never is not None:
        project, what, limit, asked_ = never
        raise Rejected(text("PROJECT_QUOTA_NEVER", project=project,
                            what=what, limit=limit, asked=asked_))


def check_array(ctl, spec):
    """An array name `sim[1-10]%2`: record the element indices and limit."""
    name = spec.get("name")
    if not name:
        return ()
    limit = ctl.cfg.param_int("MAX_JOB_ARRAY_SIZE",
                              arrayspec.MAX_JOB_ARRAY_SIZE)
    try:
        parsed = arrayspec.parse_job_name(name, max_size=limit)
    except arrayspec.ArraySpecError as e:
        raise Rejected(e.message)
    if parsed.is_array:
        spec["array_name"] = parsed.name
        spec["array_limit"] = parsed.limit
        spec["array_spec"] = arrayspec.format_index_ranges(parsed.indices)
    return parsed.indices


def check_depend(ctl, spec, user, indices=()):
    """-w must parse and every job it names must exist (LSF refuses the
    job otherwise); `name[*]` pairs elements of arrays of one size."""
    expr = spec.get("depend")
    if not expr:
        spec.pop("depend", None)
        return
    try:
        tree = jobreq.parse_depend(expr)
        ctl.index.configure(ctl.cfg.params)
        lookup = ctl.index.lookup(user, ctl.is_admin(user),
                                  cutoffs=ctl.clean_cutoffs())
        depend.check_references(tree, lookup)
        _check_array_sizes(ctl, tree, user, len(indices))
    except depend.DependError as e:
        if e.kind == "nojob":
            # LSF names the condition it cannot match, not the expression.
            raise Rejected(f"{e.part}: No matching job found")
        raise Rejected(e.message)


def _check_array_sizes(ctl, tree, user, size):
    admin = ctl.is_admin(user)
    for ref in depend.refs(tree):
        if ref.index != "*" or not size:
            continue
        counts = {}
        for jobid, _ in ctl.index.keys(ref, user, admin,
                                       cutoffs=ctl.clean_cutoffs()):
            counts[jobid] = counts.get(jobid, 0) + 1
        if any(n != size for n in counts.values()):
            raise depend.DependError(
                "Dependent arrays do not have the same size", "size")


def accept(ctl, uid, spec):
    """A submit request: the job (or array) is checked, emitted, and its
    environment and script kept apart (job_data)."""
    data = {"env": spec.pop("env", None) or {},
            "jobfile": spec.pop("jobfile", None)}
    key = spec.pop("interactive_key", None)     # never into the store
    jobs, explicit = new_jobs(ctl, uid, spec, ctl.now, data["env"])
    job = jobs[0]
    # A job id comes round again (MAX_JOBID): no data of its last holder.
    ctl.store.forget_job_data([job["jobid"]])
    try:
        stage.keep(ctl, spec, job["jobid"])     # bsub -f contents
    except stage.Refused as e:
        raise Rejected(str(e))
    interactive.keep_key(ctl, job["jobid"], key)
    for element in jobs if spec.get("xfiles") else ():
        element["spec"]["xfiles"] = spec["xfiles"]      # array elements
    jobgroups.adopt(ctl, spec, job["user"], job["queue"])
    for element in jobs:
        element["spec"].pop("default_jobgroup", None)
        if spec.get("job_group"):                       # array elements
            element["spec"]["job_group"] = spec["job_group"]
    # Array elements share one job_data row, under index 0.
    key = (job["jobid"], 0)
    ctl.new_job_data[key] = data
    ctl.store.save_job_data(*key, json.dumps(data["env"]),
                            data["jobfile"])
    for job in jobs:
        # LSF logs an array once (one JOB_NEW, idx 0): lsb.events writes
        # it with the array's first element.
        head = {"array_head": job is jobs[0]} if job["idx"] else {}
        emit_submitted(ctl, job, spec, **head)
        jobclock.note(ctl, job)
    ctl.dirty = True
    return {"ok": True, "jobid": job["jobid"], "queue": job["queue"],
            "default": not explicit}


def emit_submitted(ctl, job, spec, **extra):
    """A new job's SUBMIT event: its queue, user and hold, and its limits
    as submitted (bhist -l shows those in its submission block after a
    bmod or bswitch changed them); the simulator submits through here."""
    ctl.emit("SUBMIT", job, queue=job["queue"], user=job["user"],
             hold=bool(spec.get("hold")),
             limits=submitted_limits(job["spec"]), **extra)


def accept_many(ctl, uid, doc):
    """bsub -pack: every line in this one request and one commit; a
    refused line is answered alone and the others go on."""
    shared_env = doc.get("env") or {}
    results = []
    for spec in doc["specs"]:
        if spec.pop("env_shared", False):
            spec["env"] = shared_env
        try:
            results.append(accept(ctl, uid, spec))
        except Rejected as e:
            results.append({"ok": False, "error": str(e)})
    return {"ok": True, "results": results}


def new_jobs(ctl, req_uid, spec, now, env=None):
    """The rows of a submission: one job, or one row per array element
    (all sharing the job id and the spec).  Not yet applied."""
    user, _ = user_of(req_uid)
    check_cwd(spec)
    q, _ = choose_queue(ctl, spec, user)
    apply_profile(ctl.cfg, spec)
    check_queue_sizes(ctl.cfg, q, spec)
    if q.tasks is not None:
        check_task_limit(q.tasks, spec)
    check_resreq(ctl, q, spec)
    check_profiles(ctl, spec, user)
    check_project(ctl, spec, user)
    indices = check_array(ctl, spec)
    check_depend(ctl, spec, user, indices)
    job, explicit = new_job(ctl, req_uid, spec, now, env)
    if not indices:
        return [job], explicit
    jobs = []
    for idx in indices:
        element = dict(job)
        element["idx"] = idx
        element["spec"] = dict(spec)    # an element may be changed alone
        element["name"] = f"{spec['array_name']}[{idx}]"
        jobs.append(element)
    return jobs, explicit


def check_cwd(spec):
    """The request's working directory is the one its -cwd (or
    LSB_JOB_CWD) and submission directory give by the one rule
    (xce.model.jobcwd), whatever the request says it is.  A request
    without a submission directory was made from its "cwd"."""
    subcwd = spec["subcwd"] if "subcwd" in spec else spec.get("cwd")
    try:
        spec["cwd"] = jobcwd.resolve(spec.get("specified_cwd"), subcwd)
        spec["subcwd"] = subcwd     # kept: jobdir.fill resolves from it
    except jobcwd.BadCwd as e:
        raise Rejected(text(e.key, **e.fields))


def new_job(ctl, req_uid, spec, now, env=None):
    """Validate a submit request and return the new job's row (not yet applied)."""
    user, gid = user_of(req_uid)
    return admit(ctl, spec, user, req_uid, gid, env)


def admit(ctl, spec, user, req_uid, gid, env=None):
    """The queue's and the cluster's checks of a job of *user* (*env*: its
    submission environment), and its row (not yet applied); the
    simulator submits its jobs through here."""
    q, explicit = choose_queue(ctl, spec, user)
    # Already applied on the submit path (before the RES_REQ check); the
    # simulator comes in here.  Filling twice changes nothing.
    apply_profile(ctl.cfg, spec)
    try:        # -cwd, LSB_JOB_CWD, the profile's JOB_CWD, DEFAULT_JOB_CWD
        jobdir.fill(ctl.cfg, spec)
    except jobdir.BadDir as e:
        raise Rejected(str(e))
    check_queue_sizes(ctl.cfg, q, spec)
    if q.tasks is not None:
        check_task_limit(q.tasks, spec)
    if spec.get("exclusive") and not q.exclusive:
        raise Rejected(text("QUEUE_EXCLUSIVE", q.name))
    refused = queueaccept.refusal(q, spec) or \
        pendlimit.refusal(ctl.cfg, ctl.jobs.values(), user, spec)
    if refused:
        raise Rejected(refused)
    why = jobprio.refusal(ctl, q, user, spec.get("user_priority"))
    if why:
        raise Rejected(text(why))
    check_limits(q, spec)
    rlimits.check(ctl.cfg, q, spec, Rejected)
    check_slots(ctl, q, spec)
    check_hosts(ctl, q, spec)
    check_project_quota(ctl, q, spec, user)
    ugroupcheck.check_queue(ctl.cfg, q, spec, user, Rejected)
    if not spec.get("user_group") and \
            not spec.get("user_group_exclude"):     # DEFAULT_USER_GROUP
        spec.pop("user_group", None)
        group = default_user_group(ctl.cfg, user)
        if group:
            spec["user_group"] = group
    gpucheck.check(ctl, q, spec, Rejected)
    containercheck.check(ctl, q, spec, env, Rejected)
    jobid = ctl.next_jobid()
    if jobid is None:
        raise Rejected(text("NO_JOBID"))
    spec["uid"], spec["gid"] = req_uid, gid
    job = dict.fromkeys(JOB_COLUMNS)
    job.update({
        "jobid": jobid, "idx": 0, "stat": None, "user": user, "uid": req_uid,
        "queue": q.name, "name": spec.get("name") or spec["command"],
        "command": spec["command"], "from_host": spec.get("from_host", ""),
        "nslots": spec["nslots"][0], "attempt": 0,
        "outfile": spec.get("stdout"), "errfile": spec.get("stderr"),
        "seq": ctl.job_seq(jobid), "spec": spec,
    })
    return job, explicit
