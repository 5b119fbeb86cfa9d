"""Replaying a workload through the controller's scheduling pass in
virtual time: no daemons, no sleeps, no processes.

Time jumps from one event to the next: a submission, a job's end, a
reservation running out.  All events of one instant are applied first
and then one pass runs (schedpass.run and settle, the controller's own),
as the controller takes a turn's requests and agent reports before it
schedules.  A job runs for its trace run time, cut at its run limit (the
user's estimate); time spent suspended by preemption does not count.
"""

import heapq
import signal
from dataclasses import dataclass

from xce.controller import (accept, exitclose, prepost, reserve,
                            rusagewake, schedpass, windows)
from xce.controller.submit import Rejected
from xce.model import states
from xce.sim import swf

# Event kinds, in the order they are applied within one instant.
END, SUBMIT, WAKE = 0, 1, 2
# Window changes stop waking the replay once nothing has run or started
# for longer than the weekly cycle: the jobs left pend in every state of
# their windows (a run limit longer than any run window), as they would
# forever.
_STALLED = 8 * 86400
# The controller's next turn after a pass that let reservations run out
# (its RESCAN): they are made again then.
RESCAN = 1.0
# A job killed at its run limit: the agent sends SIGUSR2 first, and a
# shell reports a death by signal 12 as 128 + 12.
EXIT_RUNLIMIT = 140
# A job the trace says failed (SWF status 0) exits with 1.
EXIT_FAILED = 1


@dataclass
class Record:
    """One job of the replay, for the metrics."""
    number: int
    key: tuple
    user: str
    queue: str
    procs: int
    submit: float
    start: float = None
    end: float = None
    run: float = 0.0        # time it ran (suspended time left out)
    killed: bool = False    # ended by its run limit
    failed: bool = False    # the trace says it failed: it exited


@dataclass
class Step:
    """What one instant of the replay did."""
    time: float
    events: list        # ("submit", key), ("end", key), ("rejected", n, why)
    started: list       # (key, "host host ...") in dispatch order
    signalled: list     # (key, "preempt" or "resume")


class Replay:
    def __init__(self, cluster, jobs, reasons=False):
        self.cl = cluster
        self.reasons = reasons
        # Called with the replay before each pass (the stepper's trace):
        # it may look, not change anything.
        self.before_pass = None
        self.heap = []
        self._seq = 0
        for tj in jobs:
            self._push(tj.submit, SUBMIT, tj)
        self.records = {}       # job key -> Record
        self.rejected = []      # (TraceJob, why)
        # SWF group -> jobs replayed without it (not in the configuration)
        self.ungrouped = {}
        self._running = {}      # key -> [generation, end at, trace job]
        self._suspended = {}    # key -> seconds left to run
        self.passes = 0
        self.last = None        # the Step of the last instant
        self.signalled = []
        self._window_wake = None    # the window change a WAKE is queued for
        self._retry_wakes = set()   # pre-exec retry times a WAKE is queued for
        self._active_at = None      # the last instant something ran
        self.closed = []            # (time, host) closed by its exit rate

    def _push(self, when, kind, payload):
        self._seq += 1
        heapq.heappush(self.heap, (when, kind, self._seq, payload))

    def next_time(self):
        """When something happens next, or None: the replay is over."""
        when = self.heap[0][0] if self.heap else None
        deadline = self.cl.reservations.deadline
        if deadline is not None and deadline > self.cl.now and (
                when is None or deadline < when):
            when = deadline
        return when

    def run(self, progress=None):
        while self.step():
            if progress is not None:
                progress(self)
        return self

    def step(self):
        """Apply the events of the next instant and run a pass if one is
        due; False when nothing is left to happen."""
        when = self.next_time()
        if when is None:
            return False
        cl = self.cl
        cl.now = when
        events = []
        while self.heap and self.heap[0][0] == when:
            _, kind, _, payload = heapq.heappop(self.heap)
            got = self._event(kind, payload)
            if got is not None:
                events.append(got)
        started, self.signalled = [], []
        # Jobs whose wait after a failed pre-exec is over, as live.
        prepost.wake(cl)
        # Windows opening or closing: a pass, and run windows' suspensions.
        windows.turn(cl)
        if events or self._active_at is None or any(
                slot[1] is not None for slot in self._running.values()):
            self._active_at = when
        if cl.windows.next_at is not None and cl.jobs and \
                cl.windows.next_at != self._window_wake and \
                when - self._active_at <= _STALLED:
            self._window_wake = cl.windows.next_at
            self._push(cl.windows.next_at, WAKE, None)
        if cl.signals:
            self._signals()
        accept.turn(cl)     # a host's JOB_ACCEPT_INTERVAL is over
        rusagewake.turn(cl)     # a reservation's duration or decay freed
        if cl.dirty or reserve.due(cl):
            started = self._pass()
        # A pass when a host may take more, and when a reservation shrinks.
        for at in (cl.passes.accepted.next_at, cl.passes.rusage_next):
            if at is not None and at not in self._retry_wakes:
                self._retry_wakes.add(at)
                self._push(at, WAKE, None)
        # The pass held back jobs after a failed pre-exec: a pass again
        # when each may be dispatched.
        for at in set(cl.retry_waiting.values()) - self._retry_wakes:
            self._retry_wakes.add(at)
            self._push(at, WAKE, None)
        self.last = Step(when, events, started, self.signalled)
        return True

    def _event(self, kind, payload):
        if kind == SUBMIT:
            return self._submit(payload)
        if kind == END:
            return self._end(*payload)
        return None     # WAKE: only a pass

    def _submit(self, tj):
        cl = self.cl
        queue, by_default = _queue_of(cl.cfg, tj.queue)
        group, unknown = _user_group(cl.cfg, tj)
        spec = dict(tj.spec) if tj.spec is not None else {
            "command": f"swf job {tj.number}", "name": None,
            "queue": queue, "queue_is_default": by_default,
            "nslots": [tj.procs] * 2,
            "resreq": [], "depend": None, "from_host": "",
            "runlimit": tj.estimate / 60.0, "cwd": "/", "subcwd": "/",
            **group}
        try:
            job = cl.submit(spec, tj.user, tj.number)
        except Rejected as e:
            self.rejected.append((tj, str(e)))
            return ("rejected", tj.number, str(e))
        if unknown:
            self.ungrouped[unknown] = self.ungrouped.get(unknown, 0) + 1
        key = (job["jobid"], job["idx"])
        self.records[key] = Record(tj.number, key, tj.user, job["queue"],
                                   tj.procs, cl.now)
        self._running[key] = [0, None, tj]
        return ("submit", key)

    def _end(self, key, generation):
        cl = self.cl
        slot = self._running.get(key)
        job = cl.jobs.get(key)
        if slot is None or slot[0] != generation or job is None:
            return None         # suspended since: a later end stands
        rec, tj = self.records[key], slot[2]
        del self._running[key]
        rec.end = cl.now
        rec.run += cl.now - slot[1][1]
        rec.killed = tj.run > tj.estimate
        if rec.killed:
            self._finish(job, states.EXIT, EXIT_RUNLIMIT, "TERM_RUNLIMIT")
        elif tj.failed:     # the trace says it failed: it exits 1
            rec.failed = True
            self._finish(job, states.EXIT, EXIT_FAILED, None)
        else:
            self._finish(job, states.DONE, 0, None)
        self._kills()
        return ("end", key)

    def _kills(self):
        """Jobs a gang's failure policy ends: at once, as their agents'
        kill sequence would (a shell reports SIGKILL as 128 + 9)."""
        cl = self.cl
        while cl.kills:
            job, reason = cl.kills.pop(0)
            key = (job["jobid"], job["idx"])
            if reason is None:      # ended while pending: never ran
                if self._running.pop(key, None) is not None:
                    self.records[key].end = cl.now
                continue
            slot = self._running.pop(key, None)
            if slot is None or cl.jobs.get(key) is not job or \
                    job["stat"] in states.PENDING:
                continue        # over, or requeued (its gang's start failed)
            rec = self.records[key]
            rec.end = cl.now
            if key in self._suspended:
                del self._suspended[key]
            elif slot[1] is not None:
                rec.run += cl.now - slot[1][1]
            self._finish(job, states.EXIT, 128 + signal.SIGKILL, reason)

    def _finish(self, job, stat, exit_code, reason):
        """The job's end, and the host exception it may raise: a host
        whose jobs exit faster than its EXIT_RATE is closed, by the
        controller's own rule (xce.controller.exitclose)."""
        cl = self.cl
        cl.emit("FINISH", job, stat=stat, exit_code=exit_code,
                **({"reason": reason} if reason else {}))
        found = exitclose.over_threshold(cl, job, stat, reason)
        if found is not None:
            exitclose.mark_closed(cl, found[0])
            self.closed.append((cl.now, found[0]))

    def _pass(self):
        cl = self.cl
        cl.dirty = False
        self.passes += 1
        if self.before_pass is not None:
            self.before_pass(self)
        decisions = schedpass.run(cl, reasons=self.reasons)
        if decisions is None:
            return []
        started = schedpass.settle(cl, decisions)
        for job in started:
            self._started(job)
        self._signals()
        if cl.dirty:        # reservations ran out: made again next turn
            cl.dirty = False
            self._push(cl.now + RESCAN, WAKE, None)
        return [((job["jobid"], job["idx"]), job["exec_hosts"])
                for job in started]

    def _started(self, job):
        key = (job["jobid"], job["idx"])
        slot = self._running[key]
        tj = slot[2]
        rec = self.records[key]
        rec.start = self.cl.now
        self._run_for(key, min(tj.run, tj.estimate))

    def _run_for(self, key, seconds):
        slot = self._running[key]
        slot[0] += 1
        # (end at, running since): run time is counted between the two.
        slot[1] = (self.cl.now + seconds, self.cl.now)
        self._push(self.cl.now + seconds, END, (key, slot[0]))

    def _signals(self):
        """Suspensions and resumptions, as the job's agent carries them
        out: by the state the signal went with (a queue's JOB_CONTROLS
        may name other signals than SIGSTOP and SIGCONT)."""
        cl = self.cl
        for job, sig in cl.signals:
            key = (job["jobid"], job["idx"])
            slot = self._running.get(key)
            if slot is None or sig == "KILLSEQ":
                continue
            stop = job["stat"] in states.SUSPENDED
            sig = signal.SIGSTOP if stop else signal.SIGCONT
            self.signalled.append((key, "preempt" if sig == signal.SIGSTOP
                                   else "resume"))
            if sig == signal.SIGSTOP and key not in self._suspended:
                end_at, since = slot[1]
                self.records[key].run += cl.now - since
                self._suspended[key] = end_at - cl.now
                slot[0] += 1        # its end event no longer stands
            elif sig == signal.SIGCONT and key in self._suspended:
                self._run_for(key, self._suspended.pop(key))
        cl.signals.clear()

    def unfinished(self):
        """Jobs still pending or running when nothing is left to happen
        (a dependency never met, a queue with no hosts)."""
        return [rec for rec in self.records.values() if rec.end is None]


def _user_group(cfg, tj):
    """An SWF job's group as bsub -G gives it ({"user_group": group}),
    which the controller's submission then checks as live (membership)
    and the scheduler charges (fairshare, limits), when the configuration
    defines a user group of that name; else no -G and the group, for the
    replay to report.  A recorded job (tj.spec) has its own -G."""
    group = tj.group
    if tj.spec is not None or not group or group == swf.NO_GROUP:
        return {}, None
    if group in cfg.user_groups:
        return {"user_group": group}, None
    return {}, group


def _queue_of(cfg, number):
    """The trace's queue number names a queue of that name (or number),
    else the job goes where a bsub without -q sends it: lsf.conf's
    LSB_DEFAULTQUEUE, else the configuration's default queue (None).
    (queue, whether it is a default)."""
    if number is not None and number >= 0 and str(number) in cfg.queues:
        return str(number), False
    return cfg.params.get("LSB_DEFAULTQUEUE") or None, True
