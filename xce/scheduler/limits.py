"""Allocation limits over consumers: lsb.resources Limit sections and the
lsb.users MAX_JOBS column, as one pure mechanism.

A limit names consumer kinds (users, queues, projects, hosts, application
profiles), each as a
set of names with exclusions, counted either as a sum over the set or for
each member (the PER_ forms), and caps SLOTS, JOBS, MEM, SWP, TMP and
RESOURCE (rusage[mem], [swp], [tmp] and of a site resource: the amounts
riding on a rusage_held.Need).
A kind the limit leaves out means every consumer of that kind, summed.

Usage is kept per counter: (limit index, user key, queue key, project
key, host key, application key), where a key is the consumer's own name for a PER_ kind and
"*" for a summed one.  Limits without hosts are checked once per job (job
reasons); limits with hosts are checked per host (host reasons).

Projects are a tree (xce.model.projects): a project consumer matches the
projects it names and every project below them, so a quota on /physics
counts the jobs of /physics/cms/run3 too (rolled up).  For a PER_PROJECT
limit naming projects, each named project (with its subtree) is counted
apart.

A job's user-group choice (ugchoice.GroupChoice, ENFORCE_ONE_UG_LIMITS)
leaves out the limits placed on groups it is not associated with: they
neither hold the job nor count it.
"""

import math
from dataclasses import dataclass, field

from xce.model.projects import ancestors
from xce.scheduler.rusage_held import others
from xce.scheduler.ugchoice import under

# LSF 10.1 texts (lsbatch.h pending reasons PEND_GENERAL_LIMIT_*).
_RESOURCE_TEXT = {
    "user": "Resource ({}) limit defined on user or user group has been "
            "reached",
    "queue": "Resource ({}) limit defined on queue has been reached",
    "project": "Resource ({}) limit defined on project has been reached",
    "app": "Resource ({}) limit defined on application profile has been "
           "reached",
    "cluster": "Resource ({}) limit defined cluster-wide has been reached",
    "host": "Resource ({}) limit defined on host and/or host group has been "
            "reached",
}
_JOBS_TEXT = {
    "user": "JOBS limit defined for the user or user group has been reached",
    "queue": "JOBS limit defined for the queue has been reached",
    "project": "JOBS limit defined for the project has been reached",
    "app": "JOBS limit defined for the application profile has been "
           "reached",
    "cluster": "JOBS limit defined cluster-wide has been reached",
    "host": "JOBS limit defined on host or host group has been reached",
}
R_USER_LIMIT = "The user has reached his/her job slot limit"
R_UGROUP_LIMIT = "One of the user's groups has reached its job slot limit"

_ALL = "*"


@dataclass(frozen=True)
class Consumer:
    """One consumer kind of a limit: who matches, and summed or each."""
    members: frozenset = None       # None: all
    excluded: frozenset = frozenset()
    per: bool = False

    tree: bool = False              # projects: a name covers its subtree
    # users: the user groups named, ((name, expanded members), ...), and
    # the users named themselves (ugchoice.under).
    groups: tuple = field(default=(), compare=False)
    direct: frozenset = field(default=frozenset(), compare=False)

    def matches(self, name):
        if not self.tree:
            return name not in self.excluded and (
                self.members is None or name in self.members)
        up = ancestors(name)
        return not self.excluded.intersection(up) and (
            self.members is None or bool(self.members.intersection(up)))

    def key(self, name):
        return self.owner(name) if self.per else _ALL

    def owner(self, name):
        """The named consumer that *name* is counted under: itself, or
        for a project tree the nearest project above it the limit names."""
        if self.tree and self.members is not None:
            for up in ancestors(name):
                if up in self.members:
                    return up
        return name


@dataclass
class Limit:
    name: str = ""
    slots: int = None
    jobs: int = None
    mem: float = None               # in LSF_UNIT_FOR_LIMITS
    swp: float = None               # in LSF_UNIT_FOR_LIMITS, as rusage[]
    tmp: float = None
    resources: dict = None          # RESOURCE: {name: count}
    shared: frozenset = frozenset()  # of those, reserved once per job
    # SLOTS_PER_PROCESSOR (with PER_HOST): slots per CPU of each host,
    # rounded up as LSF does.
    slots_per_cpu: float = None
    users: Consumer = None          # None: the kind is not named
    queues: Consumer = None
    projects: Consumer = None
    hosts: Consumer = None
    # APPS / PER_APP: a job without an application profile is no consumer.
    apps: Consumer = None
    slot_reason: str = None         # a fixed text (lsb.users MAX_JOBS)

    def kind(self):
        """Which consumer a job reason names (LSF reports one)."""
        if self.hosts is not None:
            return "host"
        for kind in ("users", "queues", "projects", "apps"):
            if getattr(self, kind) is not None:
                return kind[:-1]
        return "cluster"

    def applies(self, user, queue, project, app="", ug=None):
        if self.apps is not None and not app:
            return False
        if self.users is not None and not under(
                self.users.groups, self.users.direct, user, ug):
            return False
        return all(c is None or c.matches(v) for c, v in (
            (self.users, user), (self.queues, queue),
            (self.projects, project), (self.apps, app)))

    def counter(self, index, user, queue, project, host=_ALL, app=""):
        return (index,
                self.users.key(user) if self.users else _ALL,
                self.queues.key(queue) if self.queues else _ALL,
                self.projects.key(project) if self.projects else _ALL,
                self.hosts.key(host) if self.hosts else _ALL,
                self.apps.key(app) if self.apps else _ALL)

    def reason(self, what):
        if what == "slot" and self.slot_reason:
            return self.slot_reason
        if what == "jobs":
            return _JOBS_TEXT[self.kind()]
        return _RESOURCE_TEXT[self.kind()].format(what)


class Limits:
    """The limits of a cluster and what running jobs use of them.

    The controller charges every running job once per snapshot; the
    scheduler works on a copy and charges what it places."""

    def __init__(self, limits=()):
        self.limits = list(limits)
        # counter -> [slots, jobs, mem, swp, tmp, {RESOURCE name: amount}]
        self.used = {}
        self._split = {}    # (user, queue, project, app, ug) -> indices

    def __bool__(self):
        return bool(self.limits)

    def copy(self):
        out = Limits.__new__(Limits)
        out.limits = self.limits
        out.used = {k: v[:5] + [dict(v[5])] for k, v in self.used.items()}
        out._split = self._split    # depends on the limits only
        return out

    def split(self, user, queue, project, app="", ug=None):
        """Indices of the limits that apply: (job-wide, per-host); *ug*:
        the job's ugchoice.GroupChoice, or None."""
        key = (user, queue, project, app, ug)
        found = self._split.get(key)
        if found is None:
            job, host = [], []
            for i, lim in enumerate(self.limits):
                if lim.applies(user, queue, project, app, ug):
                    (host if lim.hosts is not None else job).append(i)
            found = self._split[key] = (tuple(job), tuple(host))
        return found

    def charge(self, user, queue, project, per_host, mem=None, app="",
               per_task=False, ug=None):
        """Count one job: per_host {host: slots}, mem {host: reserved} (a
        rusage_held.Need carries the swp, tmp and site resources reserved
        there too; *per_task*: those are per slot, already times the
        host's slots)."""
        mem = mem or {}
        job_l, host_l = self.split(user, queue, project, app, ug)
        for i in job_l:
            lim = self.limits[i]
            c = lim.counter(i, user, queue, project, app=app)
            self._add(c, sum(per_host.values()), 1, *mem.values())
            for name in () if per_task else \
                    lim.shared.intersection(self.used[c][5]):
                # A shared resource is reserved once, whatever the hosts
                # (per task: once per slot, the sum over the hosts).
                self.used[c][5][name] -= sum(
                    others(m).get(name, 0) for m in mem.values()) - max(
                    (others(m).get(name, 0) for m in mem.values()),
                    default=0)
        for i in host_l:
            lim, seen = self.limits[i], set()
            for host, n in per_host.items():
                if lim.hosts.matches(host):
                    c = lim.counter(i, user, queue, project, host, app)
                    # JOBS counts a job once per counter, not per host.
                    self._add(c, n, 0 if c in seen else 1,
                              mem.get(host, 0))
                    seen.add(c)

    def _add(self, counter, slots, jobs, *amounts):
        used = self.used.get(counter)
        if used is None:
            used = self.used[counter] = [0, 0, 0.0, 0.0, 0.0, {}]
        used[0] += slots
        used[1] += jobs
        for amount in amounts:
            held = others(amount)
            used[2] += amount
            used[3] += held.get("swp", 0)
            used[4] += held.get("tmp", 0)
            for name, n in held.items():
                if name not in ("swp", "tmp"):
                    used[5][name] = used[5].get(name, 0) + n

    def job_room(self, user, queue, project, nslots, mem=0, app="",
                 ug=None):
        """(slots the job-wide limits still allow, None: no cap; the reason
        when the job cannot start under them, else None)."""
        return self._room(self.split(user, queue, project, app, ug)[0],
                          (user, queue, project), _ALL, nslots, mem, app)

    def host_room(self, user, queue, project, host, mem=0, app="",
                  ncpus=None, ug=None):
        """Like job_room for one host (of *ncpus* CPUs), under the
        per-host limits."""
        return self._room(self.split(user, queue, project, app, ug)[1],
                          (user, queue, project), host, 1, mem, app, ncpus)

    def never_met(self, user, queue, project, nslots, mem=0, app="",
                  ug=None):
        """A project quota the job alone is above, so that it could never
        start: (project, what, limit, asked), else None.  Only limits
        that name projects refuse a job at submit; the others let it
        pend, as LSF does."""
        for i in self.split(user, queue, project, app, ug)[0]:
            lim = self.limits[i]
            if lim.projects is None or lim.slot_reason:
                continue
            owner = lim.projects.owner(project)
            if lim.slots is not None and nslots > lim.slots:
                return owner, "slots", lim.slots, nslots
            if lim.jobs == 0:
                return owner, "jobs", 0, 1
            if mem and lim.mem is not None and mem > lim.mem:
                return owner, "mem", _amount(lim.mem), _amount(mem)
        return None

    def _room(self, indices, who, host, nslots, mem, app, ncpus=None):
        room, why = None, None
        for i in indices:
            lim = self.limits[i]
            if host != _ALL and not lim.hosts.matches(host):
                continue
            used = self.used.get(
                lim.counter(i, *who, host, app)) or (0, 0, 0.0, 0.0, 0.0, {})
            slots = lim.slots
            if lim.slots_per_cpu is not None and host != _ALL:
                per_cpu = math.ceil(lim.slots_per_cpu * (ncpus or 1))
                slots = per_cpu if slots is None else min(slots, per_cpu)
            if slots is not None:
                left = slots - used[0]
                room = left if room is None else min(room, left)
                if left < nslots and why is None:
                    why = lim.reason("slot")
            if why is None and lim.jobs is not None and used[1] >= lim.jobs:
                why, room = lim.reason("jobs"), 0
            if why is None and mem and lim.mem is not None and \
                    used[2] + mem > lim.mem:
                why, room = lim.reason("mem"), 0
            held = others(mem)
            for what, at in (("swp", 3), ("tmp", 4)):
                cap = getattr(lim, what)
                if why is None and held.get(what) and cap is not None and \
                        used[at] + held[what] > cap:
                    why, room = lim.reason(what), 0
            for what, cap in (lim.resources or {}).items():
                if why is None and held.get(what) and \
                        used[5].get(what, 0) + held[what] > cap:
                    why, room = lim.reason(what), 0
        return room, why


def _amount(value):
    return int(value) if float(value).is_integer() else round(value, 1)
