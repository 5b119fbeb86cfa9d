"""bpost: attach a message (and optionally a file's text) to a job.

A message lives in the store's ``job_messages`` table under its index; a new
post to an index replaces the old one.  bread reads the table directly.
An attached file is kept apart, in attachments/<jobid>.<idx>.<msg_id> of
the spool, owned by the poster (who owns the job: xce.model.permissions)
and readable by them alone, because every user may read the store.
"""

from xce.controller import privfile
from xce.errors import text
from xce.model import states
from xce.spool.layout import attachment_name

KINDS = ("post",)
MAX_INDEX = 127          # LSF's default MAX_JOB_MSG_NUM is 128 (0..127)
MAX_ATTACHMENT = 1 << 20


def handle(ctl, user, doc, now):
    """One post request: check the job, the caller and the index."""
    jobid, idx = int(doc["jobid"]), doc.get("idx")
    msg_id = int(doc.get("msg_id") or 0)
    if not 0 <= msg_id <= ctl.cfg.param_int("MAX_JOB_MSG_NUM",
                                            MAX_INDEX + 1) - 1:
        return {"ok": False, "error": text("BAD_ARGUMENT")}
    data = doc.get("data")
    if data is not None and len(data) > MAX_ATTACHMENT:
        return {"ok": False, "error": text("ATTACHMENT_TOO_LARGE")}
    jobs = ctl.find_jobs(jobid, idx)
    if not jobs:
        return {"ok": False, "error": text("NO_JOB")}
    action = "bstatus -d" if doc.get("status") else \
        "bpost -a" if doc.get("data") is not None else "bpost"
    if not all(ctl.may(action, user, j) for j in jobs):
        return {"ok": False, "error": text("PERMISSION")}
    # bstatus -d: the status of a done or exited job cannot change.
    if doc.get("status") and any(j["stat"] in states.FINISHED for j in jobs):
        return {"ok": False, "error": text("JOB_FINISHED")}
    # An array id without an index posts to every element, as LSF does.
    for job in jobs:
        if data is not None:
            # Written before the commit: a crash leaves a file that the
            # replayed request writes again, never a row without its file.
            _keep_attachment(ctl, job, msg_id, user, data)
        ctl.store.save_message(job["jobid"], job["idx"], msg_id, user, now,
                               doc.get("text") or "", doc.get("attachment"))
        ctl.store.event(now, "JOB_MSG", job["jobid"], job["idx"],
                        msg_id=msg_id, user=user, text=doc.get("text") or "",
                        size=len(data or ""))
    return {"ok": True}


def _keep_attachment(ctl, job, msg_id, user, data):
    """attachments/<name>, replaced atomically, 0600 and the user's."""
    folder = ctl.cfg.spool / "attachments"
    final = folder / attachment_name(job["jobid"], job["idx"], msg_id)
    # The folder is the controller's alone: no link or FIFO can be there.
    privfile.replace(final, data.encode("utf-8", "replace"), owner=user)

