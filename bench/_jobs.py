"""Putting many jobs into a cluster fast, and watching the store.

Submitting 10,000 jobs with the ``bsub`` command costs one interpreter
start each (minutes on 2 cores), so the benchmarks that need many jobs
either
  * spool them from this one process with the same library ``bsub`` uses
    (``build_spec`` + ``write_request`` per job, then one ``ring``), which
    still exercises the controller's intake; or
  * write rows straight into a *stopped* cluster's store with the
    controller's own writer (``Store.save_job``, one commit), for states
    the intake cannot produce quickly (100,000 finished jobs).
"""

import copy
import time

from _common import LONG, env_for, wait_for

# Reader is re-opened per poll: a long-lived read transaction would pin
# the WAL and slow the controller's checkpoints.


def store_path(clu):
    return clu.spool / "store" / "xce.db"


def marks_of(clu, jobids):
    """jobid -> (request time, submit_time, start_time) from the store."""
    from xce.store.reader import Reader
    reader = Reader(store_path(clu))
    try:
        marks = ",".join("?" * len(jobids))
        times = {row[0]: row[1:] for row in reader.db.execute(
            f"SELECT jobid, submit_time, start_time FROM jobs "
            f"WHERE jobid IN ({marks})", list(jobids))}
        asked = {}
        for req_id, jobid in reader.db.execute(
                "SELECT id, json_extract(reply, '$.jobid') FROM requests "
                "WHERE kind='submit'"):
            # <nanoseconds>-<pid>-<random>: bsub's clock as it named it
            asked[jobid] = int(req_id.split("-", 1)[0]) / 1e9
        return {j: (asked[j],) + times[j] for j in jobids}
    finally:
        reader.db.close()


def count_jobs(clu, where="1", args=()):
    from xce.store.reader import Reader
    reader = Reader(store_path(clu))
    try:
        return reader.db.execute(f"SELECT COUNT(*) FROM jobs WHERE {where}",
                                 args).fetchone()[0]
    finally:
        reader.db.close()


def wait_count(clu, n, where="1", args=(), timeout=LONG, interval=0.01):
    """Poll the store until *where* matches at least *n* jobs."""
    wait_for(lambda: count_jobs(clu, where, args) >= n, timeout=timeout,
             interval=interval, what=f"{n} jobs with {where}")


def spool_submit(clu, n, argv=("true",)):
    """Spool *n* submissions of ``bsub argv`` from this process; one ring.

    Returns when all *n* are in the store (any state) and the controller
    has answered them all.
    """
    env_for(clu)
    from xce.cli import bsub
    from xce.envdir import Site
    from xce.spool.client import ring, write_request
    site = Site(clu.envdir)
    spec = bsub.build_spec(bsub._parse(list(argv)), site)
    spec["queue_is_default"] = False
    before = count_jobs(clu)
    for _ in range(n):
        write_request(site.spool, "submit", {"spec": copy.deepcopy(spec)})
    ring(site.spool)
    wait_count(clu, before + n)
    # The controller replies and removes the request files after the
    # commit; wait for that too, so the next timed step starts on an idle
    # controller rather than paying for the tail of this intake.
    incoming = site.spool / "incoming"
    wait_for(lambda: not any(incoming.iterdir()), timeout=LONG,
             what="the spool to drain")


def admin(clu, op, *names):
    """A badmin request through the spool library (the badmin command's path)."""
    env_for(clu)
    from xce.envdir import Site
    from xce.spool.client import call
    reply = call(Site(clu.envdir), "admin",
                 {"op": op, "names": list(names) or ["all"]}, timeout=60)
    if not reply.get("ok"):
        raise RuntimeError(f"badmin {op}: {reply}")


def template_row(clu):
    """A real job row, produced by one bsub through the running cluster."""
    jobid = clu.submit("true")
    clu.wait_stat(jobid, "DONE")
    from xce.store.reader import Reader
    reader = Reader(store_path(clu))
    try:
        return reader.jobs("jobid=?", (jobid,))[0]
    finally:
        reader.db.close()


def fill_store(clu, template, finished, pending, inactive_queue=None):
    """Write *finished* DONE and *pending* PEND copies of *template* into the
    stopped cluster's store in one commit, after the jobs already there.

    *inactive_queue* is saved inactive so the restarted controller keeps the
    pending jobs pending (it restores queue states from the store).
    """
    from xce.store.writer import Store
    store = Store(store_path(clu))
    try:
        first = int(store.meta("next_jobid", 1))
        now = time.time()
        for i in range(finished + pending):
            row = dict(template, jobid=first + i, seq=first + i)
            if i < finished:
                row.update(stat="DONE", end_time=now, exit_code=0)
            else:
                row.update(stat="PEND", start_time=None, end_time=None,
                           exec_hosts=None, exit_code=None, pids=None,
                           pgid=None, attempt=0, cpu_time=None, max_mem=None,
                           avg_mem=None, exit_reason=None)
            row["submit_time"] = now
            store.save_job(row)
        store.set_meta("next_jobid", first + finished + pending)
        if inactive_queue:
            store.execute("UPDATE queues SET active=0 WHERE name=?",
                          (inactive_queue,))
        store.commit()
    finally:
        store.close()
