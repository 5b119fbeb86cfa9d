"""Queue fairshare: FAIRSHARE = USER_SHARES[[user, n] [group, n] [default, n]].

Each pending job belongs to a share account: the user's own entry, else
the first listed group the user is in (its members share the account and
take turns FCFS), else `default` (an account of the user's own with the
default shares).  `group@` gives each member of the group its own account.
A user in no account has no shares and goes last.

LSF's dynamic priority of an account (lsb.params defaults):

    shares / (cpu_time * CPU_TIME_FACTOR
               + (historical_run_time + run_time) * RUN_TIME_FACTOR
               + (1 + job_slots) * RUN_JOB_FACTOR)

with times in hours; historical run time (finished jobs, decayed so that
an hour counts 0.1 hour after HIST_HOURS) only with ENABLE_HIST_RUN_TIME.
The account with the highest priority goes next; its priority drops as
its jobs start within the pass (xce.scheduler.share_order).  Pure: usage
comes in from the caller.  Commands (bqueues -l, bhpart-style shares),
the configuration check and the scheduler read the same rules here.
"""

import re
from collections import namedtuple
from dataclasses import dataclass

from xce.model import states

# Hours of use by one user in one queue.
Usage = namedtuple("Usage", "run_hours hist_hours cpu_hours")
NO_USAGE = Usage(0.0, 0.0, 0.0)

_PAIR = re.compile(r"\[\s*([^\[\],\s]+)\s*,\s*([0-9]+(?:\.[0-9]*)?)\s*\]")
_OUTER = re.compile(r"USER_SHARES\s*\[(.*)\]\s*", re.IGNORECASE | re.DOTALL)


class FairshareError(ValueError):
    """A FAIRSHARE value xce cannot read."""


def parse(text):
    """'USER_SHARES[[alice, 2] [default, 1]]' -> [('alice', 2.0), ...]."""
    found = _OUTER.fullmatch(str(text).strip())
    if found is None:
        raise FairshareError(f"{text}: expected USER_SHARES[[name, shares] "
                             "...]")
    body = found.group(1)
    pairs = _PAIR.findall(body)
    if not pairs or _PAIR.sub("", body).strip():
        raise FairshareError(f"{text}: each entry must be [name, shares]")
    return [(name, float(shares)) for name, shares in pairs]


@dataclass(frozen=True)
class Factors:
    """lsb.params weights, LSF's defaults."""
    run_job: float = 3.0
    run_time: float = 0.7
    cpu_time: float = 0.7
    hist_hours: float = 5.0
    hist_run_time: bool = False     # ENABLE_HIST_RUN_TIME


def factors_from(params, queue_raw=None):
    """Fairshare weights: the queue's own, else lsb.params, else LSF's."""
    def get(key, default, convert=float):
        for source in (queue_raw or {}, params):
            if source.get(key) not in (None, ""):
                try:
                    return convert(source[key])
                except (TypeError, ValueError):
                    pass
        return default
    d = Factors()
    return Factors(
        run_job=get("RUN_JOB_FACTOR", d.run_job),
        run_time=get("RUN_TIME_FACTOR", d.run_time),
        cpu_time=get("CPU_TIME_FACTOR", d.cpu_time),
        hist_hours=get("HIST_HOURS", d.hist_hours),
        hist_run_time=get("ENABLE_HIST_RUN_TIME", False,
                          lambda v: str(v).upper() in ("Y", "YES")))


# Queue keys that set its own weights (the rest come from lsb.params).
FACTOR_KEYS = ("RUN_JOB_FACTOR", "RUN_TIME_FACTOR", "CPU_TIME_FACTOR",
               "HIST_HOURS", "ENABLE_HIST_RUN_TIME")


def job_usage(stat, start, end, slots, cpu_seconds, now, hist_hours):
    """The hours one job charges to its user's share of its queue, or None:
    run time of a running job as is; a finished job's run time (as
    historical) and any job's CPU time decayed by HIST_HOURS; times slots."""
    if start is None:
        return None
    slots = slots or 1
    run = hist = 0.0
    if stat in states.RUNNING:
        run = max(0.0, now - start) / 3600.0 * slots
        weight = 1.0
    elif stat in states.FINISHED and end:
        weight = decay(now - end, hist_hours)
        hist = max(0.0, end - start) / 3600.0 * slots * weight
    else:
        return None
    return Usage(run, hist, (cpu_seconds or 0.0) / 3600.0 * weight)



def decay(age_seconds, hist_hours):
    """The weight of use `age_seconds` ago: 0.1 after HIST_HOURS; no decay
    when HIST_HOURS is 0."""
    if not hist_hours or age_seconds <= 0:
        return 1.0
    return 0.1 ** (age_seconds / 3600.0 / hist_hours)


class Policy:
    """Share accounts of one queue.  groups: name -> expanded members."""

    def __init__(self, pairs, groups=None, factors=Factors()):
        groups = groups or {}
        self.factors = factors
        self.own = {}           # user -> shares of a personal account
        self.shared = []        # (account, members, shares) in order
        self.default = None
        for name, shares in pairs:
            if name == "default":
                self.default = shares
            elif name.endswith("@") and name[:-1] in groups:
                for member in groups[name[:-1]]:
                    self.own.setdefault(member, shares)
            elif name in groups or name == "all":
                members = None if name == "all" else frozenset(groups[name])
                self.shared.append((name, members, shares))
            else:
                self.own.setdefault(name, shares)
        self._of = {}

    def account(self, user):
        """(account name, shares) of a user; shares 0 when in none."""
        found = self._of.get(user)
        if found is None:
            found = self._find(user)
            self._of[user] = found
        return found

    def _find(self, user):
        if user in self.own:
            return user, self.own[user]
        for name, members, shares in self.shared:
            if members is None or user in members:
                return name, shares
        return user, self.default or 0.0

    def priority(self, shares, slots, usage):
        f = self.factors
        hist = usage.hist_hours if f.hist_run_time else 0.0
        load = (usage.cpu_hours * f.cpu_time +
                (hist + usage.run_hours) * f.run_time +
                (1 + slots) * f.run_job)
        return shares / load if load > 0 else float(shares)


def add(a, b):
    """The sum of two uses."""
    return Usage(a.run_hours + b.run_hours, a.hist_hours + b.hist_hours,
                 a.cpu_hours + b.cpu_hours)
