"""Pending jobs in each queue's order, kept from one pass to the next.

A pass walks each queue's jobs by -sp user priority, then submission
order (seq, which btop/bbot change), then job key.  Sorting every pending
job at every pass costs O(n log n) when only a few jobs changed; this keeps
the sorted lists and takes the changes one by one (a binary-search insert
each), so a pass after one job ended can walk just the head of each queue.

Entries of removed or changed jobs are left in place and skipped (a job's
current entry is the one its key maps to); a list is rebuilt without them
once they are more than half of it.
"""

import bisect


def sort_key(job):
    return (-job.user_priority, job.seq, job.key)


class PendingOrder:
    def __init__(self):
        self._lists = {}        # queue -> [(sort key, serial, job)], sorted
        self._current = {}      # job key -> its entry in its queue's list
        self._stale = {}        # queue -> entries no longer current
        # Entries are (sort key, serial, job): a stale entry of a job may
        # hold the same sort key as its new one, and the serial keeps the
        # comparison from reaching the jobs themselves.
        self._serial = 0

    def __len__(self):
        return len(self._current)

    def put(self, job):
        """Add a pending job, or take its new view (queue, order, needs)."""
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
        old = self._current.pop(key, None)
        if old is not None:
            self._count_stale(old[2].queue)

    def _forget(self, entry):
        del self._current[entry[2].key]
        self._count_stale(entry[2].queue)

    def _count_stale(self, queue):
        stale = self._stale[queue] = self._stale.get(queue, 0) + 1
        entries = self._lists[queue]
        if stale * 2 > len(entries):
            current = self._current
            self._lists[queue] = [e for e in entries
                                  if current.get(e[2].key) is e]
            self._stale[queue] = 0

    def count(self, queue):
        return len(self._lists.get(queue, ())) - self._stale.get(queue, 0)

    def jobs(self, queue):
        """The queue's pending jobs in order (a generator: a pass that
        stops early pays only for the jobs it looked at)."""
        current = self._current
        for entry in self._lists.get(queue, ()):
            if current.get(entry[2].key) is entry:
                yield entry[2]

    def queues(self):
        return [q for q in self._lists if self.count(q)]
