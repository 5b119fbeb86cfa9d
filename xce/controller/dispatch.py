"""From controller state to the scheduler's snapshot: pending jobs'
views, hosts, queues, and what running jobs hold of them and of the
allocation limits.  A started job's start message is xce.controller.
startmsg's; the usage blimits and bhosts -s show, xce.controller.
usagemeta's."""

from dataclasses import dataclass, field

from xce.controller import (accept, asked, claims, containercheck, isolate,
                            jobprio, jobreq, limitconf, prepost, reserve,
                            rlimits, sharehist, submit, windows)
from xce.errors import text
from xce.lang import depend, timewindow, units
from xce.lang.resreq.common import LOAD_INDICES
from xce.lang.resreq.rusage import held_now
from xce.model import fairshare, states
from xce.config import gpuconf, hostarch
from xce.model import gpus as devices
from xce.scheduler import exclusive, gpus, rusage_held
from xce.scheduler.core import HostView, PendingJob, QueueView
from xce.scheduler.order import PendingOrder
from xce.scheduler.limits import Limits


@dataclass
class PassState:
    """What dispatch keeps from one scheduling pass to the next (the
    controller's ``passes``), so that a pass costs what changed, not what
    waits (see _update_views)."""
    # The scheduler's view of each pending job, by key, reused across
    # passes; an event on the job drops its view (Controller.emit).
    views: dict = field(default_factory=dict)
    # What the views were built against: (view_epoch, per-task rusage).
    epoch: tuple = None
    order: PendingOrder = None      # the pending jobs in order
    started: set = field(default_factory=set)   # unfinished, started
    dependent: set = field(default_factory=set)  # pending with a -w
    changed: set = field(default_factory=set)   # an event since the pass
    # Hosts running an exclusive job: closed_Excl (see host_status).
    excl_hosts: set = field(default_factory=set)
    limit_usage: str = None     # what blimits was last given (meta)
    # The snapshot's limit count: (Limits or None, cfg, now); the pass's
    # starts are charged onto a copy of it (usagemeta).
    limit_base: tuple = None
    shared_usage: str = None    # what bhosts -s was last given (meta)
    # (queue, view_epoch) -> slots of the queue's hosts (submit)
    capacity: dict = field(default_factory=dict)
    # host -> (conf, facts, load, (unit, slots) it was built from,
    # (resources, maxmem)): see _host_view
    host_res: dict = field(default_factory=dict)
    # When each host was last given a job (JOB_ACCEPT_INTERVAL).
    accepted: accept.State = field(default_factory=accept.State)
    # Finished jobs' fairshare use (sharehist).
    history: sharehist.State = field(default_factory=sharehist.State)
    # When a running job's rusage[] reservation next shrinks (rusagewake).
    rusage_next: float = None


def snapshot(ctl):
    """Queues, hosts, pending jobs, running array elements and allocation
    limits (with what running jobs use) as the pure scheduler sees them."""
    unit = jobreq.unit(ctl.cfg)
    hosts = {name: _host_view(ctl, name, unit) for name in ctl.hosts}
    dynamic = jobreq.catalog(ctl.cfg).dynamic_names()
    for inst in jobreq.shared_instances(ctl.cfg):
        # A dynamic one takes its elim's value; a value written in its
        # LOCATION (LSF wants none there) stands until an elim reports.
        total = _shared_report(ctl, inst) if inst.resource in dynamic \
            else None
        if total is None:
            total = inst.value
        if total is None:
            continue        # no elim of its hosts reports it (yet)
        counter = rusage_held.Shared(inst.resource, total, inst.location)
        for name in inst.hosts:
            if name in hosts:
                counter.attach(hosts[name])
    queues = {name: _queue_view(ctl, name, q, unit)
              for name, q in ctl.cfg.queues.items()}
    per_task = ctl.cfg.param_flag("RESOURCE_RESERVE_PER_TASK")
    ctl.index.configure(ctl.cfg.params)
    limits = Limits(limitconf.limits(ctl.cfg, ctl.now))
    fair = {n for n, q in queues.items() if q.fairshare is not None}
    arrays, excl = {}, set()
    views = _update_views(ctl, per_task, hosts)
    claims.charge(ctl, hosts)       # the devices jobs and claims hold
    for key in ctl.passes.dependent:
        views[key].depend = _depend_state(ctl, ctl.jobs[key])
    for key in ctl.passes.started:
        job = ctl.jobs[key]
        stat = job["stat"]
        if stat in states.RUNNING:
            _count_running(ctl, job, hosts, queues, per_task, limits)
            if job["spec"].get("exclusive") or job["spec"].get("nnodes"):
                excl.update((job["exec_hosts"] or "").split())
            if job["idx"]:
                arrays[job["jobid"]] = arrays.get(job["jobid"], 0) + 1
        if fair and job["queue"] in fair and stat != states.PEND:
            _fair_use(ctl, job, queues[job["queue"]])
    if fair:
        sharehist.charge(ctl, queues)
    # Hosts running an exclusive job are closed_Excl (bhosts reads the
    # status through host_status) until a pass finds the job gone.
    ctl.passes.excl_hosts = excl
    for h in hosts.values():
        h.status = host_status(ctl, h.name)
        if h.status == states.HOST_CLOSED_BUSY:
            h.busy = windows.host_closed(ctl, ctl.hosts[h.name]["conf"],
                                         ctl.hosts[h.name]["facts"])[1]
        h.resources["slots"] = h.max_slots - h.used
        if h.mem_total is not None:
            h.resources["mem"] = h.mem_total - h.mem_reserved
    return (list(queues.values()), list(hosts.values()), list(views.values()),
            arrays, limits or None)


def reported_shared(cfg):
    """Whether some shared resource has its value from an elim (one with
    an INTERVAL): then a new load report is worth a pass even with no job
    waiting, for bhosts -s and lsload -s."""
    dynamic = jobreq.catalog(cfg).dynamic_names()
    return any(inst.resource in dynamic
               for inst in jobreq.shared_instances(cfg))


def _shared_report(ctl, inst):
    """The value of a shared resource with no static value: what an elim
    on one of its hosts reports (LSF: the elim on a host of the
    ResourceMap location reports the shared value, such as the free
    licences of a licence server).  The first host of the location with
    a connected agent and a fresh report gives it; the agent drops values
    gone stale, so a silent elim leaves the resource with no value."""
    for name in inst.hosts:
        h = ctl.hosts.get(name)
        link = ctl.links.get(name)
        if h is None or link is None or not link.connected:
            continue
        value = ((h["facts"].get("load") or {}).get("ext") or {}).get(
            inst.resource)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
    return None


def _update_views(ctl, per_task, hosts):
    """Bring the pending jobs' views, their order and the sets of started
    and dependent jobs (ctl.passes) up to date with the jobs that had an
    event since the last pass (passes.changed): a view stands until its
    job's next event, so a pass costs what changed, not what waits.  A
    new epoch (reconfig, a host's facts) rebuilds them all."""
    kept = ctl.passes
    epoch = (ctl.view_epoch, per_task)
    views = kept.views
    if kept.epoch != epoch:
        views.clear()
        kept.epoch = epoch
        kept.order = PendingOrder()
        kept.started, kept.dependent = set(), set()
        changed = list(ctl.jobs)
    else:
        changed = kept.changed
    kept.changed = set()
    order, started, dependent = kept.order, kept.started, kept.dependent
    for key in changed:
        job = ctl.jobs.get(key)
        if job is not None and prepost.holds_back(ctl, job):
            # Its pre-exec just failed: not before the next session.
            views.pop(key, None)
            order.drop(key)
            dependent.discard(key)
            started.discard(key)
            continue
        if job is None or job["stat"] != states.PEND:
            views.pop(key, None)
            order.drop(key)
            dependent.discard(key)
            if job is None:
                started.discard(key)
            else:
                started.add(key)
            continue
        started.discard(key)
        try:
            pj = views[key] = _pending(ctl, job, per_task, hosts, epoch)
        except Exception as e:      # a job the scheduler cannot take
            views.pop(key, None)
            isolate.fail_job(ctl, job, "cannot be scheduled: " +
                             isolate.failure(e))
            continue
        order.put(pj)
        if job["spec"].get("depend"):
            dependent.add(key)
        else:
            dependent.discard(key)
    return views


def _queue_view(ctl, name, q, unit):
    return QueueView(name, q.priority, active=ctl.queue_state[name]["active"],
                     hosts=q.hosts, qjob_limit=q.qjob_limit,
                     ujob_limit=q.ujob_limit, hjob_limit=q.hjob_limit,
                     pjob_limit=q.pjob_limit, select=_queue_select(q, unit),
                     fairshare=limitconf.policy(ctl.cfg, q),
                     reserve_time=reserve.window(ctl.cfg, q),
                     backfill=q.backfill, host_limit=q.host_limit,
                     window_closed=not windows.queue_open(ctl, q),
                     thresholds=q.thresholds or None,
                     window_closes=timewindow.closes_at(q.run_window,
                                                        ctl.now),
                     window_factor=rlimits.fastest_factor(ctl.cfg)
                     if q.run_window is not None else 1.0,
                     accept_interval=accept.interval(ctl.cfg, q),
                     fair_slots={}, prefer=asked.queue_prefer(q))


def _fair_use(ctl, job, qv):
    """Charge a running or finished job's hours to its fairshare account
    in the queue, its user's or with bsub -G the one through that group
    (keyed (user, group)): run time of running jobs as is, finished jobs'
    run time and all CPU time decayed by HIST_HOURS (times slots); and
    the slots a running job holds to the same account."""
    use = fairshare.job_usage(job["stat"], job.get("start_time"),
                              job.get("end_time"), job["nslots"],
                              job.get("cpu_time"), ctl.now,
                              qv.fairshare.factors.hist_hours)
    if use is None:
        return
    key = (job["user"], fairshare.account_group(job["spec"]))
    qv.fair_usage[key] = fairshare.add(
        qv.fair_usage.get(key, fairshare.NO_USAGE), use)
    if job["stat"] in states.RUNNING:
        qv.fair_slots[key] = qv.fair_slots.get(key, 0) + job["nslots"]


def _queue_select(q, unit):
    try:
        return jobreq.queue_select(q, unit)
    except Exception:       # a bad RES_REQ is the config check's to report
        return None


def _pending(ctl, job, per_task, hosts, epoch):
    """The job as the scheduler sees it, kept on the job between passes
    and rebuilt when anything it is made of changed (bmod and bswitch
    replace the spec dict, btop changes seq, reconfig the queue, a host's
    facts the epoch).  Every pass looks at every pending job, so the
    common case -- nothing changed -- is a few comparisons."""
    spec = job["spec"]
    cached = job.get("_pending")
    if cached is not None and cached[3] == epoch and cached[1] is spec \
            and cached[0][:3] == (job["queue"], job["seq"], job["nslots"]):
        pj = cached[2]
        if spec.get("depend"):
            pj.depend = _depend_state(ctl, job)
        return pj
    rr = jobreq.job_resreq(ctl, job)
    # `type == local`: the type of the submission host, when it is one of
    # the cluster's hosts (else it restricts nothing).
    sub = hosts.get(job["from_host"])
    local = sub.resources.get("type") or None if sub is not None else None
    refused = _profile_refused(ctl, job) or \
        _project_refused(ctl, job["user"], spec)
    stamp = (job["queue"], job["seq"], job["nslots"], per_task, local,
             refused)
    cached = job.get("_pending")
    if cached is not None and cached[0] == stamp and \
            cached[1] is spec and cached[2].resreq is rr:
        pj = cached[2]
    else:
        lo, hi = spec.get("nslots") or [job["nslots"], job["nslots"]]
        times = reserve.normal_times(ctl, job)
        limit_groups = limitconf.limit_groups(ctl.cfg, spec)
        pj = PendingJob(
            (job["jobid"], job["idx"]), job["queue"], job["user"], lo,
            job["seq"], jobprio.rank(ctl.cfg, job), max_slots=hi,
            resreq=rr, mem_per_task=per_task, local_type=local,
            array_limit=spec.get("array_limit") if job["idx"] else None,
            job_group=spec.get("job_group"),
            project=_project(ctl, spec), app=spec.get("app") or "",
            refused=refused,
            exclusive=bool(spec.get("exclusive") or spec.get("nnodes")),
            runlimit=times[0], abs_runlimit=times[2],
            asked=asked.view(ctl.cfg, spec.get("asked_hosts"),
                             spec.get("requeue_excluded")),
            begin_time=spec.get("begin_time"),
            estimate=times[1],
            layout=tuple(spec["hostfile_hosts"])
            if spec.get("hostfile_hosts") else None,
            gpu=gpuconf.effective(ctl.cfg, spec, job["queue"]),
            container=_runtime(ctl, spec, job["queue"]),
            jl_p=limitconf.jl_p(ctl.cfg, job["user"], limit_groups),
            user_group=spec.get("user_group"),
            excluded_groups=tuple(spec.get("user_group_exclude") or ())
            or None, limit_groups=limit_groups)
        job["_pending"] = (stamp, spec, pj, epoch)
    pj.depend = _depend_state(ctl, job)
    return pj


def _depend_state(ctl, job):
    """None when the job has no -w or it is satisfied; "wait"; "never".

    A result stands until some job changes state (the index's generation)
    or a finished job it looked at is forgotten (CLEAN_PERIOD, to the
    second: bjdepinfo applies the same rule); "never" stands for good,
    as depend.evaluate's NEVER is final."""
    text = job["spec"].get("depend")
    if not text:
        return None
    cached = job.get("_depend")
    if cached is not None and cached[0] == text and (
            cached[2] == "never" or cached[1] == ctl.index.generation
            and ctl.now < cached[3]):
        return cached[2]
    lookup = ctl.index.lookup(job["user"], ctl.is_admin(job["user"]),
                              job["idx"], ctl.clean_cutoffs())
    try:
        result = depend.evaluate(jobreq.parse_depend(text), lookup)
    except depend.DependError:
        result = depend.NEVER
    state = None if result is True else \
        "never" if result is depend.NEVER else "wait"
    job["_depend"] = (text, ctl.index.generation, state,
                      ctl.now + lookup.margin)
    return state


def _host_view(ctl, name, unit):
    """The host as the scheduler sees it; its status is set by snapshot
    (once the hosts running exclusive jobs are known)."""
    h = ctl.hosts[name]
    hc, facts = h["conf"], h["facts"]
    # What select[] and order[] see changes with the configuration, a
    # hello (new facts) or a load report (a new load dict): worked out
    # again only then, not at every pass.
    load, slots = facts.get("load"), h["max_slots"]
    cached = ctl.passes.host_res.get(name)
    if cached is None or cached[0] is not hc or cached[1] is not facts or \
            cached[2] is not load or cached[3] != (unit, slots):
        cached = ctl.passes.host_res[name] = (
            hc, facts, load, (unit, slots),
            _host_resources(ctl.cfg, h, hc, facts, name, unit))
    res, maxmem = cached[4]
    return HostView(name, None, h["max_slots"], jl_u=hc.jl_u,
                    resources=dict(res), mem_total=maxmem,
                    gpus=gpus.views(host_devices(ctl, name)),
                    load=load or {},
                    cpu_factor=rlimits.cpu_factor(ctl.cfg, name) or 1.0,
                    runtimes=containercheck.runtimes(facts),
                    accepted_at=ctl.passes.accepted.at.get(name))


def host_devices(ctl, name):
    """The GPU devices host *name* offers (declared, else detected)."""
    h = ctl.hosts[name]
    return devices.of_host(h["conf"].gpus, h["facts"])


def _host_resources(cfg, h, hc, facts, name, unit):
    """(resources, maxmem in the unit for limits) of a host."""
    maxmem = units.kb_in_unit(hc.maxmem or facts.get("maxmem"), unit)
    res = {"hname": name, "server": True,
           "type": hc.type or facts.get("type") or "",
           # declared, else matched by lsf.shared ARCHITECTURE strings
           "model": hostarch.host_model(cfg.raw, hc.model, facts),
           "maxslots": h["max_slots"]}
    ncpus = hc.ncpus or facts.get("ncpus")
    if ncpus:
        res["ncpus"] = ncpus
    if maxmem is not None:
        res["maxmem"] = res["mem"] = maxmem
    for index in ("swp", "tmp"):    # what rusage[swp/tmp] reserves from
        total = units.kb_in_unit(facts.get("max" + index), unit)
        if total is not None:
            res["max" + index] = res[index] = total
    # The load indices the agent last reported, so that select[] and
    # order[] see the latest (the jobs' views need no rebuild).
    load = facts.get("load")
    if load:
        res.update((k, load[k]) for k in LOAD_INDICES if k in load)
        # What the host's elims report (lsload -l), under the host's
        # configured resources, which stay as configured.
        res.update(load.get("ext") or ())
    # A ResourceMap [default] value, then the host's own (RESOURCES).
    res.update(jobreq.located(cfg).get(name, {}))
    res.update(jobreq.host_resources(cfg, hc.resources))
    return res, maxmem


def _project(ctl, spec):
    return spec.get("project") or ctl.cfg.projects.cluster_default


def _runtime(ctl, spec, queue):
    """The container runtime the job's profile or queue needs, or None."""
    box = containercheck.container_of(ctl.cfg, spec, queue)
    return box.needs if box is not None else None


def _profile_refused(ctl, job):
    """The pend reason of a job whose profile a reconfiguration took away,
    or whose task count its profile or queue no longer allows (the job
    keeps what it has; bmod -app, -appn or -n moves it on)."""
    spec = job["spec"]
    if spec.get("app") and spec["app"] not in ctl.cfg.apps:
        return text("PEND_APP_GONE", app=spec["app"])
    why = submit.tasks_refusal(ctl.cfg, job["queue"], spec)
    return text("PEND_TASKS", why=why) if why else None


def _project_refused(ctl, user, spec):
    """The pend reason of a job whose project a reconfiguration took
    away from its owner (the job keeps its project; bmod -P moves it)."""
    name = _project(ctl, spec)
    why = ctl.cfg.projects.refusal(
        user, name, lambda u: submit.groups_of(ctl.cfg, u))
    if why is None or (why == "PROJECT_MEMBER" and ctl.is_admin(user)):
        return None
    return text("PEND_" + why, project=name)


def _count_running(ctl, job, hosts, queues, per_task, limits):
    q = queues.get(job["queue"])
    held = rusage_held.need(reserved(ctl, job))
    mem = float(held)
    per_host = slots_per_host(job)
    if limits:
        charge_limits(ctl, job, limits, per_task, held, per_host)
    rusage_held.charge_shared([hosts[n] for n in per_host if n in hosts],
                              held.others, job["nslots"], per_task,
                              job["user"])
    for name, n in per_host.items():
        h = hosts.get(name)
        if h is not None:
            h.used += n
            h.user_used[job["user"]] = h.user_used.get(job["user"], 0) + n
            h.mem_reserved += mem * n if per_task else mem
            rusage_held.charge(h, held.others, n, per_task)
        if q is not None:
            q.host_used[name] = q.host_used.get(name, 0) + n
    if q is not None:
        q.used += job["nslots"]
        q.user_used[job["user"]] = q.user_used.get(job["user"], 0) + \
            job["nslots"]


def reserved(ctl, job):
    """What a running job still holds of each rusage[] resource
    (duration, decay): {name: amount}.  The terms are its claim's (what
    it started with), else, before it has one, its requirement's."""
    terms = claims.terms(ctl, job)
    if terms is None:
        terms = rusage_terms(ctl, job)
    if not terms:
        return {}
    # (A simulated job may start at time 0.)
    start = job["start_time"]
    elapsed = ctl.now - (ctl.now if start is None else start)
    # A suspended job gives back what it holds of a site resource with
    # RELEASE=Y (LSF's default); mem, swp and tmp it keeps.
    released = jobreq.released(ctl.cfg) if job["stat"] in \
        states.SUSPENDED else ()
    return held_now(terms, elapsed, released)


def rusage_terms(ctl, job):
    """The rusage[] of the || alternative the job started with (apply
    keeps its index in the spec): [(name, amount, duration or 0,
    decay)], as the job's claim records them."""
    rr = jobreq.job_resreq(ctl, job)
    if rr is None or rr.rusage is None:
        return []
    alts = rr.rusage.alternatives
    chosen = alts[min(int(job["spec"].get("rusage_alt") or 0),
                      len(alts) - 1)]
    return [(name, amount, group.duration or 0, bool(group.decay))
            for group in chosen.groups for name, amount in group.amounts]


def host_status(ctl, name):
    h = ctl.hosts[name]
    link = ctl.links.get(name)
    if link is None or not link.connected or not h.get("seen"):
        return states.HOST_UNAVAIL
    if h["adm_closed"]:
        return states.HOST_CLOSED_ADM
    if name in ctl.passes.excl_hosts:
        return exclusive.STATUS
    # Out of its dispatch window, or loaded beyond its loadSched.
    closed, _ = windows.host_closed(ctl, h["conf"], h["facts"])
    return closed or states.HOST_OK


def slots_per_host(job):
    """host -> the slots a started job has there."""
    per_host = {}
    for name in (job["exec_hosts"] or "").split():
        per_host[name] = per_host.get(name, 0) + 1
    return per_host


def charge_limits(ctl, job, limits, per_task, held, per_host):
    """What a running job uses of the allocation limits."""
    limits.charge(job["user"], job["queue"], _project(ctl, job["spec"]),
                  per_host, {n: rusage_held.times(held, k) if per_task
                             else held for n, k in per_host.items()}
                  if rusage_held.any_held(held) else None,
                  job["spec"].get("app") or "", per_task,
                  limitconf.limit_groups(ctl.cfg, job["spec"]))


