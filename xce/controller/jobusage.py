"""A job's usage summed over its hosts: its own processes on the first host
(with the blaunch tasks there, which that agent counts in), and the blaunch
tasks on each other host (``task_usage`` reports).

Each report is cumulative for its host and attempt, so the controller keeps
only the last one of each host, in memory: after a restart the next reports
(every few seconds) rebuild the sums, and the job's CPU time never goes
down meanwhile.
"""

from dataclasses import dataclass, field

MAIN = ""           # the first host's part: the job's own report
PURGE_EVERY = 1000  # new entries between sweeps of jobs that are over


@dataclass
class State:
    """The last report of each host of each running job (``ctl.usage``)."""
    # (jobid, idx) -> {"attempt": n, "hosts": {host: (cpu, mem)}}
    parts: dict = field(default_factory=dict)
    new_entries: int = 0        # since the last sweep (see _sweep)


def _parts(ctl, job):
    table = ctl.usage.parts
    key = (job["jobid"], job["idx"])
    parts = table.get(key)
    if parts is None or parts["attempt"] != job["attempt"]:
        _sweep(ctl, table)
        parts = table[key] = {"attempt": job["attempt"], "hosts": {}}
    return parts["hosts"]


def _sweep(ctl, table):
    """Drop the parts of jobs that ended without a finish report (bkill
    -r, host loss, requeue): at most once every PURGE_EVERY new entries."""
    count = ctl.usage.new_entries + 1
    ctl.usage.new_entries = count % PURGE_EVERY
    if count < PURGE_EVERY:
        return
    for key in [k for k, p in table.items() if
                (ctl.jobs.get(k) or {}).get("attempt") != p["attempt"]]:
        del table[key]


def report(ctl, job, host, cpu, mem):
    """Record one host's CPU so far and memory now; the job's totals
    (cpu_time, memory now) over all its hosts."""
    hosts = _parts(ctl, job)
    hosts[host] = (float(cpu or 0.0), int(mem or 0))
    cpu_total = sum(c for c, _ in hosts.values())
    mem_total = sum(m for _, m in hosts.values())
    return max(cpu_total, job.get("cpu_time") or 0.0), mem_total


def at_finish(ctl, job, cpu, max_mem):
    """The final (cpu_time, max_mem): the first host's figures plus what
    the job's tasks used elsewhere; the parts are dropped."""
    hosts = ctl.usage.parts.pop(
        (job["jobid"], job["idx"]), {"hosts": {}})["hosts"]
    others = [v for h, v in hosts.items() if h != MAIN]
    cpu = float(cpu or 0.0) + sum(c for c, _ in others)
    return cpu, max(max_mem or 0, job.get("max_mem") or 0) or None
