"""Pending job thresholds at submission: MAX_PEND_JOBS and MAX_PEND_SLOTS.

LSF 10.1 refuses a submission that would take a user or a user group past
its pending threshold: lsb.params (each user), lsb.users rows of a user,
of ``default`` (each user without a row of their own), of a group (its
members' pending jobs together) and of ``group@`` (each member).  Pending
means PEND or PSUSP; an array counts each element, slots are the job's
minimum slots.  ``refusal`` is pure over the controller's unfinished jobs,
so the simulator, which submits through the same admit(), applies it too.
"""

from xce.config.lsf import hostnames
from xce.controller.limitconf import named_users, user_rows
from xce.errors import text
from xce.model import arrayspec, states

KEYS = (("MAX_PEND_JOBS", "jobs"), ("MAX_PEND_SLOTS", "slots"))


def _amount(value):
    try:
        return int(str(value).strip())  # load() checked it (ranges)
    except (TypeError, ValueError):
        return None                     # absent, "-": no threshold


def _thresholds(cfg, user):
    """(who, members or None for the user alone, {jobs/slots: limit})."""
    found = []
    params = {what: _amount(cfg.params.get(key)) for key, what in KEYS}
    found.append((f"User <{user}>", None, params))
    users = user_rows(cfg)
    own = users.get(user)
    if own is None and user not in cfg.user_groups \
            and user not in named_users(cfg):
        own = users.get("default")
    rows = [(f"User <{user}>", None, own)]
    for name, row in users.items():
        name = str(name)
        group = name[:-1] if name.endswith("@") else name
        if group not in cfg.user_groups or group == user:
            continue
        members = hostnames.expand([group], cfg.user_groups)
        if user not in members:
            continue
        rows.append((f"User <{user}>", None, row) if name.endswith("@")
                    else (f"Group <{group}>", frozenset(members), row))
    for who, members, row in rows:
        if isinstance(row, dict):
            found.append((who, members, {what: _amount(row.get(key))
                                         for key, what in KEYS}))
    return [(w, m, lim) for w, m, lim in found
            if any(v is not None for v in lim.values())]


def _pending(jobs, user, members):
    """(jobs, slots) pending of *user*, or of every one of *members*."""
    count = slots = 0
    for job in jobs:
        if job["stat"] in states.PENDING and (
                job["user"] in members if members else job["user"] == user):
            count += 1
            slots += job.get("nslots") or 1
    return count, slots


def new_count(spec):
    """How many jobs a submission adds: one, or its array's elements."""
    name = spec.get("name") or ""
    try:
        return max(1, len(arrayspec.parse_job_name(
            name, max_size=2 ** 31).indices))
    except arrayspec.ArraySpecError:
        return 1        # refused elsewhere


def refusal(cfg, jobs, user, spec):
    """LSF's message when *spec* would pass a pending threshold, or None.
    *jobs* are the unfinished job rows."""
    limits = _thresholds(cfg, user)
    if not limits:
        return None
    adding = new_count(spec)
    adding_slots = adding * (spec.get("nslots") or [1])[0]
    for who, members, limit in limits:
        count, slots = _pending(jobs, user, members)
        over_jobs = limit["jobs"] is not None and \
            count + adding > limit["jobs"]
        over_slots = limit["slots"] is not None and \
            slots + adding_slots > limit["slots"]
        if over_jobs or over_slots:
            return text("PEND_THRESHOLD", who)
    return None
