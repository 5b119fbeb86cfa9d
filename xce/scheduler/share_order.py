"""The pending jobs of a fairshare queue in dispatch order, within one
pass: the account with the highest dynamic priority (xce.model.fairshare)
goes next, and its priority drops as its jobs start."""

import heapq
from collections import deque

from xce.model.fairshare import NO_USAGE, add


class Order:
    """The pending jobs of a fairshare queue in dispatch order.

    Iterating yields one job at a time; after each, the slots its user
    holds in the queue (user_used, kept current by the scheduler) tell
    whether it started, and its account's priority is worked out again.
    """

    def __init__(self, policy, usage, user_used, jobs):
        self.policy, self.user_used = policy, user_used
        self.jobs, self.shares = {}, {}
        for job in jobs:                    # already FCFS
            name, shares = policy.account(job.user)
            self.jobs.setdefault(name, deque()).append(job)
            self.shares[name] = shares
        self.slots = dict.fromkeys(self.jobs, 0)
        self.usage = {}
        for user, n in user_used.items():
            name = policy.account(user)[0]
            if name in self.slots:
                self.slots[name] += n
        for user, u in (usage or {}).items():
            name = policy.account(user)[0]
            if name in self.slots:
                self.usage[name] = add(self.usage.get(name, NO_USAGE), u)

    def _key(self, name):
        prio = self.policy.priority(self.shares[name], self.slots[name],
                                    self.usage.get(name, NO_USAGE))
        return (-prio, name)

    def __iter__(self):
        heap = [self._key(name) for name in self.jobs]
        heapq.heapify(heap)
        while heap:
            name = heapq.heappop(heap)[1]
            waiting = self.jobs[name]
            job = waiting.popleft()
            before = self.user_used.get(job.user, 0)
            yield job
            self.slots[name] += self.user_used.get(job.user, 0) - before
            if waiting:
                heapq.heappush(heap, self._key(name))

    def priorities(self):
        """{account: dynamic priority} now (for display and tests)."""
        return {name: -self._key(name)[0] for name in self.jobs}
