"""What the controller knows about jobs by id and by name, for `-w`.

Unfinished jobs live in `ctl.jobs`; finished ones leave it.  Dependencies
still need their state and exit code until CLEAN_PERIOD (CLEAN_PERIOD_DONE
for DONE jobs) has passed, so this
index keeps a small record per finished job in memory (loaded from the
store at start) and maps ids and names to job keys.  `note(job)` is called
for every event the controller applies.
"""

from collections import namedtuple

from xce.model import cleanperiod, states
from xce.lang import depend

Finished = namedtuple("Finished", "state exit_code end_time user post")


def post_state(spec):
    """A finished job's post-exec status for post_done()/post_err():
    None while its post-exec runs; a job without one has nothing to
    wait for (POST_DONE)."""
    post = (spec or {}).get("post")
    return None if post == "RUN" else post or "POST_DONE"


def base_name(job):
    """An array element answers to its array's name (`sim`, not `sim[3]`)."""
    spec = job.get("spec") or {}
    return spec.get("array_name") or job.get("name") or ""


class JobIndex:
    def __init__(self, ctl):
        self.ctl = ctl
        self.ids = {}           # jobid -> set of idx
        self.names = {}         # base name -> [key, ...] in submit order
        self.finished = {}      # key -> Finished
        self.last_sub = False   # JOB_DEP_LAST_SUB=1: a name means the newest
        self.generation = 0     # moves on whenever a job's state changes
        self._stat = {}         # key -> state last noted (unfinished jobs)

    def note(self, job):
        key = (job["jobid"], job["idx"])
        if self._stat.get(key) != job["stat"]:
            self.generation += 1
            if job["stat"] in states.FINISHED:
                self._stat.pop(key, None)
            else:
                self._stat[key] = job["stat"]
        idxs = self.ids.setdefault(key[0], set())
        if key[1] not in idxs:
            idxs.add(key[1])
            self.names.setdefault(base_name(job), []).append(key)
        if job["stat"] in states.FINISHED:
            self.finished[key] = Finished(job["stat"], job.get("exit_code"),
                                          job.get("end_time") or 0,
                                          job["user"],
                                          post_state(job.get("spec")))

    def forget(self, job):
        """A job that was never committed (its request was undone)."""
        key = (job["jobid"], job["idx"])
        self.generation += 1
        self._stat.pop(key, None)
        self.finished.pop(key, None)
        idxs = self.ids.get(key[0])
        if idxs is not None:
            idxs.discard(key[1])
            if not idxs:
                del self.ids[key[0]]
        keys = self.names.get(base_name(job))
        if keys and key in keys:
            keys.remove(key)

    def load(self, store, done_since, exit_since=None):
        """At start: the unfinished jobs (already in ctl.jobs) and, from the
        store, the finished jobs that ended since `done_since` (DONE jobs,
        CLEAN_PERIOD_DONE) or `exit_since` (EXIT jobs, CLEAN_PERIOD; the
        same as done_since when not given)."""
        if exit_since is None:
            exit_since = done_since
        for job in self.ctl.jobs.values():
            self.note(job)
        cur = store.finished_since(min(done_since, exit_since))
        for jobid, idx, stat, user, name, code, end, array, post in cur:
            if end < (done_since if stat == states.DONE else exit_since):
                continue
            self.note({"jobid": jobid, "idx": idx, "stat": stat,
                       "user": user, "name": name, "exit_code": code,
                       "end_time": end,
                       "spec": {"array_name": array, "post": post}})

    def expire(self, before, done_before=None):
        """Forget finished jobs that ended before `before` (DONE ones:
        before `done_before` when given, CLEAN_PERIOD_DONE); the job ids
        forgotten whole (every element) are returned."""
        if done_before is None:
            done_before = before
        gone = {k for k, f in self.finished.items()
                if f.end_time < (done_before if f.state == states.DONE
                                 else before)}
        if not gone:
            return []
        forgotten = []
        for key in gone:
            del self.finished[key]
            idxs = self.ids.get(key[0])
            if idxs is not None:
                idxs.discard(key[1])
                if not idxs:
                    del self.ids[key[0]]
                    forgotten.append(key[0])
        for name in list(self.names):
            kept = [k for k in self.names[name] if k not in gone]
            if kept:
                self.names[name] = kept
            else:
                del self.names[name]
        return forgotten

    # -- lookups -------------------------------------------------------------
    def keys(self, ref, user, admin, own_idx=None, cutoffs=None):
        """The job keys a reference names, as the user `user` sees them.
        With *cutoffs* ((DONE, EXIT) end times, xce.model.cleanperiod)
        a finished job that ended before them is forgotten already, to
        the second, whenever expire() runs next."""
        if ref.job_id is not None:
            found = [(ref.job_id, i) for i in sorted(self.ids.get(ref.job_id,
                                                                   ()))]
        else:
            found = self._by_name(ref)
        if cutoffs is not None:
            found = [k for k in found if not self._margin(k, cutoffs) < 0]
        if ref.job_id is None:
            if not admin:
                found = [k for k in found if self._user(k) == user]
            if self.last_sub and found:
                newest = max(k[0] for k in found)
                found = [k for k in found if k[0] == newest]
        if ref.index == "*":
            if own_idx:
                found = [k for k in found if k[1] == own_idx]
        elif ref.index is not None:
            found = [k for k in found if k[1] == ref.index]
        return found

    def _margin(self, key, cutoffs):
        """cleanperiod.margin of a finished job (inf: not finished)."""
        done = self.finished.get(key)
        if done is None:
            return float("inf")
        return cleanperiod.margin(done.state, done.end_time, cutoffs)

    def _by_name(self, ref):
        if not ref.is_pattern:
            return list(self.names.get(ref.name, ()))
        return [k for name, keys in self.names.items()
                if ref.matches_name(name) for k in keys]

    def _user(self, key):
        job = self.ctl.jobs.get(key)
        if job is not None:
            return job["user"]
        done = self.finished.get(key)
        return done.user if done is not None else None

    def facts(self, key):
        job = self.ctl.jobs.get(key)
        if job is not None:
            return depend.JobFacts(job["stat"], job.get("exit_code"))
        done = self.finished.get(key)
        if done is not None:
            return depend.JobFacts(done.state, done.exit_code,
                                   post_state=done.post)
        return None

    def configure(self, params):
        """JOB_DEP_LAST_SUB=1: a shared name means its newest job only."""
        last = str(params.get("JOB_DEP_LAST_SUB", "")).strip() in ("1", "Y")
        if last != self.last_sub:
            self.last_sub = last
            self.generation += 1

    def lookup(self, user, admin, own_idx=None, cutoffs=None):
        """A `lookup(ref)` for depend.evaluate / check_references (see
        keys() for *cutoffs*).  Its `margin` is the least time, from the
        cutoffs, until a finished job it found is forgotten: how long its
        answers stand if no job changes state."""
        def find(ref):
            keys = self.keys(ref, user, admin, own_idx, cutoffs)
            if cutoffs is not None:
                find.margin = min([find.margin] + [
                    self._margin(k, cutoffs) for k in keys])
            found = (self.facts(k) for k in keys)
            return [f for f in found if f is not None]
        find.margin = float("inf")
        return find
