"""bpeek: show the output a running job has written so far.

The job's output file belongs to its owner, and bpeek runs as that user, so
it reads the file directly: the ``outfile`` column (the path the agent used,
set when the job started), relative paths against the job's working
directory.  ``-f`` follows the file until the job finishes.
"""

import json
import os
import sys
import time

from xce.client.ids import parse as parse_id
from xce.model import outdir
from xce.errors import XceError, text
from xce.model import permissions
from xce.model.arrayspec import name_matches
from xce.model.jobid import show

FOLLOW_POLL = 0.5
_UNFINISHED = ("PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN", "ZOMBI")


def find_job(reader, me, label=None, queue=None, host=None, name=None):
    """The job bpeek shows: the one named, or the caller's latest match."""
    if label is not None:
        return _by_id(reader, me, label)
    where, args = ["user=?", f"stat IN ({','.join('?' * len(_UNFINISHED))})"], \
        [me, *_UNFINISHED]
    if queue:
        where.append("queue=?")
        args.append(queue)
    rows = reader.jobs(" AND ".join(where), args)
    if host:
        rows = [r for r in rows if host in (r["exec_hosts"] or "").split()]
    if name:
        # -J: '*' is a wildcard; elements answer to their array's name.
        rows = [r for r in rows if name_matches(r["name"], name)]
    if not rows:
        raise XceError(_not_found(queue, host, name))
    return rows[-1]


def _by_id(reader, me, label):
    jobid, idx = parse_id(label)
    rows = reader.jobs("jobid=?" + ("" if idx is None else " AND idx=?"),
                       (jobid,) if idx is None else (jobid, idx))
    if not rows:
        raise XceError(text("JOB_NOT_FOUND", job=label))
    job = rows[0]
    if idx is None and job["idx"]:
        # An array's id names no one element: LSF wants "jobid[index]".
        raise XceError(text("PEEK_ARRAY"))
    admins = (reader.meta().get("admins") or "").split()
    if not permissions.may("bpeek", me, job["user"], admins):
        raise XceError(text("JOB_ERROR", job=label,
                            error=text("PERMISSION")))
    return job


def _not_found(queue, host, name):
    """LSF's wording (jobInfoErr): the name, else where it looked."""
    if name:
        return f"Job <{name}> is not found"
    if queue:
        return f"No unfinished job found in queue <{queue}>"
    if host:
        return f"No unfinished job found on host/group <{host}>"
    return "No unfinished job found"


def check_state(job):
    label = show(job["jobid"], job["idx"])
    spec = _spec(job)
    # An interactive job's output goes to its terminal, unless -o or -e.
    if spec.get("interactive") and not (spec.get("stdout") or
                                        spec.get("stderr")):
        raise XceError(text("PEEK_INTERACTIVE", job=label))
    if job["stat"] in ("DONE", "EXIT"):
        raise XceError(text("PEEK_FINISHED", job=label))
    if job["stat"] in ("PEND", "PSUSP") or not job["exec_hosts"]:
        raise XceError(text("PEEK_NOT_STARTED", job=label))


def _spec(job):
    return json.loads(job["spec"] or "{}") if isinstance(job["spec"], str) \
        else (job["spec"] or {})


def output_files(job):
    """(stdout path or None, stderr path or None) to show."""
    spec = _spec(job)
    # the job's working directory, its patterns filled (/tmp when its own
    # was missing once it has said so)
    cwd = outdir.working_directory(job, spec) or "/"
    out_dir = outdir.directory(job, spec)     # bsub -outdir

    def where(path):
        if not path or path == "/dev/null":
            return None
        path = path.replace("%J", str(job["jobid"])).replace(
            "%I", str(job["idx"]))
        path = outdir.inside(path, out_dir)
        return path if path.startswith("/") else os.path.join(cwd, path)
    out = where(job["outfile"] or spec.get("stdout"))
    err = where(spec.get("stderr"))
    return out, (err if err != out else None)


def _copy(path, offset):
    """Write the file from *offset* to stdout; the new offset."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return offset
    except OSError as e:
        raise XceError(f"{path}: {e.strerror}")
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    return offset + len(data)


def peek(reader_factory, me, label=None, queue=None, host=None, name=None,
         follow=False, output_dir=None, ask=None):
    """*output_dir*: the spool's output/, where a job's output goes when
    its -o/-e file cannot be opened by its user (bsub(1)).  *ask*: sends
    a "peek" request to the controller, for a job whose output files are
    not on this host (an execution host that shares no file system)."""
    with reader_factory() as reader:
        job = find_job(reader, me, label, queue, host, name)
    check_state(job)
    out, err = output_files(job)
    if output_dir is not None:
        fallback = _fallback_file(output_dir, job)
        out, err = (_or_fallback(out, fallback), _or_fallback(err, fallback))
        err = None if err == out else err
    if ask is not None and not any(p and os.path.exists(p)
                                   for p in (out, err)):
        from xce.client import remotepeek
        return remotepeek.show(ask, reader_factory, job, follow)
    offsets = {}
    if out:
        print("<< output from stdout >>", flush=True)
        offsets[out] = _copy(out, 0)
    # -f follows one file, as LSF's bpeek -f (tail -f): the stdout, or
    # the stderr when the job has no stdout to show.
    if err and not (follow and out):
        print("\n<< output from stderr >>", flush=True)
        offsets[err] = _copy(err, 0)
    if follow:
        _follow(reader_factory, job, offsets)
    return 0


def _fallback_file(output_dir, job):
    """Where the agent sends output whose file the user cannot open."""
    label = f"{job['jobid']}.{job['idx']}" if job["idx"] else \
        str(job["jobid"])
    return os.path.join(output_dir, job["user"], f"{label}.out")


def _or_fallback(path, fallback):
    """*path*, unless the caller cannot read it and the fallback file
    exists: the job's output went there instead."""
    if path and not os.access(path, os.R_OK) and os.path.exists(fallback):
        return fallback
    return path


def _follow(reader_factory, job, offsets):
    """Like ``tail -f`` until the job finishes, then the last bytes."""
    while True:
        with reader_factory() as reader:
            rows = reader.jobs("jobid=? AND idx=?", (job["jobid"], job["idx"]),
                               ("stat",))
        finished = not rows or rows[0]["stat"] in ("DONE", "EXIT")
        for path in offsets:
            offsets[path] = _copy(path, offsets[path])
        if finished:
            return
        time.sleep(FOLLOW_POLL)
