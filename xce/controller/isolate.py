"""Keeping one bad request or one bad job from harming the others.

A batch of requests commits in one transaction.  A handler that raises
must not take the batch down with it, nor leave half its changes behind:
``Undo`` notes where the open batch and the controller's memory stood
before the handler ran (the jobs are copied as the handler first touches
them, in ``emit``) and puts them back; the requests before and after it
commit as usual.  Jobs the controller cannot start, schedule or load end
EXIT with the reason (``fail_job``, ``set_aside``), never a crash.
"""

import json
import logging

from xce.controller import claims
from xce.model import states
from xce.spool.schema import one_line, stored_job_problem
from xce.store.schema import SET_ASIDE

log = logging.getLogger("xce.controller")



class Undo:
    """What one request changed, to put back if its handler fails."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.mark = ctl.store.mark()
        self.next_jobid = ctl._next_jobid
        self.next_seq = ctl._next_seq
        self.job_data = set(ctl.new_job_data)
        self.outboxes = {name: len(link.out)
                         for name, link in ctl.links.items()}
        self.jobs = {}      # key -> (job, its copy, was it in ctl.jobs)

    def before(self, job):
        """Called by emit before an event changes *job*."""
        key = (job["jobid"], job["idx"])
        if key not in self.jobs:
            saved = dict(job)
            if isinstance(saved.get("spec"), dict):
                saved["spec"] = dict(saved["spec"])
            self.jobs[key] = (job, saved, self.ctl.jobs.get(key) is job)

    def rollback(self):
        ctl = self.ctl
        ctl.store.rollback_to(self.mark)
        ctl._next_jobid = self.next_jobid
        ctl._next_seq = self.next_seq
        for key in [k for k in ctl.new_job_data if k not in self.job_data]:
            del ctl.new_job_data[key]
        for name, link in ctl.links.items():
            del link.out[self.outboxes.get(name, 0):]
        for key, (job, saved, live) in self.jobs.items():
            job.clear()
            job.update(saved)
            if live:
                ctl.jobs[key] = job
                ctl.index.note(job)
            else:
                ctl.jobs.pop(key, None)
                if saved.get("stat") is None:
                    ctl.index.forget(job)
            ctl.passes.views.pop(key, None)
            ctl.passes.changed.add(key)
        for job, _, live in self.jobs.values():
            if live:
                claims.noted(ctl, job)      # its claim as it was
        ctl.dirty = True


def failure(error):
    """One line for the log and the reply: what the handler raised."""
    return one_line(f"{type(error).__name__}: {error}")


def fail_job(ctl, job, why):
    """A loaded job that cannot be scheduled or started ends EXIT."""
    reason = SET_ASIDE + one_line(why)
    log.error("job %s (user %s) ends EXIT: %s", ctl.label(job),
              job.get("user"), reason)
    if job["stat"] in states.FINISHED:
        return
    ctl.emit("FINISH", job, stat=states.EXIT, reason=reason)


def set_aside(ctl, row, why):
    """A stored row that cannot be loaded: EXIT, the row kept as it is."""
    reason = SET_ASIDE + one_line(why)
    log.error("stored job %r[%r] cannot be loaded, set aside: %s",
              row.get("jobid"), row.get("idx"), reason)
    ctl.store.set_aside_job(row.get("jobid"), row.get("idx"), ctl.now,
                            reason)


def load_jobs(ctl):
    """The unfinished jobs of the store into ctl.jobs; a row that cannot
    be loaded is set aside and start-up goes on."""
    for row in ctl.store.load_jobs():
        try:
            spec = json.loads(row["spec"] or "{}")
        except (TypeError, ValueError) as e:
            set_aside(ctl, row, f"spec is not JSON ({e})")
            continue
        why = stored_job_problem(row, spec)
        if why is not None:
            set_aside(ctl, row, why)
            continue
        row["spec"] = spec
        ctl.jobs[(row["jobid"], row["idx"])] = row
