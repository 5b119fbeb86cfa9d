"""Claims: what is held of hosts' GPUs and counters, as recorded objects.

A job's claim is made when it starts (the devices the pass gave it, the
rusage[] amounts it started with) and released when it leaves the
started states (done, exited, requeued); like the job it survives a
controller restart and the loss of its host (UNKWN holds on).  A
standalone claim is an administrator's (xce claim add): devices of one
host held for one user's jobs, or tokens of a shared resource (licences)
kept for one user's jobs, until it is removed or its --until time
passes.  Both live in ctl.claims and the store's claims table (one row
per claim and host), which `xce claim list` and `bhosts -gpu` read.

The scheduler's snapshot reads the claims alone for what the devices
hold (charge): a job's claim charges its devices, a standalone claim
reserves its devices for its user (xce.scheduler.gpus.reserve).
noted() runs after every event, in the simulator too (a VirtualCluster
keeps a State and a store that drops writes).
"""

from dataclasses import dataclass, field

from xce.errors import text
from xce.model import states
from xce.model.jobid import show
from xce.scheduler import gpus

KIND = "claim"


@dataclass
class State:
    by_id: dict = field(default_factory=dict)   # id -> claim dict
    of_job: dict = field(default_factory=dict)  # (jobid, idx) -> id
    last_id: int = 0            # of the standalone claims, 1, 2, ...


def _claim(claim_id, key, user, parts, created, expires, attempt=None):
    """parts: {host: (instances, counters)}; instances: {"gpus": ids,
    "excl": held alone, "gmem": MB per device}; counters: the rusage[]
    terms [(name, amount, duration or 0, decay)] a job started with."""
    return {"id": claim_id, "job": key, "user": user, "parts": parts,
            "created": created, "expires": expires, "attempt": attempt}


def load(ctl):
    """ctl.claims from the store, then a claim for every started job
    that has none (a store from before claims)."""
    st = ctl.claims
    st.last_id = int(ctl.store.meta("last_claim", 0))
    for (cid, host, jobid, idx, user, inst, counters, created,
         expires) in ctl.store.load_claims():
        key = (jobid, idx) if jobid is not None else None
        c = st.by_id.get(cid)
        if c is None:
            c = st.by_id[cid] = _claim(cid, key, user, {}, created, expires,
                                       (inst or {}).get("attempt"))
        c["parts"][host] = (inst or {}, [tuple(t) for t in counters or ()])
        if key is not None:
            st.of_job[key] = cid
    for job in list(ctl.jobs.values()):
        noted(ctl, job)


def noted(ctl, job):
    """After an event on *job*: its claim made when it started, dropped
    when it no longer holds what it started with."""
    st = ctl.claims
    key = (job["jobid"], job["idx"])
    cid = st.of_job.get(key)
    holds = job["stat"] in states.RUNNING
    if cid is not None and (not holds or
                            st.by_id[cid]["attempt"] != job["attempt"]):
        del st.of_job[key]
        del st.by_id[cid]
        ctl.store.delete_claim(cid)
        cid = None
    if holds and cid is None:
        _job_claim(ctl, job, key)


def terms(ctl, job):
    """The rusage[] terms of *job*'s claim; None when it has no claim
    (xce.controller.dispatch.reserved then reads its requirement)."""
    cid = ctl.claims.of_job.get((job["jobid"], job["idx"]))
    if cid is None:
        return None
    parts = ctl.claims.by_id[cid]["parts"]
    return next(iter(parts.values()))[1] if parts else []


def _job_claim(ctl, job, key):
    alloc = job["spec"].get("gpu_alloc") or {}
    counters = _counters(ctl, job)
    if not alloc.get("hosts") and not counters:
        return
    cid = "job " + show(*key)
    parts = {}
    for name in sorted(set((job["exec_hosts"] or "").split())):
        ids = (alloc.get("hosts") or {}).get(name)
        inst = {"gpus": ids, "excl": bool(alloc.get("excl")),
                "gmem": alloc.get("gmem") or 0.0} if ids else {}
        inst["attempt"] = job["attempt"]
        parts[name] = (inst, counters)
    c = _claim(cid, key, job["user"], parts, ctl.now, None, job["attempt"])
    ctl.claims.by_id[cid] = c
    ctl.claims.of_job[key] = cid
    _save(ctl, c)


def _counters(ctl, job):
    """The rusage[] terms the job started with (the pass works out what
    duration and decay leave of them: dispatch.reserved)."""
    from xce.controller import dispatch
    try:
        found = dispatch.rusage_terms(ctl, job)
    except Exception:       # a job's resreq the scheduler refused to read
        return []
    return [t for t in found if t[1]]


def _save(ctl, c):
    for host, (inst, counters) in c["parts"].items():
        ctl.store.save_claim(c["id"], host, c["job"], c["user"], inst,
                             counters, c["created"], c["expires"])


def charge(ctl, hosts):
    """Charge the claims to the snapshot's host views: a job's devices
    as held, a standalone claim's as reserved for its user."""
    for c in ctl.claims.by_id.values():
        standalone = c["job"] is None
        for name, (inst, counters) in c["parts"].items():
            if standalone and counters:
                _keep_tokens(ctl, hosts, name, c["user"], counters)
            h = hosts.get(name)
            if h is None or not h.gpus or not inst.get("gpus"):
                continue
            if standalone:
                gpus.reserve(h, inst["gpus"], c["user"])
            else:
                gpus.charge(h.gpus, inst["gpus"], inst.get("excl"),
                            inst.get("gmem"))


def _keep_tokens(ctl, hosts, host, user, counters):
    """A standalone claim on shared counters: the instance that *host*
    sees (any instance's one, with no host) keeps the amounts for
    *user*'s jobs; theirs take from it first (rusage_held.Shared)."""
    for name, amount, _, _ in counters:
        counter = _instance_view(ctl, hosts, name, host)
        if counter is not None:
            counter.claimed[user] = counter.claimed.get(user, 0.0) + amount


def _instance_view(ctl, hosts, name, host):
    if not host:
        from xce.controller import jobreq
        host = next((i.hosts[0] for i in jobreq.shared_instances(ctl.cfg)
                     if i.resource == name and i.hosts), None)
    h = hosts.get(host)
    return h.shared.get(name) if h is not None else None


def turn(ctl):
    """Standalone claims whose --until time came are removed (their
    devices free for every job at the next pass)."""
    for c in [c for c in ctl.claims.by_id.values()
              if c["expires"] is not None and c["expires"] <= ctl.now]:
        _remove(ctl, c["id"])


def wait(ctl, timeout):
    """*timeout*, cut to the next standalone claim's end."""
    ends = [c["expires"] for c in ctl.claims.by_id.values()
            if c["expires"] is not None]
    return timeout if not ends else max(0.0, min(timeout,
                                                 min(ends) - ctl.now))


def _remove(ctl, cid):
    remove(ctl, cid)
    ctl.store.event(ctl.now, "CLAIM_REMOVE", claim=cid)


def remove(ctl, cid):
    """Drop standalone claim *cid* (xce sim --verify replays it too)."""
    del ctl.claims.by_id[cid]
    ctl.store.delete_claim(cid)
    ctl.dirty = True


# -- xce claim add / remove ---------------------------------------------

def handle(ctl, user, doc, now):
    if not ctl.is_admin(user):
        return _fail("PERMISSION")
    if doc["op"] == "remove":
        cid = doc.get("claim") or ""
        c = ctl.claims.by_id.get(cid)
        if c is None:
            return _fail("CLAIM_NULL", id=cid)
        if c["job"] is not None:
            return _fail("CLAIM_OF_JOB", id=cid)
        _remove(ctl, cid)
        return {"ok": True, "text": text("CLAIM_REMOVED", id=cid)}
    return _add(ctl, doc, now)


def _add(ctl, doc, now):
    owner, host, ids = doc.get("user"), doc.get("host"), doc.get("gpus")
    until, counters = doc.get("until"), doc.get("counters")
    if not owner or not _known_user(owner):
        return _fail("CLAIM_BAD_USER", user=owner or "")
    if bool(ids) == bool(counters):
        return _fail("CLAIM_GPUS_OR_COUNTERS")
    if until is not None and until <= now:
        return _fail("CLAIM_PAST")
    if counters:
        return _add_counters(ctl, owner, host or "", counters, until, now)
    if not host:
        return _fail("CLAIM_NEEDS_HOST")
    if host not in ctl.hosts:
        return _fail("CLAIM_BAD_HOST", host=host or "")
    if not ids or len(set(ids)) != len(ids):
        return _fail("CLAIM_BAD_GPUS")
    from xce.controller import dispatch
    have = {d["id"] for d in dispatch.host_devices(ctl, host)}
    missing = [i for i in ids if i not in have]
    if missing:
        return _fail("CLAIM_NO_DEVICE", host=host,
                     ids=",".join(map(str, missing)))
    for c in ctl.claims.by_id.values():
        inst = c["parts"].get(host, ({}, {}))[0]
        both = sorted(set(ids) & set(inst.get("gpus") or ()))
        if c["job"] is None and both:
            return _fail("CLAIM_OVERLAP", host=host, id=c["id"],
                         ids=",".join(map(str, both)))
    return _added(ctl, owner, host, ids, None, until, now)


def _add_counters(ctl, owner, host, counters, until, now):
    """Tokens of shared resources kept for *owner*'s jobs: each name a
    shared resource, *host* (or none, with one instance) naming its
    instance, and no more kept there by claims than it has."""
    from xce.controller import jobreq
    if host and host not in ctl.hosts:
        return _fail("CLAIM_BAD_HOST", host=host)
    found = jobreq.shared_instances(ctl.cfg)
    for name, amount in sorted(counters.items()):
        insts = [i for i in found if i.resource == name and
                 (not host or host in i.hosts)]
        if not any(i.resource == name for i in found):
            return _fail("CLAIM_NOT_SHARED", name=name)
        if not insts:
            return _fail("CLAIM_NOT_THERE", name=name, host=host)
        if len(insts) > 1:
            return _fail("CLAIM_WHICH_INSTANCE", name=name)
        total = insts[0].value
        kept = _kept(ctl, name, insts[0])
        if total is not None and kept + amount > total:
            return _fail("CLAIM_TOO_MANY", name=name, amount=f"{amount:g}",
                         kept=f"{kept:g}", total=f"{total:g}")
    return _added(ctl, owner, host, None, counters, until, now)


def _kept(ctl, name, inst):
    """What the standalone claims keep of instance *inst* of *name* (a
    claim names its instance by one of its hosts, or by none when it is
    the only one)."""
    return sum(t[1] for c in ctl.claims.by_id.values() if c["job"] is None
               for where, (_, terms) in c["parts"].items()
               if not where or where in inst.hosts
               for t in terms if t[0] == name)


def _added(ctl, owner, host, ids, counters, until, now):
    ctl.claims.last_id += 1
    ctl.store.set_meta("last_claim", ctl.claims.last_id)
    cid = str(ctl.claims.last_id)
    add(ctl, cid, owner, host, ids, until, counters)
    ctl.store.event(now, "CLAIM_ADD", claim=cid, user=owner, host=host,
                    gpus=sorted(ids or ()), until=until,
                    **({"counters": counters} if counters else {}))
    return {"ok": True, "text": text("CLAIM_ADDED", id=cid)}


def add(ctl, cid, owner, host, ids, until, counters=None):
    """Make standalone claim *cid* (xce sim --verify replays it too):
    devices *ids* of *host*, or {name: amount} of shared *counters*."""
    inst = {"gpus": sorted(ids)} if ids else {}
    terms = [(n, float(v), 0, False) for n, v in sorted(
        (counters or {}).items())]
    c = _claim(cid, None, owner, {host: (inst, terms)}, ctl.now, until)
    ctl.claims.by_id[cid] = c
    _save(ctl, c)
    ctl.dirty = True


def _known_user(name):
    import pwd
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _fail(key, **fields):
    return {"ok": False, "error": text(key, **fields)}
