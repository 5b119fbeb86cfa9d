"""From controller state to the scheduler's snapshot, and from a dispatch
decision to the agent's start message."""

from xce.model import states
from xce.model.jobid import show
from xce.scheduler.core import HostView, PendingJob, QueueView


def snapshot(ctl):
    """Queues, hosts and pending jobs as the pure scheduler sees them."""
    hosts = {name: HostView(name, host_status(ctl, name), h["max_slots"],
                            jl_u=h["conf"].jl_u)
             for name, h in ctl.hosts.items()}
    queues = {name: QueueView(name, q.priority,
                              active=ctl.queue_state[name]["active"],
                              hosts=q.hosts, qjob_limit=q.qjob_limit,
                              ujob_limit=q.ujob_limit, hjob_limit=q.hjob_limit)
              for name, q in ctl.cfg.queues.items()}
    pending = []
    for job in ctl.jobs.values():
        stat = job["stat"]
        if stat == states.PEND:
            pending.append(PendingJob(
                (job["jobid"], job["idx"]), job["queue"], job["user"],
                job["nslots"], job["seq"],
                job["spec"].get("user_priority") or 0))
        elif stat in states.RUNNING:
            _count_running(job, hosts, queues)
    return list(queues.values()), list(hosts.values()), pending


def _count_running(job, hosts, queues):
    q = queues.get(job["queue"])
    for name in (job["exec_hosts"] or "").split():
        h = hosts.get(name)
        if h is not None:
            h.used += 1
            h.user_used[job["user"]] = h.user_used.get(job["user"], 0) + 1
        if q is not None:
            q.host_used[name] = q.host_used.get(name, 0) + 1
    if q is not None:
        q.used += job["nslots"]
        q.user_used[job["user"]] = q.user_used.get(job["user"], 0) + \
            job["nslots"]


def host_status(ctl, name):
    h = ctl.hosts[name]
    link = ctl.links.get(name)
    if link is None or not link.connected or not h.get("seen"):
        return "unavail"
    if h["adm_closed"]:
        return "closed_Adm"
    return "ok"


def expand(path, jobid, idx):
    """LSF's %J and %I in file names."""
    if path is None:
        return None
    return path.replace("%J", str(jobid)).replace("%I", str(idx))


def start_message(ctl, job):
    spec = job["spec"]
    jobid, idx = job["jobid"], job["idx"]
    data = ctl.job_data(job)
    command_lines = (data["jobfile"] or spec["command"]).splitlines()
    jobfile = data["jobfile"] or f"#!/bin/sh\n{spec['command']}\n"
    return {
        "op": "start", "job": jobid, "idx": idx, "attempt": job["attempt"],
        "label": show(jobid, idx), "user": job["user"], "uid": spec["uid"],
        "gid": spec["gid"], "queue": job["queue"], "name": job["name"],
        "jobfile": jobfile, "command_lines": command_lines,
        "cwd": expand(spec["cwd"], jobid, idx), "subcwd": spec["subcwd"],
        "env": data["env"], "args": spec.get("args") or [],
        "stdin": expand(spec.get("stdin"), jobid, idx),
        "stdout": expand(spec.get("stdout"), jobid, idx),
        "stdout_mode": spec.get("stdout_mode", "a"),
        "stderr": expand(spec.get("stderr"), jobid, idx),
        "stderr_mode": spec.get("stderr_mode", "a"),
        "hosts": (job["exec_hosts"] or "").split(),
        "runlimit": (spec["runlimit"] * 60 if spec.get("runlimit") else None),
        "memlimit": spec.get("memlimit"),
        "terminate_interval": ctl.cfg.param_int("JOB_TERMINATE_INTERVAL", 10),
        "from_host": job["from_host"], "submit_time": job["submit_time"],
        "cluster": ctl.cfg.cluster_name, "restart": job["attempt"] > 1,
    }
