"""Pending jobs in each queue's order, kept from one pass to the next.

A pass walks each queue's jobs by -sp user priority, then submission
order (seq, which btop/bbot change), then job key.  Sorting every pending
job at every pass costs O(n log n) when only a few jobs changed; this keeps
the sorted lists and takes the changes one by one (a binary-search insert
each), so a pass after one job ended can walk just the head of each queue.

Entries of removed or changed jobs are left in place and skipped (a job's
current entry is the one its key maps to); a list is rebuilt without them
once they are more than half of it.  An order made in one go (`of`, for a
single pass) holds plain sorted lists and builds its entries only if it is
ever changed.
"""

import bisect


def sort_key(job):
    return (-job.user_priority, job.seq, job.key)


class PendingOrder:
    def __init__(self):
        # queue -> [(sort key, serial, job)], sorted.  The serial keeps a
        # comparison from reaching the jobs: a stale entry of a job may hold
        # the same sort key as its new one.
        self._lists = {}
        self._current = {}      # job key -> its entry in its queue's list
        self._stale = {}        # queue -> entries no longer current
        self._serial = 0
        self._plain = None      # queue -> [job] in order, from `of`

    @classmethod
    def of(cls, jobs):
        """An order built in one go: one sort per queue, no entries."""
        self = cls()
        self._plain = {}
        for job in jobs:
            self._plain.setdefault(job.queue, []).append(job)
        for members in self._plain.values():
            members.sort(key=sort_key)
        return self

    def _entries(self):
        """Turn plain lists into entries, before the first change."""
        if self._plain is None:
            return
        for queue, members in self._plain.items():
            entries = [(sort_key(job), self._serial + i, job)
                       for i, job in enumerate(members, 1)]
            self._serial += len(entries)
            self._current.update((e[2].key, e) for e in entries)
            self._lists[queue] = entries
        self._plain = None

    def __len__(self):
        if self._plain is not None:
            return sum(map(len, self._plain.values()))
        return len(self._current)

    def put(self, job):
        """Add a pending job, or take its new view (queue, order, needs)."""
        self._entries()
        old = self._current.get(job.key)
        if old is not None:
            if old[2] is job:
                return
            self._forget(old)
        self._serial += 1
        entry = (sort_key(job), self._serial, job)
        bisect.insort(self._lists.setdefault(job.queue, []), entry)
        self._current[job.key] = entry

    def drop(self, key):
        """The job is no longer pending (started, finished, removed)."""
        self._entries()
        old = self._current.get(key)
        if old is not None:
            self._forget(old)

    def _forget(self, entry):
        del self._current[entry[2].key]
        queue = entry[2].queue
        stale = self._stale[queue] = self._stale.get(queue, 0) + 1
        entries = self._lists[queue]
        if stale * 2 > len(entries):
            current = self._current
            self._lists[queue] = [e for e in entries
                                  if current.get(e[2].key) is e]
            self._stale[queue] = 0

    def count(self, queue):
        if self._plain is not None:
            return len(self._plain.get(queue, ()))
        return len(self._lists.get(queue, ())) - self._stale.get(queue, 0)

    def jobs(self, queue):
        """The queue's pending jobs in order (an iterator: a pass that
        stops early pays only for the jobs it looked at)."""
        if self._plain is not None:
            return iter(self._plain.get(queue, ()))
        entries = self._lists.get(queue, ())
        if not self._stale.get(queue):
            return (e[2] for e in entries)
        current = self._current
        return (e[2] for e in entries if current.get(e[2].key) is e)

    def queues(self):
        if self._plain is not None:
            return [q for q, members in self._plain.items() if members]
        return [q for q in self._lists if self.count(q)]
