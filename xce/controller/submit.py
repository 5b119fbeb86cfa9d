"""The submit handler: check a job against the queues, then accept it."""

import pwd

from xce.errors import text
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
    for key, attr in (("runlimit", "runlimit"), ("memlimit", "memlimit")):
        pair = getattr(q, attr)
        if pair is None:
            continue
        value = spec.get(key)
        if value is None:
            spec[key] = pair[0]
        elif value > pair[1]:
            raise Rejected(text("HARD_LIMIT", key.upper()))


def check_slots(ctl, q, spec):
    lo, _ = spec["nslots"]
    if lo < 1:
        raise Rejected(text("TOO_FEW_PROCS"))
    usable = [h for name, h in ctl.hosts.items()
              if q.hosts is None or name in q.hosts]
    capacity = sum(h["max_slots"] for h in usable)
    if capacity and lo > capacity:
        raise Rejected(text("TOO_MANY_PROCS"))


def new_job(ctl, req_uid, spec, now):
    """Validate a submit request and return the new job's row (not yet applied)."""
    user, gid = user_of(req_uid)
    q, explicit = choose_queue(ctl, spec, user)
    check_limits(q, spec)
    check_slots(ctl, q, spec)
    jobid = ctl.next_jobid()
    spec["uid"], spec["gid"] = req_uid, gid
    job = dict.fromkeys(JOB_COLUMNS)
    job.update({
        "jobid": jobid, "idx": 0, "stat": None, "user": user, "uid": req_uid,
        "queue": q.name, "name": spec.get("name") or spec["command"],
        "command": spec["command"], "from_host": spec.get("from_host", ""),
        "nslots": spec["nslots"][0], "attempt": 0,
        "outfile": spec.get("stdout"), "errfile": spec.get("stderr"),
        "seq": jobid, "spec": spec,
    })
    return job, explicit
