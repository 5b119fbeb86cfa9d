"""bstatus: a job's external status, which is its message of index 0.

It shares the store with bpost/bread: setting the status posts message 0
(through the controller, which refuses finished jobs for it, as LSF does);
reading it reads the ``job_messages`` table.  With ``-J`` only the caller's
own jobs are matched, even for an administrator (LSF's rule).
"""

import time

from xce.client import messages
from xce.client.ids import parse as parse_id
from xce.errors import XceError, text
from xce.model import jobid as jobids
from xce.model.arrayspec import name_matches
from xce.spool.client import call

HEADER = "JOBID    FROM       UPDATE_TIME    STATUS"


def targets(reader, me, word=None, name=None):
    """[(label, jobid, idx)] the command acts on."""
    if name is None:
        jobid, idx = parse_id(word)
        if not messages.job_exists(reader, jobid, idx):
            raise XceError(text("JOB_ERROR", job=word,
                                error=text("NO_JOB")))
        return [(word, jobid, idx)]
    rows = [r for r in reader.jobs("user=?", (me,), ("jobid", "idx", "name"))
            if name_matches(r["name"], name)]
    if not rows:
        raise XceError(text("JOB_NOT_FOUND", job=name))
    return [(jobids.show(r["jobid"], r["idx"]), r["jobid"], r["idx"])
            for r in rows]


def show(reader, jobs):
    """The status table; 255 when no job has a status (bread's words)."""
    lines = []
    for label, jobid, idx in jobs:
        for row in messages.rows(reader, jobid, idx, 0):
            stamp = time.strftime("%b %d %H:%M", time.localtime(row[4]))
            lines.append(f"{jobids.show(row[0], row[1]):<8} "
                         f"{row[3] or '':<10.10} {stamp:<14} {row[5]}")
    if not lines:
        raise XceError(text("JOB_NO_MESSAGE", job=jobs[0][0]))
    print(HEADER)
    print("\n".join(lines))
    return 0


def set_status(site, jobs, description):
    """Post message 0 to each job; silent on success, as LSF is."""
    failed = []
    for label, jobid, idx in jobs:
        reply = call(site, "post", {"jobid": jobid, "idx": idx, "msg_id": 0,
                                    "text": description, "status": True})
        if not reply.get("ok"):
            failed.append(f"Job <{label}>: {reply.get('error')}")
    if failed:
        raise XceError("\n".join(failed))
    return 0
