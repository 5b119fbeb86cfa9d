"""Held starts (agent protocol 14): prepare a job, run it on "go".

The controller sends a job's start (``"hold": true``) before the store
commit that records its START is durable, and a short ``go`` message
(job, idx, attempt) once it is.  So the agent's preparation -- the job's
files, environment and wrapper argv, and the posix_spawn of its wrapper
-- overlaps the controller's commit, and the job still never runs unless
its START is durable: the wrapper waits on a pipe from the agent
(xce.agent.spawn.WRAPPER's first line) and does nothing before the
agent's line.  A job with pre-execution steps is prepared only: its
steps and wrapper are started on go.

Nothing of a held start is journalled before its go, which journals it as
any start (before the wrapper is let go).  When the controller's
connection drops, or a new one replaces it, before the go, every held
start is discarded: its files removed, its wrapper killed (and, closing
the pipe, ended if it has a session of its own under GNU time).  A
restarted controller that finds the job not STARTed in its store
schedules it again; one that finds it STARTed and this agent not knowing
it sends its start again (xce.controller.reconcile).  The agent dying
closes the pipe as well: the wrapper ends without running the job.

Protocol 15: the discarded starts are remembered and listed in every
hello until the controller acknowledges them (``discarded_ack``) or a
start of that attempt (or a later one) is journalled: a controller that
stayed up cannot tell a go the agent never read from one it read just
before the link dropped, and sends back to PEND only a job this list
names.

They are journalled (``discard``, handed to the kernel at once), so that
an agent restarted meanwhile still lists them rather than leaving their
jobs to end as starts lost with the link.  A ``discard`` record claims
"this attempt never ran here", and the claim must hold after a host
crash too, when the journal keeps only what reached the disk:
  - before the record nothing of that attempt ran: a held start is held
    only when its key has no start record, and its wrapper, killed at the
    discard, never had its line;
  - after it, the attempt runs only from a start record (a start sent
    again, or a go), and while the discard is listed such a record
    supersedes it and is fsynced (Journal.flush) before the job may run.
    So a disk that has the discard but not that start record has a job
    that never ran; one that has both replays the start after the
    discard, which drops it;
  - a discard stops being listed otherwise only through a record synced
    the same way before the agent reads its next message: the
    controller's ack (after which a restarted controller may send that
    very attempt's start again, unguarded), or a newer discard pushing
    the oldest out of the list.  And compaction syncs the directory
    after its rename, so that an older file holding a discard without
    its end cannot come back.
A discard of an earlier attempt than a start's is dropped by it too
(the controller would ignore it: it matches only the job's current
attempt, UNKWN, first host here, unknown to the agent; and a job's
attempt only grows: a job sent back to PEND is dispatched again as a new
attempt).  The disk losing the discard itself loses nothing that was
claimed: the job is then a start lost with its link, as before
protocol 15.
"""

import logging
import os
import signal

from xce.agent.protocol import job_key

log = logging.getLogger("xce.agent")



class _Held:
    def __init__(self, msg, prefix):
        self.original = dict(msg)       # what the journal gets on go
        self.msg, self.prefix = msg, prefix
        self.prepared = None        # (argv, env, exact, stdout, home)
        self.error = None           # why it could not be prepared
        self.pid = None             # its waiting wrapper, if spawned
        self.gate = None            # the pipe's end that lets it go


class Held:
    def _init_held(self):
        self.held = {}          # key -> _Held, until its go
        self.held_pids = {}     # pid of a waiting wrapper -> key

    def hold(self, key, msg, prefix):
        """Prepare the start *msg*; its job runs on go_batch."""
        held = self.held[key] = _Held(msg, prefix)
        try:
            held.prepared = self._prepare(msg, prefix)
        except OSError as e:
            held.error = str(e)     # said on go, as a start that failed
            return
        if msg.get("pre"):
            return                  # its steps come first, on go
        argv, env, exact = held.prepared[:3]
        rfd, wfd = os.pipe()
        try:
            held.pid = self._spawn_wrapper(key, msg, argv, env, exact,
                                           stdin_fd=rfd)
        except OSError as e:
            log.warning("job %s: wrapper not spawned ahead: %s", key, e)
            os.close(wfd)
            return
        finally:
            os.close(rfd)
        held.gate = wfd
        self.held_pids[held.pid] = key

    def go_batch(self, msgs):
        """The controller has committed these starts: journal them (one
        write), then let each job run."""
        ready = []
        for msg in msgs:
            key = job_key(msg)
            held = self.held.pop(key, None)
            if held is None:
                log.warning("job %s: go for no held start", key)
                continue
            self.journal.append("start", key, msg=held.original,
                                dir=held.prefix)
            ready.append((key, held))
        if ready:
            self.journal.flush()
        for key, held in ready:
            try:
                self._go(key, held)
            except OSError as e:
                log.error("job %s: cannot start: %s", key, e)
                self._finish(key, 127, {}, reason="TERM_UNKNOWN",
                             error=str(e))

    def _go(self, key, held):
        if held.error is not None:
            raise OSError(held.error)
        pid = self._waiting(held)
        argv, env, exact, stdout, home = held.prepared
        if pid is None:
            self._begin(key, held.msg, held.prefix, env, lambda: self._launch(
                key, held.msg, held.prefix, argv, env, exact, stdout, home))
            return
        # Tracked and journalled as the job's before it may run; a gate
        # closed without its line ends the wrapper, the job not run.
        try:
            self._launch(key, held.msg, held.prefix, argv, env, exact,
                         stdout, home, pid=pid)
            os.write(held.gate, b"\n")
        finally:
            os.close(held.gate)

    def _waiting(self, held):
        """The pid of the held start's wrapper if it still waits (one that
        went is spawned again), else None."""
        pid = held.pid
        if pid is None:
            return None
        self.held_pids.pop(pid, None)
        try:
            gone = os.waitpid(pid, os.WNOHANG)[0] == pid
        except ChildProcessError:
            gone = True
        if gone:
            os.close(held.gate)
            return None
        return pid

    def held_exited(self, pid):
        """A reaped child that was a held start's wrapper (discarded, or
        gone before its go): True."""
        key = self.held_pids.pop(pid, None)
        if key is None:
            return False
        held = self.held.get(key)
        if held is not None and held.pid == pid:
            held.pid = None
            os.close(held.gate)
            held.gate = None
        return True

    def discard_held(self, why):
        """The controller's connection is gone before the go of these
        starts: none of their jobs may run."""
        for key, held in self.held.items():
            log.info("job %s: held start discarded: %s", key, why)
            if held.gate is not None:
                os.close(held.gate)
            if held.pid is not None:
                try:
                    os.killpg(held.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.discard_files(held.prefix)
            self.journal.append("discard", key)
        self.held.clear()
        self.journal.flush()

    @property
    def discarded(self):
        """(job, idx) -> attempt of each held start discarded unrun and
        not yet acknowledged, oldest first (xce.agent.journal)."""
        return self.journal.discarded

    def hello_discarded(self):
        """The held starts discarded unrun, for the controller's hello."""
        return [{"job": job, "idx": idx, "attempt": attempt}
                for (job, idx), attempt in self.discarded.items()]

    def discarded_ack(self, msg):
        """The controller has recorded these discarded starts."""
        for job, idx, attempt in msg["jobs"]:
            if self.discarded.get((job, idx)) == attempt:
                self.journal.append("discard_ack", (job, idx, attempt))
        self.journal.flush()        # synced: see above
        self.journal.compact()
