"""Queue fairshare: FAIRSHARE = USER_SHARES[[user, n] [group, n] [default, n]].

Each job belongs to a share account: with bsub -G (or DEFAULT_USER_GROUP),
the account of that group where the user is in its subtree; else, of the
user's own entry and the groups the user is in (their members share the
account and take turns FCFS), the one that has the highest priority when
the job is dispatched (xce.scheduler.share_order, kept with the job as
it starts), else `default` (an account of the user's own with the
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


_GROUP_PAIR = re.compile(r"\[\s*([^\[\],\s]+)\s*,\s*([^\[\],\s]*)\s*\]")


def parse_group(text):
    """A user group's USER_SHARES in lsb.users, '([alice, 2] [sub, 1])'
    (parentheses optional, '()' or '' for none) -> [('alice', 2.0), ...].
    Shares are whole numbers above 0, as LSF takes them."""
    body = str(text or "").strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    pairs = []
    for name, shares in _GROUP_PAIR.findall(body):
        if not shares.isdigit() or int(shares) <= 0:
            raise FairshareError(f"[{name}, {shares}]: the share count "
                                 "must be a whole number above 0")
        pairs.append((name, float(shares)))
    if _GROUP_PAIR.sub("", body).strip():
        raise FairshareError(f"{text}: expected ([name, shares] ...)")
    return pairs


def group_problems(group_shares, members):
    """What is wrong with lsb.users USER_SHARES: {group: [message, ...]}.
    group_shares: group -> pairs; members: group -> its direct members.
    A share goes to a member of the group (a user, a subgroup, `group@`
    of a subgroup), `default`, `others` or `all`; and no group may divide
    its shares down to itself."""
    out = {}
    for group, pairs in group_shares.items():
        direct = set(members.get(group, ()))
        for name, _ in pairs:
            base = name[:-1] if name.endswith("@") else name
            # (`all` or an egroup's `!`: members xce cannot list.)
            if name in ("default", "others", "all") or base in direct \
                    or "all" in direct or "!" in direct:
                continue
            out.setdefault(group, []).append(
                f"{name} is not a member of user group {group}")
    for group in group_shares:
        cycle = _share_cycle(group, group_shares, (group,))
        if cycle:
            out.setdefault(group, []).append(
                "shares divided in a cycle: " + " -> ".join(cycle))
    return out


def _share_cycle(group, group_shares, trail):
    for name, _ in group_shares.get(group, ()):
        if name == trail[0]:
            return trail + (name,)
        if name in group_shares and name not in trail:
            found = _share_cycle(name, group_shares, trail + (name,))
            if found:
                return found
    return None


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



def history_since(now, hist_hours):
    """From when finished jobs' use still counts: before, it weighs less
    than 1e-10 of itself (ten HIST_HOURS); None: always (HIST_HOURS 0
    does not decay)."""
    return now - 10 * hist_hours * 3600.0 if hist_hours else None


def decay(age_seconds, hist_hours):
    """The weight of use `age_seconds` ago: 0.1 after HIST_HOURS; no decay
    when HIST_HOURS is 0."""
    if not hist_hours or age_seconds <= 0:
        return 1.0
    return 0.1 ** (age_seconds / 3600.0 / hist_hours)


class Policy:
    """The share tree of one queue.  pairs: its USER_SHARES; groups: name
    -> expanded members; group_shares: name -> the USER_SHARES pairs of
    lsb.users that divide a group's shares among its members (hierarchical
    fairshare).  Each user falls in one path of accounts from the top
    level down to a leaf: a user's own account or a group account whose
    members take turns FCFS.  default_group: lsb.params
    DEFAULT_USER_GROUP, where a job whose -G group is not in the tree
    goes when its user can reach it."""

    def __init__(self, pairs, groups=None, factors=Factors(),
                 group_shares=None, members=None, default_group=None):
        self.factors, self.default_group = factors, default_group
        self.top = _Level(pairs, groups or {}, group_shares or {},
                          members or {}, ())
        self._of, self._choices = {}, {}

    def path(self, user, group=None):
        """((account, shares), ...) of a user from the top level down; a
        user in no account has one of its own with no shares.  group
        (bsub -G): the path through that group's account when the user
        is in its subtree, else the user's usual one."""
        found = self._of.get((user, group))
        if found is None:
            steps = self._through(user, group) if group else None
            found = self._of[(user, group)] = tuple(
                steps or self.top.path(user))
        return found

    def _through(self, user, group):
        """The user's path that passes through *group*'s account nearest
        the top (the first listed among those as near), or None.  Nearest
        first, so that each of a user's paths is named by one of its
        groups (share_order's share_group): with /groupA/groupB/u and
        /groupB/u, groupB names /groupB/u and groupA the other."""
        best = None
        for steps in self.choices(user):
            names = [name for name, _ in steps if name != user]
            if group in names and (best is None or
                                   names.index(group) < best[0]):
                best = (names.index(group), steps)
        return best[1] if best else None

    def choices(self, user):
        """Every path (as path() gives them) a job of *user* without -G
        may be charged to: several when the user is in several groups of
        the tree, or has an account of its own and is in a group, at one
        level; the first is path(user)."""
        found = self._choices.get(user)
        if found is None:
            found = self._choices[user] = [tuple(p) for p in
                                           self.top.paths(user)]
        return found

    def reaches(self, user, group):
        """Whether a path of *user* passes through *group*'s account."""
        return bool(group) and self._through(user, group) is not None

    def candidates(self, user, excluded):
        """The paths of choices(user) that pass through none of the
        *excluded* groups' accounts (bsub -G "~group ..."): excluding a
        group whose account is a middle node excludes the paths under it
        only, not the user's other paths to the same groups below it."""
        excluded = frozenset(excluded)
        return [steps for steps in self.choices(user)
                if not excluded.intersection(name for name, _ in steps)
                and self._named(user, steps)]

    def _named(self, user, steps):
        """Whether one of the groups on path *steps* names it back
        (path(user, group) is *steps*; none on it: the user's first
        path), so a job charged there (account_group) is charged there
        and nowhere else."""
        names = [name for name, _ in steps if name != user]
        if not names:
            return self.path(user) == steps
        return any(self.path(user, name) == steps for name in names)

    def account(self, user):
        """(account name, shares) of a user at the top level."""
        return self.path(user)[0]

    def levels(self):
        """(path, [(account, shares), ...]) of every level, top first:
        the accounts configured there (members of a default each have
        theirs, made as they are met, so they are not listed)."""
        return self.top.levels()

    def priority(self, shares, slots, usage):
        f = self.factors
        hist = usage.hist_hours if f.hist_run_time else 0.0
        load = (usage.cpu_hours * f.cpu_time +
                (hist + usage.run_hours) * f.run_time +
                (1 + slots) * f.run_job)
        return shares / load if load > 0 else float(shares)


class _Level:
    """The accounts among which one level's shares are divided."""

    def __init__(self, pairs, groups, group_shares, members, seen):
        self.own = {}           # user -> shares of a personal account
        self.shared = []        # (account, members or None, shares, _Level)
        self.default = self.others = None
        self.listed = []
        named = {n for n, _ in pairs}
        for name, shares in pairs:
            if name == "default":
                self.default = shares
            elif name == "others":
                self.others = shares
            elif name.endswith("@") and name[:-1] in groups:
                for member in groups[name[:-1]]:
                    self.own.setdefault(member, shares)
                self.listed += [(m, shares) for m in groups[name[:-1]]]
            elif name in groups or name == "all":
                self._group(name, shares, groups, group_shares, members,
                            seen)
            else:
                self.own.setdefault(name, shares)
                self.listed.append((name, shares))
        # `default` in a group's own shares: each member not named there,
        # a subgroup as an account of its own.
        for member in members.get(seen[-1], ()) if seen else ():
            if member in groups and member not in named and \
                    self.default is not None:
                self._group(member, self.default, groups, group_shares,
                            members, seen)
        self.listed = list(dict.fromkeys(self.listed))

    def _group(self, name, shares, groups, group_shares, members, seen):
        below = None
        if group_shares.get(name) and name not in seen:
            below = _Level(group_shares[name], groups, group_shares,
                           members, seen + (name,))
        who = None if name == "all" or "all" in groups.get(name, ()) \
            else frozenset(groups[name])
        self.shared.append((name, who, shares, below))
        self.listed.append((name, shares))

    def path(self, user):
        if user in self.own:
            return [(user, self.own[user])]
        for name, who, shares, below in self.shared:
            if who is None or user in who:
                return [(name, shares)] + (below.path(user) if below
                                           else [])
        if self.others is not None:
            return [("others", self.others)]
        return [(user, self.default or 0.0)]

    def paths(self, user):
        """All the user's paths from this level down, path() first: its
        own account, then each group's it is in (LSF considers its job
        when any of them has the highest priority)."""
        out = [[(user, self.own[user])]] if user in self.own else []
        for name, who, shares, below in self.shared:
            if who is None or user in who:
                head = [(name, shares)]
                out += [head + rest for rest in below.paths(user)] \
                    if below else [head]
        return out or [self.path(user)]

    def levels(self, path=()):
        yield path, self.listed
        for name, _, _, below in self.shared:
            if below is not None:
                yield from below.levels(path + (name,))


def account_group(spec):
    """The group whose account a started job is charged to: the one the
    scheduler chose for it (spec share_group, xce.scheduler.share_order),
    else its bsub -G (or DEFAULT_USER_GROUP) group; None: its user's
    first path."""
    spec = spec or {}
    return spec.get("share_group") or spec.get("user_group") or None


def charged_path(policy, user, spec):
    """The account names a started job is charged to, from the top of its
    queue's share tree down to its user (Policy.path through its
    account_group): lsb.acct's chargedSAAP, /top/sub/user."""
    names = [name for name, _ in policy.path(user, account_group(spec))]
    if not names or names[-1] != user:
        names.append(user)
    return names


def add(a, b):
    """The sum of two uses."""
    return Usage(a.run_hours + b.run_hours, a.hist_hours + b.hist_hours,
                 a.cpu_hours + b.cpu_hours)


def tree_config(user_groups):
    """From the user_groups section (name -> {members, USER_SHARES}) to
    (group_shares, direct members, problems): the groups dividing their
    shares, each group's own members, and {group: [message, ...]} for
    shares xce cannot take (such a group is left undivided: its members
    go FCFS)."""
    shares, members, problems = {}, {}, {}
    for name, props in (user_groups or {}).items():
        props = props if isinstance(props, dict) else {"members": props}
        words = props.get("members") or []
        members[str(name)] = (words.split() if isinstance(words, str)
                              else [str(w) for w in words])
        text = props.get("USER_SHARES")
        if text in (None, ""):
            continue
        try:
            pairs = parse_group(text)
        except FairshareError as e:
            problems.setdefault(str(name), []).append(str(e))
            continue
        if pairs:
            shares[str(name)] = pairs
    for name, found in group_problems(shares, members).items():
        problems.setdefault(name, []).extend(found)
        shares.pop(name, None)
    return shares, members, problems
