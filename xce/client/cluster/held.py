"""What the running jobs' rusage[] holds on each host now, for bhosts
-l's Reserved row: each job's claim (the terms it started with) after
duration and decay (xce.lang.resreq.rusage.held_now, as the
scheduler's pass reads them), once per host, or once per slot there
with RESOURCE_RESERVE_PER_TASK=Y."""

from xce.lang.resreq.rusage import held_now

_STARTED = "stat IN ('RUN','USUSP','SSUSP','UNKWN')"


def host_reserved(reader, now):
    """{host: {resource: amount}} of the jobs that hold a claim."""
    per_task = str(reader.params().get("RESOURCE_RESERVE_PER_TASK", "")
                   ).upper() in ("Y", "YES", "TRUE")
    jobs = {(j["jobid"], j["idx"]): j for j in reader.jobs(
        _STARTED, columns=("jobid", "idx", "exec_hosts", "start_time"),
        readonly=True)}
    out = {}
    for _cid, host, jobid, idx, _u, _inst, counters, _c, _e in \
            reader.claims():
        job = jobs.get((jobid, idx))
        if job is None or not counters:
            continue
        start = job["start_time"]
        held = held_now(counters, max(0.0, now - (start or now)))
        n = (job["exec_hosts"] or "").split().count(host) if per_task \
            else 1
        mine = out.setdefault(host, {})
        for name, amount in held.items():
            mine[name] = mine.get(name, 0.0) + amount * n
    return out
