"""xce sim --verify: replay a live run from its store and compare every
scheduling decision with the one the live controller made.

The store's event log is read in commit order and cut into the
controller's turns (the events of one turn share its time).  Within a
turn, what came from outside the scheduler -- submissions, job ends,
agents' reports, user and admin requests -- is applied to the virtual
cluster as the controller applied it; what the pass decided (START, and
the STATUS changes of preemption) is the live decision.  A pass then runs
here when the live controller would have run one (something changed, a
slot reservation ran out, an rusage[] reservation shrank) or did (it
decided something), and no more often (a pass clears what made it due,
as live), and its decisions
are compared with the live ones: which jobs, in which pass order, on
which hosts, suspended or resumed.  A difference is reported and the
replay goes on from its own decisions.

The cluster is the envdir's configuration with each host's facts as the
store kept them (CPUs, memory, type, model); load indices are not kept
per pass, so a live select[] or order[] on load cannot be verified.
"""

import json
import signal

from xce.controller import (admin, claims, gangs, prepost, reserve,
                            rusagewake, schedpass)
from xce.controller.apply import PREEMPTED
from xce.model import states
from xce.model.jobid import show, submitted_by
from xce.sim import history
from xce.sim.cluster import VirtualCluster
from xce.store.reader import Reader

# Spec keys the controller adds after submission (apply, preemption):
# the replayed events add them again.
_LATER_KEYS = tuple(k for k in history.LATER_KEYS if k != "depend")
# Events that are a pass's decisions, not its input.
_DECIDED = ("START",)
_ADMIN = ("QUEUE_CTRL", "HOST_CTRL", "CLAIM_ADD", "CLAIM_REMOVE",
          "GANG_SET", "GANG_UNSET")
_APPLIED = ("SUBMIT", "RUNNING", "USAGE", "FINISH", "STATUS", "SIGNAL",
            "MODIFY", "SWITCH", "REQUEUE", "MOVE", "OUTPUT")


class Verification:
    def __init__(self):
        self.decisions = 0      # live decisions compared
        self.kinds = {}         # start, preempt, resume -> how many
        self.passes = 0
        self.differences = []   # (time, what live did, what the replay did)
        self.skipped = {}       # event kind -> count not replayed


def verify(cfg, store_path):
    """Replay the run in the store at *store_path* under *cfg*."""
    with Reader(store_path, history=True) as reader:
        hosts = {h["name"]: h for h in reader.hosts()}
        rows = {}
        for j in reader.jobs():
            rows.setdefault((j["jobid"], j["idx"]), []).append(j)
        events = list(reader.events())
        now_gangs = reader.gangs()
    reported = {name: {k: h[k] for k in ("ncpus", "maxmem", "maxswp",
                                          "type", "model") if h.get(k)}
                for name, h in hosts.items()}
    cl = VirtualCluster(cfg, reported)
    cl.gangs = _first_gangs(now_gangs, events)
    out = Verification()
    seqs = {}
    for when, turn in _turns(events):
        cl.now = when
        live = []
        for kind, key, data in turn:
            if kind in _DECIDED or _preempting(kind, data):
                live.append(_decision(kind, key, data))
            elif kind in _ADMIN:
                _admin(cl, kind, data, out)
            elif kind in _APPLIED:
                try:
                    _apply(cl, rows, kind, key, data, seqs)
                except states.IllegalTransition as e:
                    # The replay's own decisions rule the live event out.
                    out.differences.append((
                        when, f"{kind} {show(*key)}", f"cannot: {e}"))
            else:
                out.skipped[kind] = out.skipped.get(kind, 0) + 1
        # Jobs whose wait after a failed pre-exec is over, as live.
        prepost.wake(cl)
        rusagewake.turn(cl)     # a reservation's duration or decay freed
        if live or cl.dirty or reserve.due(cl):
            _compare(cl, when, live, out)
    return out


def _first_gangs(now_gangs, events):
    """The gangs at the start of the log: none, but for gangs of a store
    from before GANG_SET was an event, which are taken as they are now
    (those no GANG_SET or GANG_UNSET names)."""
    logged = {json.loads(data or "{}").get("path")
              for _, kind, _, _, data in events
              if kind in ("GANG_SET", "GANG_UNSET")}
    return {p: {"size": n, "on_failure": f} for p, n, f in now_gangs
            if p not in logged}


def _turns(events):
    """[(time, [(kind, key, data)])]: one list per controller turn."""
    turns = []
    for when, kind, jobid, idx, data in events:
        if not jobid and kind not in _ADMIN:
            continue        # the controller's own: start, reconfig
        item = (kind, (jobid, idx), json.loads(data or "{}"))
        if turns and turns[-1][0] == when:
            turns[-1][1].append(item)
        else:
            turns.append((when, [item]))
    return turns


def _admin(cl, kind, data, out):
    """xce gang set/unset, xce claim add/remove, and badmin
    qopen/qclose/qact/qinact and hopen/hclose, as the controller applies
    them; other host controls (agents' restart) are not."""
    op = data.get("op")
    if kind == "GANG_SET" and data.get("path"):
        gangs.put(cl, data["path"], data["size"], data["on_failure"])
    elif kind == "GANG_UNSET" and data.get("path"):
        gangs.dropped(cl, data["path"])
    elif kind == "CLAIM_ADD" and (data.get("host") in cl.hosts or
                                  data.get("counters")):
        claims.add(cl, data["claim"], data["user"], data["host"],
                   data["gpus"], data.get("until"), data.get("counters"))
    elif kind == "CLAIM_REMOVE" and data.get("claim") in cl.claims.by_id:
        claims.remove(cl, data["claim"])
    elif kind == "QUEUE_CTRL" and op in admin.QUEUE_OPS and \
            data.get("queue") in cl.queue_state:
        field, value, _ = admin.QUEUE_OPS[op]
        cl.queue_state[data["queue"]][field] = value
    elif kind == "HOST_CTRL" and op in admin.HOST_OPS and \
            data.get("host") in cl.hosts:
        cl.hosts[data["host"]]["adm_closed"] = admin.HOST_OPS[op]
    else:
        out.skipped[f"{kind} {op}"] = out.skipped.get(f"{kind} {op}", 0) + 1
        return
    cl.dirty = True


def _preempting(kind, data):
    return kind == "STATUS" and data.get("reason") == PREEMPTED


def _decision(kind, key, data):
    if kind == "START":
        return ("start", key, " ".join(data["hosts"]))
    return ("preempt" if data["stat"] == states.SSUSP else "resume", key, "")


def _apply(cl, rows, kind, key, data, seqs):
    job = cl.jobs.get(key)
    if kind == "SUBMIT":
        job = _new_row(_submitted(rows[key], cl.now), data)
        # One seq per submission (an array's elements share it), given
        # as the controller gave it (*seqs*: (jobid, time) -> seq).
        mark = (key[0], cl.now)
        if mark not in seqs:
            seqs[mark] = cl.job_seq(key[0])
        job["seq"] = seqs[mark]
    elif job is None:
        return              # ended here already
    cl.emit(kind, job, **data)


def _submitted(found, when):
    """Of the rows of one job id and index (several when the id was
    given again), the job submitted last at or before *when*."""
    return submitted_by(sorted(found, key=lambda r: r["submit_time"] or 0),
                        when, lambda r: r["submit_time"])


def _new_row(row, data):
    """The job as submit.new_job made it, from its stored row."""
    spec = row["spec"]
    spec = dict(json.loads(spec) if isinstance(spec, str) else spec or {})
    for key in _LATER_KEYS:
        spec.pop(key, None)
    job = dict.fromkeys(row)
    job.update({k: row[k] for k in ("jobid", "idx", "user", "uid", "name",
                                    "command", "from_host", "outfile",
                                    "errfile")})
    job.update({"queue": data.get("queue", row["queue"]), "attempt": 0,
                "nslots": (spec.get("nslots") or [1])[0],
                "seq": row["jobid"], "spec": spec})
    return job


def _compare(cl, when, live, out):
    out.passes += 1
    # As the controller's pass: what made it due is dealt with (a pass
    # that leaves something to do marks the cluster dirty again).
    cl.dirty = False
    decisions = schedpass.run(cl)
    mine = []
    if decisions is not None:
        started = schedpass.settle(cl, decisions)
        mine = [("preempt" if sig == signal.SIGSTOP else "resume",
                 (job["jobid"], job["idx"]), "")
                for job, sig in cl.signals]
        mine += [("start", (job["jobid"], job["idx"]), job["exec_hosts"])
                 for job in started]
        cl.signals.clear()
    live = [d for d in live if d[0] != "start"] + \
        [d for d in live if d[0] == "start"]
    out.decisions += len(live)
    for what, _, _ in live:
        out.kinds[what] = out.kinds.get(what, 0) + 1
    if mine != live:
        out.differences.append((when, _words(live), _words(mine)))


def _words(decisions):
    return "; ".join(f"{what} {show(*key)}" + (f" on {hosts}" if hosts
                                                else "")
                     for what, key, hosts in decisions) or "nothing"


def report(v):
    """The lines xce sim --verify prints."""
    kinds = ", ".join(f"{v.kinds.get(k, 0)} {k}(s)"
                      for k in ("start", "preempt", "resume"))
    lines = [f"verified {v.decisions} live decision(s) ({kinds}) in "
             f"{v.passes} pass(es): {len(v.differences)} difference(s)"]
    for when, live, mine in v.differences:
        lines.append(f"time {when:.3f}: live: {live}; replay: {mine}")
    for kind, n in sorted(v.skipped.items()):
        lines.append(f"not replayed: {n} {kind} event(s)")
    return lines
