"""The agent's local journal: what it started and how each job ended.

Append-only JSON lines, handed to the kernel (flush) before a job is
spawned and before its exit is reported, so a restarted agent neither starts
a job twice nor loses an exit status.  Records of jobs, and of blaunch task
exits, the controller has acknowledged are dropped when the file is
compacted (each acknowledgement counts towards it).  The blaunch tasks
running here have records too (``task``, ``task_end``, ``task_ack``), so
that a restarted agent re-adopts them and no task's exit is lost before the
controller has it.

Host steps (HOST_PRE_EXEC/HOST_POST_EXEC run here for a job whose first
host is another one, xce.agent.prepost) have records too: ``hsteps``
without ``code`` when they begin, with it when they end, ``hsteps_drop``
when no question about them can come any more.  So a restarted agent,
asked again, says how they ended rather than running them twice.  The
last HOST_STEPS_KEPT are kept, oldest dropped first (at replay too).
Each step process of a stage, a job's own pre/post-exec or host steps,
has a ``step`` record (its pid and start time), written before the step
may run and over with its stage: a restarted agent, for which such a step
has failed, kills what is left of it.  Its key is the job's with the
stage after it (four items, never a job's key): an agent older than the
record skips it rather than read the step's pid as its job's.

A record of a kind this agent does not know (written by a newer one) is
skipped, and the load logs how many of each such kind it skipped; a
job's fields change only through the kinds listed in _JOB_KINDS.

Held starts discarded before their go have ``discard`` records, kept
until the controller acknowledges them (xce.agent.held says why they
hold after a host crash too: a start record that supersedes one is
fsynced before its job may run).

Why flush and not fsync on that path: the page cache survives the agent's
own crash (kill -9), which is what invariant 4 is about.  An fsync guards
only against the host going down, and then its jobs die with it and the
controller's host-loss handling decides their fate, whatever the journal
holds.  So the fsync is taken off the job's critical path (about 2 ms a
call on a virtual disk, several per job): the agent fsyncs at most every
FSYNC_INTERVAL seconds while records are waiting, at compaction and at stop.
"""

import json
import logging
import os
import time

log = logging.getLogger("xce.agent")

FSYNC_INTERVAL = 1.0
# Compaction comes once this many records are useless: acknowledged jobs
# and blaunch task exits, host-step records replaced or dropped.
COMPACT_AFTER = 1000
# How many host-step stages the journal remembers (begun or ended): far
# more than a controller restart can leave unanswered.
HOST_STEPS_KEPT = 4096
# A job's records that end its pre or post stage, and so the step record
# of that stage (the job launched or ended, its post-exec ended, the job
# forgotten).
# Held starts discarded before their go (xce.agent.held) kept for the
# controller's hellos at most: a link that drops again and again with no
# controller to hear it does not grow the agent without bound.
DISCARDED_KEEP = 10000
_STEPS_OVER = {"pid": ("pre",), "exit": ("pre",), "post": ("post",),
               "ack": ("pre", "post")}
# The kinds of a job's own records: its start, what its fields become
# (pid, exit, limits, post) and its acknowledgement.
_JOB_KINDS = frozenset({"start", "pid", "exit", "limits", "post", "ack"})


class Journal:
    def __init__(self, path):
        self.path = path
        self.jobs = {}          # (job, idx, attempt) -> record dict
        self.tasks = {}         # pid of a live blaunch task -> record dict
        # Ended tasks whose exit the controller has not acknowledged yet:
        # task id (xce.agent.tasks.tid) -> task_end record.
        self.task_done = {}
        # (job, idx, attempt, "host_pre"/"host_post") -> how its host
        # steps ended (None while they run), oldest first.
        self.host_steps = {}
        # (job, idx, attempt, stage) -> (pid, ptime) of the pre/post or
        # host step running now, until its stage is over: a restarted
        # agent kills what is left of it (xce.agent.prepost).
        self.steps = {}
        # (job, idx) -> the attempt whose held start was discarded before
        # its go (xce.agent.held), oldest first, until the controller
        # acknowledges it or a start of that attempt or a later one comes.
        self.discarded = {}
        # flush must fsync: a start record superseded a discard
        self._sync_owed = False
        self._dead = 0
        self.skipped = {}           # kind unknown here -> records skipped
        self._dirty = False         # records not yet handed to the kernel
        self.unsynced_since = None  # first record not yet fsynced (monotonic)
        self._load()
        self._sync_owed = False
        self.f = open(path, "a", encoding="utf-8")

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            return
        for line in lines:
            try:
                rec = json.loads(line)
                key = tuple(rec["key"])
            except (ValueError, KeyError, TypeError):
                continue        # a torn last line after a crash
            self._apply(key, rec)
        for kind, count in sorted(self.skipped.items(), key=str):
            log.warning("%s: %d record(s) of kind %r, unknown to this agent, "
                        "skipped", self.path, count, kind)

    def _apply(self, key, rec):
        kind = rec.get("t")
        if kind == "task":          # blaunch tasks: keyed by pid, with or
            self.tasks[rec["pid"]] = rec    # without their job here
            return
        if kind == "task_end":
            self.tasks.pop(rec["pid"], None)
            self.task_done[rec["tid"]] = rec
            return
        if kind == "task_ack":
            if self.task_done.pop(rec["tid"], None) is not None:
                self._dead += 1     # as a job's ack: its records are dead
            return
        if kind in ("hsteps", "hsteps_drop"):
            self._apply_host_steps(kind, (*key, rec["stage"]), rec)
            return
        if kind == "step":      # (a 3-item key with "stage": before 4)
            key4 = key if len(key) == 4 else (*key, rec["stage"])
            self._step_over(key4)   # the one before it
            self.steps[key4] = (rec["pid"], rec.get("ptime"))
            return
        if kind in ("discard", "discard_ack"):
            self._apply_discard(kind, key)
            return
        if kind not in _JOB_KINDS:
            self.skipped[kind] = self.skipped.get(kind, 0) + 1
            return
        for stage in _STEPS_OVER.get(kind, ()):
            self._step_over((*key, stage))
        if kind == "start":
            self.jobs[key] = {"msg": rec["msg"], "dir": rec["dir"]}
            if self.discarded.get(key[:2], key[2] + 1) <= key[2]:
                del self.discarded[key[:2]]     # superseded
                self._dead += 1
                self._sync_owed = True
        elif key not in self.jobs:
            return
        elif kind == "ack":
            del self.jobs[key]
            self._dead += 1
        else:       # pid, exit
            self.jobs[key].update({k: v for k, v in rec.items()
                                   if k not in ("t", "key")})

    def append(self, kind, key, **fields):
        rec = dict(fields, t=kind, key=list(key))
        self._apply(key, rec)
        self.f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self._dirty = True

    def append_task(self, pid, key, **fields):
        """A blaunch task spawned here (see xce.agent.tasks)."""
        self.append("task", key, pid=pid, **fields)

    def end_task(self, pid, key, tid, report):
        """The task ended; *report* is its task_exit, kept until acked."""
        self.append("task_end", key, pid=pid, tid=tid, report=report)

    def ack_task(self, tid):
        if tid in self.task_done:
            self.append("task_ack", (0, 0, 0), tid=tid)

    def _apply_host_steps(self, kind, key4, rec):
        steps = self.host_steps
        if key4 in steps:
            self._dead += 1         # its earlier record is superseded
        if kind == "hsteps_drop" or rec.get("code") is not None:
            self._step_over(key4)
        if kind == "hsteps_drop":
            steps.pop(key4, None)
            return
        steps[key4] = rec.get("code")
        while len(steps) > HOST_STEPS_KEPT:
            oldest = next(iter(steps))
            del steps[oldest]
            self._step_over(oldest)
            self._dead += 1

    def _apply_discard(self, kind, key):
        """A discard leaves the list only through a record that the next
        flush syncs to disk (_sync_owed: a start, an ack, a newer discard
        that pushes the oldest out), before anything acts on its going:
        see xce.agent.held."""
        ours = self.discarded.get(key[:2]) == key[2]
        if kind == "discard_ack":
            if ours:
                del self.discarded[key[:2]]
                self._dead += 2     # the discard and its ack
                self._sync_owed = True
            return
        if self.discarded.pop(key[:2], None) is not None:
            self._dead += 1         # an earlier attempt's
        self.discarded[key[:2]] = key[2]
        while len(self.discarded) > DISCARDED_KEEP:     # the oldest first
            del self.discarded[next(iter(self.discarded))]
            self._dead += 1
            self._sync_owed = True

    def _step_over(self, key4):
        if self.steps.pop(key4, None) is not None:
            self._dead += 1

    def step_record(self, key4, pid, ptime):
        """A pre/post or host step of *key4* (its stage last) spawned as
        *pid*, started at *ptime* (clock ticks since boot)."""
        # "stage" too, for the agents that read a 3-item key and it
        self.append("step", key4, stage=key4[3], pid=pid, ptime=ptime)

    def host_steps_record(self, key4, code=None):
        """Host steps of *key4* begun (*code* None) or ended with *code*."""
        fields = {} if code is None else {"code": code}
        self.append("hsteps", key4[:3], stage=key4[3], **fields)

    def drop_host_steps(self, key4):
        if key4 in self.host_steps:
            self.append("hsteps_drop", key4[:3], stage=key4[3])

    def flush(self):
        """Hand every record so far to the kernel: they survive the
        agent's crash from here on.  One write however many.  When a
        start record supersedes a discarded held start, on disk too: see
        xce.agent.held."""
        if self._dirty:
            self.f.flush()
            self._dirty = False
            if self.unsynced_since is None:
                self.unsynced_since = time.monotonic()
        if self._sync_owed:     # a start that supersedes a discard
            self._sync_owed = False
            self.sync()

    def fsync_deadline(self):
        """When the waiting records are due on disk; None if none wait."""
        if self.unsynced_since is None:
            return None
        return self.unsynced_since + FSYNC_INTERVAL

    def sync(self):
        """Flush, then make every record so far durable on disk."""
        self.flush()
        if self.unsynced_since is None:
            return
        os.fsync(self.f.fileno())
        self.unsynced_since = None

    def compact(self):
        """Rewrite the file with the live records only."""
        if self._dead < COMPACT_AFTER:
            return
        tmp = f"{self.path}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            for key, job in self.jobs.items():
                f.write(json.dumps({"t": "start", "key": list(key),
                                    "msg": job["msg"], "dir": job["dir"]}) + "\n")
                rest = {k: v for k, v in job.items() if k not in ("msg", "dir")}
                if "result" in rest:
                    f.write(json.dumps(dict(rest, t="exit", key=list(key)))
                            + "\n")
                elif rest:
                    f.write(json.dumps(dict(rest, t="pid", key=list(key)))
                            + "\n")
            for rec in [*self.tasks.values(), *self.task_done.values()]:
                f.write(json.dumps(rec) + "\n")
            for (*key, stage), code in self.host_steps.items():
                rec = {"t": "hsteps", "key": key, "stage": stage}
                if code is not None:
                    rec["code"] = code
                f.write(json.dumps(rec) + "\n")
            for (job, idx), attempt in self.discarded.items():
                f.write(json.dumps({"t": "discard",
                                    "key": [job, idx, attempt]}) + "\n")
            # Last: a job's pid or exit record would end its pre stage.
            for key4, (pid, ptime) in self.steps.items():
                f.write(json.dumps({"t": "step", "key": list(key4),
                                    "stage": key4[3], "pid": pid,
                                    "ptime": ptime}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.f.close()
        os.replace(tmp, self.path)
        _sync_dir(os.path.dirname(self.path))   # else the old file may return
        self.f = open(self.path, "a", encoding="utf-8")
        self._dead = 0
        self._dirty, self.unsynced_since = False, None


def _sync_dir(path):
    fd = os.open(path or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
