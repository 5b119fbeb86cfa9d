"""What the controller does with agent messages, and the hello reconciliation.

Every job message carries job, idx and attempt.  A report for an attempt
that is no longer current comes from a stale copy: it is acknowledged and
otherwise ignored, and a stale copy still running is killed (fenced).
"""

import json
import logging
import signal

from xce.config.load import LOAD_INDICES
from xce.controller import (blaunch, configure, elimconf, exitclose,
                            hostloss, hoststeps, interactive, jobusage,
                            peek, prepost, requeue, stage, startgo,
                            startmsg)
from xce.model import states

log = logging.getLogger("xce.controller")


def handle(ctl, host, msgs):
    for msg in msgs:
        op = msg.get("op")
        try:
            if op == "hello":
                _hello(ctl, host, msg)
            elif op == "started":
                _started(ctl, host, msg)
            elif op == "usage":
                _usage(ctl, msg)
            elif op == "finished":
                _finished(ctl, host, msg)
            elif op == "output":
                _output(ctl, msg)
            elif op == "post":
                _post(ctl, host, msg)
                _ack(ctl, host, msg)
            elif op == "host_steps_done":
                hoststeps.reported(ctl, host, msg)
            elif op == "task_exit":
                blaunch.task_exit(ctl, host, msg)
            elif op == "task_usage":
                blaunch.task_usage(ctl, host, msg)
            elif op == "load":
                _load(ctl, host, msg["load"], msg.get("ext"))
            elif op == "peeked":
                peek.answered(ctl, msg)
            elif op != "pong":
                log.warning("agent %s: unknown op %r", host, op)
        except (KeyError, TypeError, ValueError) as e:
            log.warning("agent %s: bad %s message: %r", host, op, e)


def _current(ctl, msg, zombi=False):
    """The job if *msg* is about its current attempt, else None; a ZOMBI
    job (killed while its host was lost) only if *zombi*."""
    job = ctl.jobs.get((int(msg["job"]), int(msg.get("idx", 0))))
    if job is None or job["attempt"] != msg["attempt"] or \
            job["stat"] not in (_ZOMBI_TOO if zombi else states.RUNNING):
        return None
    return job


_ZOMBI_TOO = states.RUNNING | {states.ZOMBI}


def _ack(ctl, host, msg):
    ctl.links[host].queue({"op": "ack", "job": msg["job"],
                           "idx": msg.get("idx", 0),
                           "attempt": msg["attempt"]})


def _hello(ctl, host, msg):
    h = ctl.hosts[host]
    # The load rides with the facts (save_host writes it); a hello without
    # one keeps the last.
    load = _indices(msg["load"], ctl.cfg, msg.get("ext")) \
        if msg.get("load") else h["facts"].get("load")
    h["facts"] = dict(msg.get("facts") or {})
    if load:
        h["facts"]["load"] = load
    ctl.view_epoch += 1         # a host's type may be a job's local type
    h["seen"] = True
    h["protocol"] = int(msg.get("v") or 1)     # what the agent understands
    hostloss.reset_after_hello(ctl, host)
    elimconf.send(ctl, host)
    configure.update_slots(ctl, host)
    configure.save_host(ctl, host)
    known = set()
    for entry in msg.get("jobs", []):
        known.add((entry["job"], entry.get("idx", 0), entry["attempt"]))
        if entry["state"] == "finished":
            _finished(ctl, host, dict(entry["result"], **_ids(entry)))
            if entry.get("post_state"):
                _post(ctl, host, dict(_ids(entry),
                                      post_state=entry["post_state"]))
        elif entry["state"] == "running":
            _started(ctl, host, entry)
    startgo.discarded(ctl, host, msg, known)     # never ran: PEND again
    hostloss.zombies_unknown_to(ctl, host, known)
    hostloss.unknown_to(ctl, host, known)
    blaunch.hello(ctl, host, msg)
    hoststeps.hello(ctl, host)
    # Dispatched here but never heard of by the agent: the start was lost
    # when the controller stopped before sending it (or while it waited
    # on the other hosts' HOST_PRE_EXEC).  Start it again, held again
    # for those.
    for job in list(ctl.jobs.values()):
        hosts = (job["exec_hosts"] or "").split()
        if job["stat"] in states.RUNNING - {states.UNKWN} and hosts and \
                hosts[0] == host and \
                (job["jobid"], job["idx"], job["attempt"]) not in known and \
                (job["jobid"], job["idx"]) not in ctl.host_pre_waiting:
            log.info("resending start of job %s to %s", ctl.label(job), host)
            hoststeps.start(ctl, job, startmsg.start_message(ctl, job),
                            again=True)
    ctl.dirty = True


def _indices(load, cfg, ext=None):
    """The load indices of an agent's report (lsload(1)), as numbers;
    other keys are ignored.  What the host's elims report (``ext``) rides
    along under "ext", kept only for defined resources."""
    out = {k: float(load[k]) for k in LOAD_INDICES if k in load}
    ext = elimconf.values(cfg, ext)
    if ext:
        out["ext"] = ext
    return out


def _load(ctl, host, load, ext=None):
    """The agent's periodic load report: kept for lsload and bhosts -l,
    and for the next pass's host view (select[], order[]).  Only the host
    row's load column changes, so it costs one update; the pending jobs'
    views stay as they are (no view_epoch bump)."""
    load = ctl.hosts[host]["facts"]["load"] = _indices(load, ctl.cfg, ext)
    ctl.load_changed = True
    ctl.store.save_host_load(host, json.dumps(load))


def _ids(entry):
    return {"job": entry["job"], "idx": entry.get("idx", 0),
            "attempt": entry["attempt"]}


def _started(ctl, host, msg):
    job = _current(ctl, msg, zombi=True)
    if job is None:
        _fence(ctl, host, msg)
        return
    if job["stat"] == states.ZOMBI:
        hostloss.kill_zombie(ctl, host, job)
        return
    if job["stat"] == states.UNKWN:
        # Its agent is back and it still runs: its state is known again.
        ctl.emit("STATUS", job, **hostloss.back_from_unknown(job))
    if job["pgid"] != msg["pid"]:
        ctl.emit("RUNNING", job, pid=msg["pid"],
                 start_time=msg.get("start_time"), stdout=msg.get("stdout"))


def _usage(ctl, msg):
    job = _current(ctl, msg)
    if job is not None:
        # Plus what its blaunch tasks on other hosts use.
        cpu, mem = jobusage.report(ctl, job, jobusage.MAIN,
                                   msg.get("cpu_time"), msg.get("mem"))
        ctl.emit("USAGE", job, cpu_time=cpu,
                 max_mem=max(mem, msg.get("max_mem") or 0),
                 pids=msg.get("pids"))


def _post(ctl, host, msg):
    """The job's post-exec has ended: a finish held for it
    (JOB_INCLUDE_POSTPROC) is applied first, its finish time now."""
    key = (int(msg["job"]), int(msg.get("idx", 0)))
    held = ctl.finish_held.get(key)
    if held is not None and held[1]["attempt"] == msg["attempt"]:
        del ctl.finish_held[key]
        _finished(ctl, held[0], dict(held[1], end_time=ctl.now), held=True)
    prepost.post_reported(ctl, msg)


def _finished(ctl, host, msg, held=False):
    job = _current(ctl, msg, zombi=True)
    if job is not None and msg.get("pre_failed") is not None and \
            job["stat"] != states.ZOMBI:
        prepost.pre_failed(ctl, job, int(msg["pre_failed"]))
    elif job is not None and job["stat"] != states.ZOMBI and \
            requeue.after_finish(ctl, job, msg):
        pass
    elif job is not None and not held and msg.get("post_pending") and \
            job["stat"] != states.ZOMBI and prepost.includes_postproc(ctl, job):
        # JOB_INCLUDE_POSTPROC: the job runs on, with its slots, until
        # its post-exec has ended.  Its exit is not acknowledged, so the
        # agent says it again at its next hello (after a controller
        # restart the hold is taken up again from there).
        ctl.finish_held[(job["jobid"], job["idx"])] = (host, msg)
        return
    elif job is not None:
        cpu, max_mem = jobusage.at_finish(ctl, job, msg.get("cpu_time"),
                                          msg.get("max_mem"))
        stat = _final_stat(ctl, job, msg)
        ctl.emit("FINISH", job, stat=stat,
                 exit_code=msg.get("exit_code"), reason=msg.get("reason"),
                 end_time=msg.get("end_time"), cpu_time=cpu,
                 max_mem=max_mem, avg_mem=msg.get("avg_mem"),
                 **_fallback(job, msg), **_post_pending(ctl, job, msg),
                 **_exec_cwd(msg), **stage.errors(job, msg))
        stage.returned(ctl, job, msg)       # bsub -f copies back
        exitclose.note_finish(ctl, job, stat, msg.get("reason"))
        prepost.note_finish(ctl, job)
        if job["spec"].get("interactive"):
            interactive.forget(ctl, job["jobid"])
    elif _already_final(ctl, msg):
        pass
    else:
        log.info("ignoring a stale report of job %s attempt %s",
                 msg["job"], msg["attempt"])
    _ack(ctl, host, msg)


def _final_stat(ctl, job, msg):
    """DONE or EXIT as the agent saw it, except that a job killed with
    bkill -d is DONE however it exited (LSF 10.1), and one that exited by
    itself with a SUCCESS_EXIT_VALUES code of its profile is DONE."""
    spec = job["spec"] or {}
    if spec.get("kill_as_done"):
        return states.DONE
    app = ctl.cfg.apps.get(spec.get("app") or "")
    if app is not None and msg["stat"] == states.EXIT and \
            not msg.get("reason") and msg.get("exit_code") in app.success:
        return states.DONE
    return msg["stat"]


def _post_pending(ctl, job, msg):
    """Its post-exec runs now; a "post" message tells how it ended, and
    each other host that runs its HOST_POST_EXEC says how its part did."""
    if not msg.get("post_pending"):
        return {}
    others = hoststeps.post_hosts(ctl, job)
    return {"post_pending": True, **({"post_hosts": others} if others
                                     else {})}


def _exec_cwd(msg):
    """The directory the job ran in when its own was missing (/tmp, as
    LSF runs it there: xce.agent.spawn), for bjobs -l and bhist -l."""
    where = msg.get("exec_cwd")
    return {"exec_cwd": where} if where == "/tmp" else {}


def _fallback(job, msg):
    """The agent's record of -o/-e files the user could not open (their
    output went to the fallback file), for an event unless the job has
    it already (an OUTPUT event said it while the job ran)."""
    moved = msg.get("output_fallback")
    if not isinstance(moved, dict) or \
            (job["spec"] or {}).get("output_fallback") == moved:
        return {}
    return {"output_fallback": moved}


def _output(ctl, msg):
    """A running job's -o/-e fallback, and /tmp when its working
    directory was missing, learnt a moment after its start."""
    job = _current(ctl, msg)
    if job is not None:
        said = _fallback(job, msg)
        if (job["spec"] or {}).get("exec_cwd") != msg.get("exec_cwd"):
            said.update(_exec_cwd(msg))
        if said:
            ctl.emit("OUTPUT", job, **said)


def _already_final(ctl, msg):
    return (int(msg["job"]), int(msg.get("idx", 0))) not in ctl.jobs


def _fence(ctl, host, msg):
    """A copy of a job that is not (or no longer) meant to run here."""
    log.warning("fencing stale job %s attempt %s on %s", msg["job"],
                msg["attempt"], host)
    ctl.links[host].queue({"op": "signal", "job": msg["job"],
                           "idx": msg.get("idx", 0),
                           "attempt": msg["attempt"],
                           "signal": int(signal.SIGKILL), "reason": None,
                           "fence": True})
