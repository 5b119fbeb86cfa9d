"""A stand-in for the controller in unit tests of the controller's parts
(host loss, usage, reservation, load reports, profile checks, preemption),
and the spool and agent links the real controller is given when a test
drives its turns in process (FakeSpool, FakeAgentLink).

Those parts read and write state on the controller object they are given
(`ctl`); FakeController holds that state with no daemon, spool, store or
agents behind it, so a test sets up exactly the jobs and hosts it is about
and reads back what the part did: the events emitted and what would have
been written to the store."""

import itertools
import json
import os

from xce.config.model import Config
from xce.controller.apply import apply
from xce.controller.main import Controller
from xce.spool import layout
from xce.spool.bounds import SpoolLimits
from xce.spool import server
from xce.spool.server import Claimed
from xce.store.reader import Reader


class FakeStore:
    """Records what the controller's parts write, in order."""

    def __init__(self):
        self.meta = []          # (key, value) given to set_meta
        self.updates = []       # (what, args) of other row writes

    def set_meta(self, key, value):
        self.meta.append((key, value))

    def save_host_load(self, name, load):
        self.updates.append(("host load", (name, load)))


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


class FakeSpool:
    """The controller's side of the spool, in memory.  A test puts requests
    in as a command of this process's user would (put) and reads the
    controller's answers (replies, by request id).  No free-space floor:
    the spool's file system is not the test's subject."""

    def __init__(self):
        self.limits = SpoolLimits(min_free=0)
        self.doorbell = None
        self.incoming = []          # Claimed requests not yet removed
        self.replies = {}           # request id -> reply
        self._ids = itertools.count(1)

    def put(self, kind, body, uid=None):
        """Spool one request; returns its id.  It is read as the real
        spool reads a file: checked against the request schema."""
        req_id = f"{next(self._ids):020d}-{os.getpid()}-00000000"
        data = json.dumps(dict(body, version=layout.VERSION, kind=kind,
                               id=req_id)).encode()
        doc, error = server._parse(data, req_id)
        self.incoming.append(Claimed(
            name=f"{req_id}.json", id=req_id, size=len(data),
            uid=os.getuid() if uid is None else uid, doc=doc, error=error))
        return req_id

    def setup(self):
        return None

    def close(self):
        pass

    def drain_doorbell(self):
        pass

    def claim(self, limit=None, skip=(), now=0.0):
        found = [req for req in self.incoming if req.name not in skip]
        return found[:limit] if limit else found

    def reply(self, req, doc):
        self.replies[req.id] = doc

    def remove(self, req):
        self.incoming.remove(req)

    def prune(self, now):
        pass


class FakeAgentLink:
    """A host's agent link that is always up: what the controller queued
    for the agent is kept in `sent` once flushed (after the commit)."""

    sock = None

    def __init__(self, host, spool=None, conf=None):
        self.host = host
        self.connected = False
        self.out = []
        self.sent = []

    def try_connect(self, now):
        if self.connected:
            return False
        self.connected = True
        return True

    def queue(self, msg):
        self.out.append(msg)

    def flush(self):
        self.sent += self.out
        self.out = []
        return True

    def send(self, msgs):
        """Messages sent ahead of the commit (a held start)."""
        self.sent += msgs
        return True

    def recv(self):
        return []

    def close(self):
        self.connected = False
        self.out = []


def started_controller(cfg, envdir, now=None):
    """The real controller on *cfg*, driven in process: a FakeSpool for
    its spool and FakeAgentLinks for its agents, started (at *now*)."""
    ctl = Controller(cfg, envdir, spool=FakeSpool(), link_for=FakeAgentLink)
    if now is not None:
        ctl.now = now
    ctl.start()
    return ctl


class Turns:
    """Drives a started_controller's turns with host h1's agent link: one
    second of clock per turn, requests through its FakeSpool (as the user
    of *uid*, this process's by default), jobs' states from its store."""

    def __init__(self, ctl, now=1000.0):
        self.ctl, self.now = ctl, now

    def turn(self, inbox=()):
        self.now += 1
        self.ctl.run_once(self.now, inbox=list(inbox))

    def request(self, kind, body, uid=None):
        req = self.ctl.spool.put(kind, body, uid=uid)
        self.turn()
        return self.ctl.spool.replies[req]

    def sent_signals(self, since=0):
        return [m["signal"] for m in self.ctl.links["h1"].sent[since:]
                if m["op"] == "signal"]

    def signal(self, jobid, action, sig=None, uid=None):
        """One control request; (ok, the job's line or error, the signals
        the agent link got for it)."""
        sent = len(self.ctl.links["h1"].sent)
        reply = self.request("control", {
            "action": action, "signal": sig, "ids": [[str(jobid), jobid,
                                                      None]]}, uid=uid)
        result = reply["results"][0]
        return (result["ok"], result.get("error") or result["text"],
                self.sent_signals(sent))

    def running(self, spec, uid=None):
        """Submit *spec* and have h1's agent start it: its job id."""
        jobid = self.request("submit", {"spec": spec}, uid=uid)["jobid"]
        self.turn([("h1", [{"op": "started", "job": jobid, "idx": 0,
                            "attempt": 1, "pid": 4242,
                            "start_time": self.now}])])
        assert self.stat(jobid) == "RUN"
        return jobid

    def stat(self, jobid):
        with Reader(self.ctl.store.path) as reader:
            return {r["jobid"]: r["stat"] for r in reader.jobs()}[jobid]

    def events(self, jobid):
        """(kind, data) of the job's events, oldest first."""
        with Reader(self.ctl.store.path) as reader:
            return [(kind, json.loads(data)) for _, kind, job, _, data in
                    reader.events() if job == jobid]

    def event_kinds(self, jobid):
        return [kind for kind, _ in self.events(jobid)]
