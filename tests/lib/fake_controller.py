"""A stand-in for the controller in unit tests of the controller's parts
(host loss, usage, reservation, load reports, profile checks, preemption).

Those parts read and write state on the controller object they are given
(`ctl`); this one holds that state with no daemon, spool, store or agents
behind it, so a test sets up exactly the jobs and hosts it is about and
reads back what the part did: the events emitted and what would have been
written to the store."""

from xce.config.model import Config
from xce.controller.apply import apply
from xce.controller.main import Controller


class FakeStore:
    """Records what the controller's parts write, in order."""

    def __init__(self):
        self.meta = []          # (key, value) given to set_meta
        self.updates = []       # (sql, args) given to execute

    def set_meta(self, key, value):
        self.meta.append((key, value))

    def execute(self, sql, args=()):
        self.updates.append((sql, args))


class FakeController:
    """The controller's shared state under the names the real one uses.

    cfg: the configuration (an empty one unless given); jobs: job rows,
    kept by (jobid, idx); hosts: host name -> runtime record; state: any
    other attribute a part reads (view_epoch, links, ...).  Each part's
    own state (passes, reservations, preempted, usage, lost_hosts) is
    built as the controller builds it.  Nothing has changed yet (dirty is
    False) and the clock stands at `now`."""

    is_admin = Controller.is_admin
    label = Controller.label
    declare_parts = Controller.declare_parts

    def __init__(self, cfg=None, jobs=(), hosts=None, now=0.0, **state):
        self.cfg = cfg if cfg is not None else Config(path=None)
        self.jobs = {}
        for job in jobs:
            self.add(job)
        self.hosts = dict(hosts or {})
        self.links = {}
        self.agents_down = set()
        self.store = FakeStore()
        self.events = []        # (kind, jobid, data) as emitted
        self.dirty = False
        self.load_changed = False
        self.view_epoch = 0
        self.now = now
        self.declare_parts()
        self.__dict__.update(state)

    def add(self, job):
        """Keep a job row as an unfinished job; returns the row."""
        self.jobs[(job["jobid"], job["idx"])] = job
        return job

    def emit(self, kind, job, **data):
        """Apply an event to the job as the controller does; keep it."""
        apply(job, kind, data, self.now)
        self.events.append((kind, job["jobid"], data))
