"""The pending jobs of a fairshare queue in dispatch order, within one
pass.  The queue's share tree (xce.model.fairshare.Policy) is walked from
the top: at each level the account with the highest dynamic priority,
worked out from the use of its whole subtree, is taken, down to a user's
own account or a group account whose members go FCFS.  Priorities drop
as jobs start within the pass.

A job whose user can be charged to several accounts (without bsub -G,
the user in several groups of the tree, or with a share of its own and
in a group) waits in each of them: it goes when one of them wins the
walk, and is charged to that one (LSF: the job is considered whenever
any account of its user is the highest priority one).  So one user's
jobs in one pass can go to different accounts as their priorities
move."""

import heapq
from collections import deque

from xce.model.fairshare import NO_USAGE, add


class Order:
    """The pending jobs of a fairshare queue in dispatch order.

    Iterating yields one job at a time; after each, the slots its user
    holds in the queue (user_used, kept current by the scheduler) tell
    whether it started, and the priorities on its path are worked out
    again.  Accounts are keyed by their path from the top, a tuple of
    names.  A job's account is, with bsub -G (the job's user_group), the
    one through that group (Policy.path); with a -G group outside the
    tree, DEFAULT_USER_GROUP's when its user reaches it; else it waits
    in every account its user can reach (Policy.choices) and is charged
    to the one it comes out of: that account's group is set on the job
    as share_group when it is yielded, for the caller to keep when it
    starts (before, share_group holds the account ranking first when
    the pass begins, for a job placed out of turn, as a gang member).
    usage and started (the slots of the queue's started jobs) are keyed
    by user or by (user, group) (fairshare.account_group); without
    started, user_used gives the slots.
    """

    def __init__(self, policy, usage, user_used, jobs, started=None):
        self.policy, self.user_used = policy, user_used
        self.jobs, self.shares, self.pending, self._paths = {}, {}, {}, {}
        self.slots, self.usage = {}, {}
        self._first, self._groups = {}, {}      # caches of _best, _group_of
        # id(job) -> the paths of a job waiting in several accounts.
        self.several = {}
        self.none = []          # jobs whose -G "~group" leaves no account
        for key, n in (user_used if started is None else started).items():
            for node in self._nodes(key):
                self.slots[node] = self.slots.get(node, 0) + n
        for key, u in (usage or {}).items():
            for node in self._nodes(key):
                self.usage[node] = add(self.usage.get(node, NO_USAGE), u)
        self.count = 0
        for job in jobs:                    # already FCFS
            paths = self._accounts(job)
            self.count += bool(paths)
            for path in paths:
                waiting = self.jobs.get(path)
                if waiting is None:
                    waiting = self.jobs[path] = deque()
                waiting.append(job)
        for path, waiting in self.jobs.items():
            for depth in range(len(path) + 1):
                self.pending[path[:depth]] = \
                    self.pending.get(path[:depth], 0) + len(waiting)
                self.slots.setdefault(path[:depth], 0)

    def _accounts(self, job):
        """The account paths *job* waits in; sets its share_group."""
        policy, user = self.policy, job.user
        group = getattr(job, "user_group", None)
        job.share_group, job.share_none = None, False
        excluded = getattr(job, "excluded_groups", None)
        if excluded:
            return self._candidates(job, excluded)
        if policy.reaches(user, group):
            return (self._path(user, group),)
        default = policy.default_group
        if group and default and policy.reaches(user, default):
            # -G to a group outside the tree: DEFAULT_USER_GROUP's
            # account (kept with the job when it starts).
            job.share_group = default
            return (self._path(user, default),)
        paths = self._choices(user)
        if len(paths) > 1:
            self.several[id(job)] = paths
            job.share_group = self._best(user, paths)
        return paths

    def _candidates(self, job, excluded):
        """The account paths a job submitted with bsub -G "~group ..."
        waits in (Policy.candidates): its user's that pass through no
        excluded group; none left, it waits in none and is yielded after
        the walk with share_none set."""
        user = job.user
        key = (user, tuple(sorted(excluded)))
        paths = self._paths.get(key)
        if paths is None:
            paths = self._paths[key] = tuple(dict.fromkeys(
                self._record(steps) for steps in
                self.policy.candidates(user, excluded)))
        if not paths:
            job.share_none = True
            self.none.append(job)
        elif len(paths) > 1:
            self.several[id(job)] = paths
            job.share_group = self._best(user, paths)
        else:
            job.share_group = self._group_of(user, paths[0])
        return paths

    def _best(self, user, paths):
        """The group of the path among *paths* (the user's) whose
        accounts rank first, level by level, when the pass begins."""
        found = self._first.get((user, paths), False)
        if found is False:
            best = min(paths, key=lambda path: [
                self._key(path[:d]) for d in range(1, len(path) + 1)])
            found = self._first[(user, paths)] = self._group_of(user, best)
        return found

    def _choices(self, user):
        found = self._paths.get((user, ()))
        if found is None:
            found = self._paths[(user, ())] = tuple(dict.fromkeys(
                self._record(steps) for steps in self.policy.choices(user)))
        return found

    def _group_of(self, user, path):
        """The group that names account *path* of *user* (share_group:
        Policy.path(user, group) gives it back), deepest first; None for
        the user's own account at the top."""
        found = self._groups.get((user, path), False)
        if found is False:
            names = [n for n in reversed(path) if n != user]
            found = next((n for n in names if self._path(user, n) == path),
                         names[0] if names else None)
            self._groups[(user, path)] = found
        return found

    def _path(self, user, group=None):
        found = self._paths.get((user, group))
        if found is None:
            found = self._paths[(user, group)] = self._record(
                self.policy.path(user, group))
        return found

    def _record(self, steps):
        path = tuple(n for n, _ in steps)
        for depth, (_, shares) in enumerate(steps, 1):
            self.shares[path[:depth]] = shares
        return path

    def _nodes(self, key):
        """The accounts the use of a user, or of a (user, group) (the
        job's fairshare.account_group), is charged to."""
        path = self._path(*key) if isinstance(key, tuple) else \
            self._path(key)
        return [path[:d] for d in range(1, len(path) + 1)]

    def _key(self, node):
        prio = self.policy.priority(self.shares[node],
                                    self.slots.get(node, 0),
                                    self.usage.get(node, NO_USAGE))
        return (-prio, node[-1])

    def __iter__(self):
        heaps, version = {}, dict.fromkeys(self.pending, 0)
        for node in self.pending:
            if node:
                heaps.setdefault(node[:-1], []).append(
                    self._key(node) + (node, 0))
        for heap in heaps.values():
            heapq.heapify(heap)
        jobs, pending, slots, several = (self.jobs, self.pending,
                                         self.slots, self.several)
        used, key, pop, push = (self.user_used, self._key, heapq.heappop,
                                heapq.heappush)
        out = set()             # id() of jobs of several accounts taken
        left = self.count
        while left:
            node = ()
            while node not in jobs:         # the best child, level by level
                heap = heaps[node]
                while heap[0][3] != version[heap[0][2]]:
                    pop(heap)               # an account's older key
                node = heap[0][2]
            waiting = jobs[node]
            job = waiting.popleft()
            while id(job) in out:           # gone from another account
                job = waiting.popleft()
            paths = several.get(id(job))
            if paths is not None:
                out.add(id(job))
                job.share_group = self._group_of(job.user, node)
            before = used.get(job.user, 0)
            yield job
            started = used.get(job.user, 0) - before
            left -= 1
            for depth in range(len(node), 0, -1):
                up = node[:depth]
                pending[up] -= 1
                slots[up] += started
                version[up] += 1
                if pending[up]:
                    push(heaps[up[:-1]], key(up) + (up, version[up]))
            for other in paths or ():
                if other != node:
                    self._withdraw(other, version)
        yield from self.none

    def _withdraw(self, path, version):
        """A job waiting in account *path* too went from another: one job
        less waiting in each account of *path* (it was counted once for
        each of its paths); an account with none left drops out of the
        walk (its heap entry goes stale)."""
        pending = self.pending
        for depth in range(1, len(path) + 1):
            up = path[:depth]
            pending[up] -= 1
            if not pending[up]:
                version[up] += 1

    def priorities(self):
        """{account path: dynamic priority} now (for display and tests)."""
        return {node: -self._key(node)[0] for node in self.pending if node}
