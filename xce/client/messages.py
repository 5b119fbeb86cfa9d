"""bpost and bread: post a message to a job, list a job's messages.

bpost goes through the controller (``post`` request); bread reads the
store's ``job_messages`` table directly, like the other query commands.
"""

import os
import sys
import time

from xce.client.ids import parse as parse_id
from xce.errors import EXIT_FAILURE, XceError, text
from xce.model import jobid as jobids
from xce.model import permissions
from xce.spool.client import call
from xce.spool.layout import attachment_name

HEADER = "MSG_ID FROM       POST_TIME      MESSAGE                        " \
    "ATTACHMENT"


def post(site, word, msg_id, message, attach):
    """bpost: one request; LSF-style result line."""
    jobid, idx = parse_id(word)
    body = {"jobid": jobid, "idx": idx, "msg_id": msg_id, "text": message}
    if attach:
        try:
            with open(attach, encoding="utf-8", errors="replace") as f:
                body["data"] = f.read()
        except OSError as e:
            raise XceError(f"{attach}: {e.strerror}")
        body["attachment"] = attach
    reply = call(site, "post", body)
    if not reply.get("ok"):
        raise XceError(text("JOB_ERROR", job=word, error=reply.get("error")))
    print(f"Job <{word}>: Message <{msg_id}> posted.")
    return 0


def rows(reader, jobid, idx, msg_id):
    return reader.messages(jobid, idx, msg_id)


def job_owners(reader, jobid, idx):
    """The users who own the job (or the array's elements); empty: none."""
    return reader.job_owners(jobid, idx)


def job_exists(reader, jobid, idx):
    return bool(job_owners(reader, jobid, idx))


def message_line(row):
    _, _, msg_id, user, t, message, attachment, _ = row
    stamp = time.strftime("%b %d %H:%M", time.localtime(t))
    flag = "Y" if attachment else "N"
    return f"{msg_id:<6} {user or '':<10.10} {stamp:<14} {message:<30} {flag}"


def read(reader, word, msg_id, save_to, me, attachments=None):
    """bread: the job's messages as LSF's table, or one attachment saved
    (the caller's own jobs only: xce.model.permissions) from the
    *attachments* folder of the spool."""
    jobid, idx = parse_id(word)
    owners = job_owners(reader, jobid, idx)
    if not owners:
        raise XceError(text("JOB_ERROR", job=word, error=text("NO_JOB")))
    if save_to and not all(permissions.may("bread -a", me, owner)
                           for owner in owners):
        raise XceError(text("JOB_ERROR", job=word,
                            error=text("PERMISSION")))
    found = rows(reader, jobid, idx, msg_id)
    if not found:
        print(f"Job <{word}>: No message available", file=sys.stderr)
        return EXIT_FAILURE
    if save_to:
        return _save(found[0], save_to, attachments)
    by_job = {}
    for row in found:
        by_job.setdefault((row[0], row[1]), []).append(row)
    for (jid, i), msgs in by_job.items():
        print(f"JOBID: {jobids.show(jid, i)}")
        print(HEADER)
        print("\n".join(message_line(r) for r in msgs))
    return 0


def _save(row, path, attachments):
    if row[6] is None:
        raise XceError(text("NO_ATTACHMENT", message=row[2]))
    data = row[7]
    if data is None:        # kept apart from the store (xce-spool(5))
        name = attachment_name(row[0], row[1], row[2])
        try:
            with open(os.path.join(attachments, name), "rb") as f:
                data = f.read().decode("utf-8", "replace")
        except OSError as e:
            raise XceError(text("ATTACHMENT_UNREADABLE",
                                message=row[2], reason=e.strerror))
    try:
        with open(path, "w") as f:
            f.write(data)
    except OSError as e:
        raise XceError(f"{path}: {e.strerror}")
    print(f"Attachment of message <{row[2]}> saved in <{path}>.")
    return 0
