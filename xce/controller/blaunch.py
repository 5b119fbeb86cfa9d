"""blaunch requests: tasks of a running job started on the job's hosts.

The request comes from inside the job, so its spool file's owner is the
job's user (or an administrator).  Each named host gets a ``task`` message
carrying the job's id and current attempt; its agent spawns the task as the
job's user and reports ``task_exit``, which is recorded as a TASK_EXIT
event that blaunch reads back from the store.  A report of another attempt
is a stale copy's and is dropped.  Tasks are signalled with the job (every
signal goes to all of its hosts) and killed when the job ends or is
requeued (``task_kill`` to each of its hosts, and again at an agent's
hello for tasks it still has of a job that is over).  The tasks' CPU and
memory count in the job's usage (see jobusage).
"""

import logging

from xce.controller import jobusage
from xce.errors import text
from xce.model import gpus, states
from xce.model.jobid import show

log = logging.getLogger("xce.controller")

KIND = "blaunch"
# What a task may take from blaunch's request, checked for type.
_TEXT_KEYS = ("cwd", "stdout")


def handle(ctl, user, doc, now):
    jobid, idx = int(doc["job"]), int(doc.get("idx") or 0)
    label = show(jobid, idx)
    job = ctl.jobs.get((jobid, idx))
    if job is None or job["stat"] not in states.RUNNING:
        return {"ok": False, "error": text("JOB_ERROR", job=label,
                                              error=text("JOB_NOT_RUNNING"))}
    if not ctl.may("blaunch", user, job):
        return {"ok": False, "error": text("JOB_ERROR", job=label,
                                              error=text("PERMISSION"))}
    allocated = (job["exec_hosts"] or "").split()
    hosts = [str(h) for h in doc["hosts"]]
    if not hosts:
        return {"ok": False, "error": text("NO_LAUNCH_HOST")}
    for host in hosts:
        if host not in allocated:
            return {"ok": False, "error": text("HOST_NOT_ALLOCATED",
                                               host=host, job=label)}
    argv = [str(a) for a in doc["argv"]]
    if not argv:
        return {"ok": False, "error": text("NO_LAUNCH_COMMAND")}
    for n, host in enumerate(hosts):
        ctl.links[host].queue(_task_message(job, doc, argv, n))
    ctl.store.event(now, "TASK_START", jobid, idx, task=doc["id"],
                    hosts=hosts, attempt=job["attempt"])
    return {"ok": True, "task": doc["id"], "hosts": hosts}


def _task_message(job, doc, argv, n):
    spec = job["spec"]
    env = {str(k): str(v) for k, v in (doc.get("env") or {}).items()}
    # The task sees its own host's GPUs, not those of the host it was
    # launched from.
    env.update(gpus.job_env(spec.get("gpu_alloc"), doc["hosts"][n]))
    msg = {"op": "task", "job": job["jobid"], "idx": job["idx"],
           "attempt": job["attempt"], "task": doc["id"], "n": n,
           "argv": argv, "env": env, "uid": spec["uid"], "gid": spec["gid"],
           "user": job["user"]}
    for key in _TEXT_KEYS:
        if isinstance(doc.get(key), str):
            msg[key] = doc[key]
    return msg


def task_exit(ctl, host, msg, again=False):
    """An agent's report that a task ended, acknowledged so that the agent
    forgets it; a stale attempt's is dropped, and one sent *again* (at a
    hello) is recorded only if it was not already."""
    ctl.links[host].queue({"op": "task_ack", **{
        k: msg.get(k) for k in ("job", "idx", "attempt", "task", "n")}})
    job = ctl.jobs.get((int(msg["job"]), int(msg.get("idx", 0))))
    if job is None or job["attempt"] != msg["attempt"]:
        log.info("ignoring a stale task report of job %s attempt %s",
                 msg["job"], msg["attempt"])
        return
    if again and _recorded(ctl, job, msg):
        return
    ctl.store.event(ctl.now, "TASK_EXIT", job["jobid"], job["idx"],
                    task=msg["task"], n=msg.get("n"), host=host,
                    exit_code=msg.get("exit_code"),
                    cpu_time=msg.get("cpu_time"))


def task_usage(ctl, host, msg):
    """CPU and memory of the job's tasks on HOST, added to the job's."""
    job = ctl.jobs.get((int(msg["job"]), int(msg.get("idx", 0))))
    if job is None or job["attempt"] != msg["attempt"] or \
            job["stat"] not in states.RUNNING:
        return
    cpu, mem = jobusage.report(ctl, job, host, msg.get("cpu_time"),
                               msg.get("mem"))
    ctl.emit("USAGE", job, cpu_time=cpu, max_mem=mem)


def _recorded(ctl, job, msg):
    return ctl.store.task_exit_recorded(job["jobid"], job["idx"],
                                        msg.get("task"), msg.get("n"))


def hello(ctl, host, msg):
    """What an agent's hello says of its tasks: exits the controller may
    have missed, and tasks of jobs that are over."""
    for report in msg.get("task_exits") or []:
        task_exit(ctl, host, report, again=True)
    fence_tasks(ctl, host, msg.get("tasks") or [])


def fence_tasks(ctl, host, tasks):
    """An agent's hello lists its tasks: those of a job that is no longer
    running in that attempt (it ended while the agent or its link was
    down) are killed."""
    stale = set()
    for t in tasks:
        job = ctl.jobs.get((int(t["job"]), int(t.get("idx", 0))))
        if job is None or job["attempt"] != t["attempt"] or \
                job["stat"] not in states.RUNNING:
            stale.add((int(t["job"]), int(t.get("idx", 0)), t["attempt"]))
    for jobid, idx, attempt in stale:
        log.info("killing stale tasks of job %s attempt %s on %s",
                 show(jobid, idx), attempt, host)
        ctl.links[host].queue({"op": "task_kill", "job": jobid, "idx": idx,
                               "attempt": attempt})


def other_hosts(job):
    """The job's hosts after its first, once each: where tasks may run."""
    hosts = (job["exec_hosts"] or "").split()
    return [h for h in dict.fromkeys(hosts[1:]) if h != hosts[0]]


def job_ended(ctl, job, hosts, attempt):
    """The job ended or went back to the queue: its tasks die everywhere."""
    for host in dict.fromkeys(hosts.split()):
        link = ctl.links.get(host)
        if link is not None:
            link.queue({"op": "task_kill", "job": job["jobid"],
                        "idx": job["idx"], "attempt": attempt})
