"""The pending jobs of a fairshare queue in dispatch order, within one
pass.  The queue's share tree (xce.model.fairshare.Policy) is walked from
the top: at each level the account with the highest dynamic priority,
worked out from the use of its whole subtree, is taken, down to a user's
own account or a group account whose members go FCFS.  Priorities drop
as jobs start within the pass."""

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
    one through that group (Policy.path); else, of the accounts its user
    can reach (Policy.choices), the one ranking first as the walk goes
    when the pass begins (LSF: the highest priority account the user can
    access), set on the job as share_group for the caller to keep when
    it starts.  usage and started (the slots of the queue's started
    jobs) are keyed by user or by (user, group) (fairshare.account_group);
    without started, user_used gives the slots.
    """

    def __init__(self, policy, usage, user_used, jobs, started=None):
        self.policy, self.user_used = policy, user_used
        self.jobs, self.shares, self.pending, self._paths = {}, {}, {}, {}
        self.slots, self.usage = {}, {}
        for key, n in (user_used if started is None else started).items():
            for node in self._nodes(key):
                self.slots[node] = self.slots.get(node, 0) + n
        for key, u in (usage or {}).items():
            for node in self._nodes(key):
                self.usage[node] = add(self.usage.get(node, NO_USAGE), u)
        chosen, default = {}, policy.default_group
        for job in jobs:                    # already FCFS
            group = getattr(job, "user_group", None)
            share = None
            if not policy.reaches(job.user, group):
                # -G to a group outside the tree: DEFAULT_USER_GROUP's
                # account; without either, the account with the highest
                # priority the user can reach.  Kept with the job when it
                # starts (share_group).
                if group and default and policy.reaches(job.user, default):
                    share = default
                else:
                    if job.user not in chosen:
                        chosen[job.user] = self._best(job.user)
                    share = chosen[job.user]
                group = share
            job.share_group = share
            path = self._path(job.user, group)
            waiting = self.jobs.get(path)
            if waiting is None:
                waiting = self.jobs[path] = deque()
            waiting.append(job)
        for path, waiting in self.jobs.items():
            for depth in range(len(path) + 1):
                self.pending[path[:depth]] = \
                    self.pending.get(path[:depth], 0) + len(waiting)
                self.slots.setdefault(path[:depth], 0)

    def _best(self, user):
        """The group of the user's path whose accounts rank first, level
        by level, as the walk takes them; None when there is one path."""
        paths = self.policy.choices(user)
        if len(paths) < 2:
            return None
        best = min(paths, key=lambda steps: [
            self._rank(tuple(n for n, _ in steps[:d]), steps[d - 1][1])
            for d in range(1, len(steps) + 1)])
        groups = [n for n, _ in best if n != user]
        return groups[-1] if groups else None

    def _rank(self, node, shares):
        prio = self.policy.priority(shares, self.slots.get(node, 0),
                                    self.usage.get(node, NO_USAGE))
        return (-prio, node[-1])

    def _path(self, user, group=None):
        found = self._paths.get((user, group))
        if found is None:
            steps = self.policy.path(user, group)
            found = self._paths[(user, group)] = tuple(n for n, _ in steps)
            for depth, (_, shares) in enumerate(steps, 1):
                self.shares[found[:depth]] = shares
        return found

    def _nodes(self, key):
        """The accounts the use of a user, or of a (user, group) (the
        job's fairshare.account_group), is charged to."""
        path = self._path(*key) if isinstance(key, tuple) else \
            self._path(key)
        return [path[:d] for d in range(1, len(path) + 1)]

    def _key(self, node):
        prio = self.policy.priority(self.shares[node], self.slots[node],
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
        jobs, pending, slots = self.jobs, self.pending, self.slots
        used, key, pop, push = (self.user_used, self._key, heapq.heappop,
                                heapq.heappush)
        left = pending.get((), 0)
        while left:
            node = ()
            while node not in jobs:         # the best child, level by level
                heap = heaps[node]
                while heap[0][3] != version[heap[0][2]]:
                    pop(heap)               # an account's older key
                node = heap[0][2]
            job = jobs[node].popleft()
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

    def priorities(self):
        """{account path: dynamic priority} now (for display and tests)."""
        return {node: -self._key(node)[0] for node in self.pending if node}
