"""The controller: drain the spool, hear the agents, schedule, commit, act.

``run_once(now)`` is one turn and returns when it wants to run again;
xce.controller.waitloop's ``run_forever`` only waits for the doorbell, an
agent or that deadline.
"""

import gc
import json
import logging
import os
import socket
import time

from xce.config.lsfview import write_lsf_view
from xce.controller import admin, agentctl, agents, configure, control
from xce.controller import dispatch, startgo, startmsg
from xce.controller import preemption, reconcile, reserve, schedpass
from xce.controller import blaunch, explain, hostloss, isolate, jobusage
from xce.controller import claims, gangs, hoststeps, jobgroups, peek
from xce.controller import exitclose, sharehist, stage
from xce.controller import (accept, jobclock, messages, modify, prepost,
                            spoolspace)
from xce.controller import retention, rusagewake, windows
from xce.controller.rusagewake import load_pass_every
from xce.controller.apply import apply
from xce.controller.jobindex import JobIndex
from xce.controller import submit
from xce.controller.submit import Rejected, user_of
from xce.errors import about, text
from xce.model import cleanperiod, permissions, states
from xce.model import jobid as jobids
from xce.model.jobid import show
from xce.spool.server import SpoolServer
from xce.store.writer import Store

log = logging.getLogger("xce.controller")

BATCH = 5000            # requests taken from the spool per turn
RESCAN = 1.0            # seconds between spool scans without a doorbell
# The longest a pending job's reasons lag behind (LSF also refreshes them
# once per scheduling session); passes in between only start jobs.
REASONS_EVERY = 1.0
# A load report changes what select[] and order[] see: pending jobs are
# looked at again, but at most every XCE_LOAD_PASS_INTERVAL seconds
# (rusagewake.load_pass_every).
# Request ids are kept while their file could still be re-read after a
# crash (it is removed right after the commit), with a wide margin.
REQUEST_ID_KEEP = 3600.0
HOUSEKEEPING = 60.0


class Controller:
    def __init__(self, cfg, envdir, spool=None, link_for=agents.link_for,
                 links=None):
        """spool (a SpoolServer) and link_for (host, spool dir, host
        config -> its agent link) are seams the in-process tests fill;
        links are those made before (agents.launch_local)."""
        self.cfg = cfg
        self.envdir = envdir
        self.spool = spool or SpoolServer(cfg.spool, spoolspace.limits(cfg))
        self.link_for = link_for
        self.space = spoolspace.Space(cfg.spool)
        self.store = None
        self.jobs = {}              # unfinished jobs: (jobid, idx) -> row
        self.queue_state = {}       # queue -> {"open", "active"}
        self.hosts = {}             # host -> runtime record
        self.links = dict(links or {})  # host -> AgentLink
        self.replies = []           # (claimed request, reply) after commit
        self.new_job_data = {}      # job data not yet committed, by key
        self.stage_copies = []      # bsub -f copies back, after the commit
        self.stage_writers = {}     # pid -> the copy back it writes
        self.peeks = {}             # bpeek ticket -> the agent's answer
        self.index = JobIndex(self)  # ids, names, finished jobs for -w
        self.post_waiting = {}      # key -> finished job whose post runs
        # key -> (host, "finished" message) of a job whose finish waits
        # for its post-exec (JOB_INCLUDE_POSTPROC)
        self.finish_held = {}
        self.retry_waiting = {}     # key -> when a failed pre-exec may retry
        self.host_pre_waiting = {}  # key -> start held for HOST_PRE_EXEC
        # (host, start) sent ahead of the turn's commit, its go after it
        self.held_starts = []
        self.dirty = True           # something changed: schedule again
        # Bumped when what every pending job's view is made of changes
        # (configuration, host facts): the views are then rebuilt.
        self.view_epoch = 0
        self.declare_parts()
        # Pend reasons of every job are worked out at most every
        # REASONS_EVERY seconds; passes in between stop once no job can
        # start (scheduler reasons=False) and leave the others' as they are.
        self.reasons_at = float("-inf")
        self.reasons_stale = False
        # Set by a load report (reconcile); the time of the last pass.
        self.load_changed = False
        self.pass_at = float("-inf")
        self.agents_down = set()    # hosts held down by badmin hshutdown
        self.stopping = False
        self.undo = None            # the request being handled (isolate)
        self.now = time.time()
        self._next_jobid = 1
        self._next_seq = 1
        self._next_housekeeping = 0.0

    def declare_parts(self):
        """What each part of the controller keeps from turn to turn, each
        declared by its part: attributes are never added later."""
        self.passes = dispatch.PassState()       # pending views, order
        self.reservations = reserve.State()
        self.preempted = preemption.State()
        self.usage = jobusage.State()           # per-host usage reports
        self.lost_hosts = hostloss.State()
        self.clock = jobclock.State()           # bsub -b and -t
        self.windows = windows.State()          # time windows, loads
        self.job_groups = {}                    # path -> owner, limit
        self.claims = claims.State()            # GPUs and counters held
        self.gangs = {}                         # path -> size, on_failure
        self.exit_rates = exitclose.State()     # host -> recent exits
        self.retention = retention.State()      # old jobs to history.db

    # -- start-up ----------------------------------------------------------
    def start(self):
        self.spool.setup()
        self.store = Store(self.cfg.spool / "store" / "xce.db")
        self._next_jobid = int(self.store.meta("next_jobid", 1))
        self._next_seq = self.store.next_job_seq()
        agentctl.load(self)
        isolate.load_jobs(self)
        jobgroups.load(self)
        claims.load(self)
        gangs.load(self)
        jobclock.load(self)
        stage.load(self)        # bsub -f copies back not yet written
        self.index.load(self.store, *self.clean_cutoffs())
        # Private data of jobs forgotten while the controller was down.
        self.store.forget_job_data(self.store.job_data_ids() -
                                   set(self.index.ids))
        configure.apply_config(self, self.cfg,
                               self.store.saved_queue_states(),
                               self.store.saved_host_closed(),
                               self.store.saved_host_comments())
        exitclose.load(self)
        accept.load(self)       # JOB_ACCEPT_INTERVAL waits still running
        sharehist.load(self)    # finished jobs' fairshare use
        # The agents are reached (a local one launched) now rather than at
        # the first turn: they start while the rest of start-up commits.
        self._connect_links()
        configure.warn_unenforced(self.cfg)
        self.store.set_meta("cluster", self.cfg.cluster_name)
        self.store.set_meta("admins", " ".join(self.cfg.admins))
        self.store.set_meta("master", socket.gethostname())
        self.store.set_meta("controller_pid", os.getpid())
        self.store.set_meta("started", self.now)
        self.store.event(self.now, "CONTROLLER_START", pid=os.getpid())
        spoolspace.commit(self)
        write_lsf_view(self.envdir, configure.plain(self.cfg.raw),
                       self.cfg.spool)
        # What start-up loaded lives as long as the daemon: keep the cyclic
        # garbage collector from walking it again at every collection.
        gc.freeze()
        log.info("controller up: %d unfinished jobs, %d hosts",
                 len(self.jobs), len(self.hosts))

    # -- helpers the handlers use ------------------------------------------
    def is_admin(self, user):
        return user == "root" or user in self.cfg.admins

    def may(self, action, user, job, as_admin=False):
        """May *user* take *action* (xce.model.permissions) on *job*?
        *as_admin*: as one of its administrators, being its owner aside."""
        queue = self.cfg.queues.get(job.get("queue"))
        projects = self.cfg.projects
        managers = projects.managers_of(
            (job.get("spec") or {}).get("project")) \
            if projects.defined else ()
        return permissions.may(action, user,
                               None if as_admin else job["user"],
                               self.cfg.admins,
                               queue.admins if queue else (), managers,
                               self.cfg.group_admins_of(
                                   job["user"],
                                   (job.get("spec") or {}).get("user_group")))

    def next_jobid(self):
        """The new job's id (None when MAX_JOBID ids are all in use)."""
        jobid = jobids.allocate(
            self._next_jobid,
            self.cfg.param_int("MAX_JOBID", jobids.DEFAULT_MAX_JOBID),
            _InUse(self.index.ids, self.store))
        if jobid is not None:
            self._next_jobid = jobid + 1
            self.store.set_meta("next_jobid", self._next_jobid)
        return jobid

    def job_seq(self, jobid):
        """The new job's place in submission order (its row's seq): its
        job id until the ids wrap at MAX_JOBID, then on from the highest
        given, so that the queue's first-come order stays that of
        submission and a job id given again keeps the old job's row in
        history.db apart (its key is (jobid, idx, seq))."""
        seq = max(jobid, self._next_seq)
        self._next_seq = seq + 1
        if seq != jobid:        # else next_jobid says it (next_job_seq)
            self.store.set_meta("next_seq", self._next_seq)
        return seq

    def clean_periods(self):
        """(DONE, EXIT): how long finished jobs stay known (CLEAN_PERIOD,
        and CLEAN_PERIOD_DONE for DONE jobs)."""
        return cleanperiod.periods(self.cfg.params)

    def clean_cutoffs(self):
        """(DONE, EXIT): the end times before which finished jobs are
        forgotten now."""
        return cleanperiod.cutoffs(self.cfg.params, self.now)

    def label(self, job):
        return show(job["jobid"], job["idx"])

    def emit(self, kind, job, **data):
        """Record an event and apply it to the job, in the open batch."""
        hosts, attempt = job.get("exec_hosts"), job.get("attempt")
        was = job.get("stat")
        if self.undo is not None:
            self.undo.before(job)
        apply(job, kind, data, self.now)
        if hosts and job["stat"] in states.FINISHED | states.PENDING:
            blaunch.job_ended(self, job, hosts, attempt)  # its tasks die
            if was in states.RUNNING:
                hoststeps.job_ended(self, job, hosts, attempt)
        self.store.event(self.now, kind, job["jobid"], job["idx"], **data)
        self.store.save_job(job)
        schedpass.noted(self, job)      # the same in the simulator

    def find_jobs(self, jobid, idx):
        found = [j for (jid, i), j in self.jobs.items()
                 if jid == jobid and (idx is None or i == idx)] \
            if idx is None else \
            [self.jobs[(jobid, idx)]] if (jobid, idx) in self.jobs else []
        if not found:
            # A finished job the controller has forgotten (CLEAN_PERIOD)
            # is not found, as in LSF, whether or not its row has left
            # the store yet (retention).
            found = [j for j in self.store.job_briefs(jobid, idx)
                     if j["stat"] not in states.FINISHED or
                     (j["jobid"], j["idx"]) in self.index.finished]
        return found

    def send_signal(self, job, sig, reason):
        if hoststeps.signalled(self, job, sig, reason):
            return          # not started yet: no agent has it to signal
        host = (job["exec_hosts"] or "").split()[:1]
        msg = {"op": "signal", "job": job["jobid"], "idx": job["idx"],
               "attempt": job["attempt"], "signal": sig, "reason": reason,
               "interval": self.cfg.param_int("JOB_TERMINATE_INTERVAL", 10)}
        # The other hosts of the job signal the tasks blaunch put there.
        for name in host + blaunch.other_hosts(job):
            link = self.links.get(name)
            if link is not None:
                link.queue(msg)

    # -- one turn ------------------------------------------------------------
    def run_once(self, now=None, inbox=()):
        self.now = now if now is not None else time.time()
        for pid, status in _reap_children():
            stage.reaped(self, pid, status)
        self._connect_links()
        self.spool.drain_doorbell()
        self.space.measure(self.spool.limits)
        # Requests answered in a batch that is not committed yet (a full
        # spool) are not taken again.
        claimed = self.spool.claim(BATCH, skip={
            req.name for req, _ in self.replies}, now=self.now)
        for req in claimed:
            self._request(req)
        for host, msgs in inbox:
            reconcile.handle(self, host, msgs)
        hostloss.check(self, self.now)
        prepost.wake(self)
        jobclock.turn(self)
        accept.turn(self)
        windows.turn(self)
        claims.turn(self)
        rusagewake.turn(self)
        if self.dirty or reserve.due(self) or self._reasons_due() or \
                self._load_due():
            self._schedule()
        self._host_rows()
        if self.now >= self._next_housekeeping:
            self._next_housekeeping = self.now + HOUSEKEEPING
            self.store.forget_requests(self.now - REQUEST_ID_KEEP)
            self.spool.prune(self.now)
        retention.turn(self)
        startgo.send_held(self)     # the agents prepare during the commit
        if not spoolspace.commit(self):
            return RESCAN
        self._after_commit()
        if len(claimed) == BATCH:
            return 0.0
        wait = self._load_wait(RESCAN)
        if self.reasons_stale:
            wait = max(0.0, min(
                wait, self.reasons_at + REASONS_EVERY - self.now))
        return rusagewake.wait(self, accept.wait(self, claims.wait(
            self, windows.wait(self, jobclock.wait(self, wait)))))

    def _connect_links(self):
        for name, link in self.links.items():
            if name not in self.agents_down and link.try_connect(self.now):
                self.dirty = True

    def _request(self, req):
        stored = None if req.error else self.store.request_reply(req.id)
        if stored is None and not req.error:
            if self.space.refuses(req.doc["kind"]):
                # Nothing is recorded: the refusal must not need the space.
                self.space.answer(self.spool, req)
                return
            stored = self._handle_alone(req)
        if req.error:       # moved to rejected/ after the commit
            log.warning("rejected spool file %s from uid %s: %s", req.name,
                        req.uid, req.error)
            stored = {"ok": False, "error": req.error}
        self.replies.append((req, stored))

    def _handle_alone(self, req):
        """The handler's reply, recorded with the request id; a handler
        that raises is undone and its request rejected (req.error), and
        the rest of the batch commits."""
        self.undo = isolate.Undo(self)
        try:
            stored = self._handle(req)
        except Exception as e:
            self.undo.rollback()
            req.error = "Request failed: " + isolate.failure(e)
            log.debug("request %s failed", req.name, exc_info=True)
            return None
        finally:
            self.undo = None
        self.store.request_done(req.id, self.now, req.uid, req.doc["kind"],
                                stored)
        return stored

    def _handle(self, req):
        doc = req.doc
        try:
            user, _ = user_of(req.uid)
            kind = doc["kind"]
            if kind == "ping":          # xce start: the controller answers
                return {"ok": True}
            if kind == "submit":
                return submit.accept(self, req.uid, doc["spec"])
            if kind == "submit_many":
                return submit.accept_many(self, req.uid, doc)
            if kind in messages.KINDS:
                return messages.handle(self, user, doc, self.now)
            if kind == blaunch.KIND:
                return blaunch.handle(self, user, doc, self.now)
            if kind == claims.KIND:
                return claims.handle(self, user, doc, self.now)
            if kind == jobgroups.KIND:
                return jobgroups.handle(self, user, doc, self.now)
            if kind == gangs.KIND:
                return gangs.handle(self, user, doc, self.now)
            if kind == peek.KIND:
                return peek.handle(self, user, doc, self.now)
            if kind == explain.KIND:
                return explain.handle(self, user, doc, self.now)
            if kind == "control":
                return control.control(self, user, doc, self.now)
            if kind == "admin":
                return admin.admin(self, user, doc, self.now)
            if kind in modify.KINDS:
                return modify.handle(self, user, doc, self.now)
            return {"ok": False, "error": about(kind, "BAD_REQUEST_KIND")}
        except Rejected as e:
            self.undo.rollback()
            return {"ok": False, "error": str(e)}

    def _reasons_due(self):
        return self.reasons_stale and \
            self.now - self.reasons_at >= REASONS_EVERY

    def _load_waits(self):
        """New load indices, and jobs waiting (or a shared resource whose
        value an elim reports, which bhosts -s shows from the pass)."""
        return self.load_changed and (
            bool(self.passes.views) or dispatch.reported_shared(self.cfg))

    def _load_due(self):
        """A load-driven pass, when one waits and none ran for a while."""
        return self._load_waits() and \
            self.now - self.pass_at >= load_pass_every(self.cfg.params)

    def _load_wait(self, wait):
        """WAIT, or less when a load-driven pass falls due sooner."""
        if not self._load_waits():
            return wait
        due = self.pass_at + load_pass_every(self.cfg.params)
        return max(0.0, min(wait, due - self.now))

    def _schedule(self):
        self.dirty = self.load_changed = False
        self.pass_at = self.now
        every_reason = self.now - self.reasons_at >= REASONS_EVERY
        # The pass and the state changes it decides are schedpass's, the
        # simulator's too; only talking to agents and the store is here.
        decisions = schedpass.run(self, reasons=every_reason)
        if decisions is None:
            self.reasons_stale = False      # no pending job to give any
            return
        if every_reason:
            self.reasons_at, self.reasons_stale = self.now, False
        elif decisions.partial:
            self.reasons_stale = True
        for job in schedpass.settle(self, decisions):
            try:
                msg = startmsg.start_message(self, job)
                # held while other hosts run HOST_PRE_EXEC
                hoststeps.start(self, job, msg)
            except Exception as e:      # a job that cannot start ends EXIT
                isolate.fail_job(self, job, "cannot be started: " +
                                 isolate.failure(e))
        startgo.send_held(self)
        encoded = {}        # many jobs share one reasons list
        for key, reasons in decisions.reasons.items():
            job = self.jobs[key]
            value = encoded.get(id(reasons))
            if value is None:
                value = encoded[id(reasons)] = json.dumps(reasons)
            if job["pend_reason"] != value:
                job["pend_reason"] = value
                self.store.save_job(job)

    def _host_rows(self):
        for name, h in self.hosts.items():
            if h.get("saved_status") != hostloss.shown_status(self, name):
                configure.save_host(self, name)

    def job_data(self, job):
        """The environment and script of a job, for its start message."""
        key = (job["jobid"], job["idx"])
        data = self.new_job_data.get(key) or \
            self.new_job_data.get((key[0], 0))
        if data is None:
            # An array's elements share the row of index 0.
            row = self.store.job_data(*key)
            if row is None:     # never run a job with an empty environment
                raise RuntimeError(text("JOB_DATA_MISSING"))
            data = {"env": json.loads(row[0] or "{}"), "jobfile": row[1]}
        return data

    def _after_commit(self):
        # The agents' messages first: a job dispatched in this turn
        # starts while the replies and the lsb.events lines are written
        # (about a tenth of a submission's way from bsub to its job).
        for name, link in self.links.items():
            if not link.flush():
                self.link_lost(name)
        # Then the replies: the commit is what a reply stands for, and a
        # command waits on it; the files below wait on nobody (a reader
        # of lsb.events after a reply polls for its line, see
        # lsb.events(5)).
        for req, reply in self.replies:
            try:
                self.spool.reply(req, reply)
            except OSError as e:
                log.error("cannot reply to %s: %s", req.id, e)
            self.spool.remove(req)
        self.replies.clear()
        from xce.store.lsbfiles import after_commit     # lsb.events/lsb.acct
        after_commit(self.store, self.cfg.spool, self.cfg.cluster_name,
                     self.cfg.params, self.now)
        self.new_job_data.clear()
        retention.after_commit(self)
        stage.start_copies(self)
        # Last: the WAL's checkpoint, off the way of this turn's replies
        # (xce.store.walfile).
        self.store.checkpoints.run()

    def link_lost(self, name):
        link = self.links[name]
        if link.connected:
            log.warning("lost the agent on %s", name)
        link.close()
        # An agent asked to restart comes back: its jobs stay as they are.
        if self.hosts[name].get("seen") and \
                not agentctl.restarting(self, name, self.now):
            self._jobs_unknown(name)
        self.hosts[name]["seen"] = False
        self.dirty = True

    def _jobs_unknown(self, name):
        """The agent of NAME is gone: what its jobs do is unknown until it
        says hello again (reconcile puts them back in their state), or
        until the grace period ends (hostloss)."""
        hostloss.mark_unknown(self, name)


def _reap_children():
    """Collect exited children (a local agent that died, a bsub -f
    writer) so none lingers: (pid, status) of each."""
    out = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return out
        if pid == 0:
            return out
        out.append((pid, status))


class _InUse:
    """The job ids a new job may not get: those the controller knows
    (unfinished, or finished within CLEAN_PERIOD), and those whose rows
    are still in the store, not yet moved to history.db (retention)."""

    def __init__(self, known, store):
        self.known, self.store = known, store

    def __len__(self):
        return len(self.known)

    def __contains__(self, jobid):
        return jobid in self.known or self.store.has_job(jobid)
