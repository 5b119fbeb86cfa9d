"""The controller's state as the shared scheduling pass reads it, kept in
virtual time: no store, no spool, no agents.

VirtualCluster has the attributes xce.controller.schedpass documents;
its jobs are rows of the controller's shape, submitted through the
controller's own checks (submit.admit) and changed only by the
controller's own apply(), so a pass here sees what a pass live would.
Every host is up: an agent is connected and has said hello.
"""

from xce.controller import dispatch, preemption, reserve, schedpass, submit
from xce.controller import claims, exitclose, gangs, windows
from xce.controller.apply import apply
from xce.controller.jobindex import JobIndex
from xce.model import cleanperiod, states
from xce.model.jobid import show
from xce.model.resources import LOAD_INDICES


class _Up:
    """An agent link that is always connected (host_status reads it)."""
    connected = True


class _NoStore:
    """What a pass publishes for bhosts and blimits has no reader here."""

    def set_meta(self, key, value):
        pass

    def save_claim(self, *row):
        pass

    def save_queue(self, row):
        pass

    def delete_claim(self, claim_id):
        pass

    def save_gang(self, path, size, on_failure):
        pass

    def delete_gang(self, path):
        pass

    def event(self, now, kind, jobid=0, idx=0, **data):
        pass


class VirtualCluster:
    def __init__(self, cfg, reported=None, elim_values=None):
        """reported: host -> what its agent would report (ncpus, maxmem,
        type); by default only the configured ncpus.  elim_values: host
        -> {resource: value} its elims would report (xce.sim.elimvalues),
        kept where a live agent's load report puts them."""
        self.cfg = cfg
        self.now = 0.0
        self.jobs = {}              # unfinished jobs: (jobid, idx) -> row
        self.queue_state = {name: {"open": True, "active": True}
                            for name in cfg.queues}
        self.hosts = {}
        for name, hc in cfg.hosts.items():
            facts = dict((reported or {}).get(name) or
                         ({"ncpus": hc.ncpus} if hc.ncpus else {}))
            ext = dict((elim_values or {}).get(name) or {})
            # Built-in load indices go where the agent's load puts them.
            load = {k: ext.pop(k) for k in LOAD_INDICES if k in ext}
            if ext:
                load["ext"] = ext
            if load:
                facts["load"] = {**(facts.get("load") or {}), **load}
            self.hosts[name] = {"conf": hc, "facts": facts, "seen": True,
                                "adm_closed": False,
                                "max_slots": schedpass.max_slots(hc, facts)}
        self.links = {name: _Up() for name in self.hosts}
        self.store = _NoStore()
        self.passes = dispatch.PassState()
        self.claims = claims.State()
        self.reservations = reserve.State()
        self.preempted = preemption.State()
        self.windows = windows.State()  # time windows and loads
        # key -> when a job whose pre-exec failed may be dispatched again
        # (xce.controller.prepost: the pass fills it, wake() empties it).
        self.retry_waiting = {}
        self.index = JobIndex(self)
        self.view_epoch = 1
        self.dirty = True
        self.signals = []           # (job, signal) preemption sent
        self.kills = []             # (job, exit reason) to end now
        self.gangs = {}             # gang groups, as controller.gangs keeps
        self.exit_rates = exitclose.State()     # host -> recent exits
        self._last_jobid = 0
        self._next_seq = 1

    @property
    def slots(self):
        return sum(h["max_slots"] for h in self.hosts.values())

    def is_admin(self, user):
        return user == "root" or user in self.cfg.admins

    def clean_cutoffs(self):
        """The controller's: finished jobs are forgotten CLEAN_PERIOD
        after they ended, for the dependencies on them too."""
        return cleanperiod.cutoffs(self.cfg.params, self.now)

    def label(self, job):
        return show(job["jobid"], job["idx"])

    def emit(self, kind, job, **data):
        """The controller's emit without the store: apply, then the pass
        bookkeeping (schedpass.noted)."""
        pending = job.get("stat") in states.PENDING
        apply(job, kind, data, self.now)
        schedpass.noted(self, job)
        if pending and data.get("reason") == gangs.TERM_GANG:
            # Ended while pending by its gang's policy: the replay's
            # record ends too.
            self.kills.append((job, None))

    def send_signal(self, job, sig, reason):
        if sig == "KILLSEQ":    # a gang's failure policy (controller.gangs)
            self.kills.append((job, reason))
            return
        self.signals.append((job, sig))

    def submit(self, spec, user, jobid=None):
        """Submit a job of *user* now, through the controller's checks
        (its -G, -g and -sla ones too); the row, or submit.Rejected with
        the controller's message."""
        self._want = jobid
        submit.check_profiles(self, spec, user)
        job, _ = submit.admit(self, spec, user, 0, 0)
        submit.emit_submitted(self, job, spec)
        return job

    def job_seq(self, jobid):
        """The controller's rule (Controller.job_seq): the job id, or on
        from the highest given once the ids wrapped."""
        seq = max(jobid, self._next_seq)
        self._next_seq = seq + 1
        return seq

    def next_jobid(self):
        """The trace's own job number when it still grows, else the next."""
        want = self._want
        jobid = want if want and want > self._last_jobid else \
            self._last_jobid + 1
        self._last_jobid = jobid
        return jobid
