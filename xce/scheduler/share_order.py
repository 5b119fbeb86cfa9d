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
    names.
    """

    def __init__(self, policy, usage, user_used, jobs):
        self.policy, self.user_used = policy, user_used
        self.jobs, self.shares, self.pending = {}, {}, {}
        for job in jobs:                    # already FCFS
            path = self._path(job.user)
            self.jobs.setdefault(path, deque()).append(job)
            for depth in range(len(path) + 1):
                self.pending[path[:depth]] = \
                    self.pending.get(path[:depth], 0) + 1
        self.slots = dict.fromkeys(self.pending, 0)
        self.usage = {}
        for user, n in user_used.items():
            for node in self._nodes(user):
                self.slots[node] += n
        for user, u in (usage or {}).items():
            for node in self._nodes(user):
                self.usage[node] = add(self.usage.get(node, NO_USAGE), u)

    def _path(self, user):
        steps = self.policy.path(user)
        for depth, (_, shares) in enumerate(steps, 1):
            self.shares[tuple(n for n, _ in steps[:depth])] = shares
        return tuple(n for n, _ in steps)

    def _nodes(self, user):
        """The accounts (with pending jobs) a user's use is charged to."""
        path = self._path(user)
        return [path[:d] for d in range(1, len(path) + 1)
                if path[:d] in self.pending]

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
        while self.pending.get((), 0):
            node = ()
            while node not in self.jobs:
                node = self._best(heaps[node], version)
            job = self.jobs[node].popleft()
            before = self.user_used.get(job.user, 0)
            yield job
            started = self.user_used.get(job.user, 0) - before
            self.pending[()] -= 1
            for depth in range(len(node), 0, -1):
                up = node[:depth]
                self.pending[up] -= 1
                self.slots[up] += started
                version[up] += 1
                if self.pending[up]:
                    heapq.heappush(heaps[up[:-1]],
                                   self._key(up) + (up, version[up]))

    def _best(self, heap, version):
        while heap[0][3] != version[heap[0][2]]:
            heapq.heappop(heap)
        return heap[0][2]

    def priorities(self):
        """{account path: dynamic priority} now (for display and tests)."""
        return {node: -self._key(node)[0] for node in self.pending if node}
