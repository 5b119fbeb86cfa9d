"""bsub -f on the controller: what a job's files carry in, and what its
agent brings back (xce.model.stagefiles says how they travel).

- At submission the contents of the > copies leave the spec (which every
  bjobs reads) for the job's data, read at dispatch only: the job_data
  row of index -1 holds their base64 texts, in the order of "xfiles".
- The start message names each file for the agent: its operator, its
  remote name with %J/%I filled in, and the contents of a > copy.
- The agent's exit report brings back each < copy (or why it could not):
  the controller writes it to a file of its own under the spool, and
  after the commit a process with the job user's rights (never root's)
  copies it to the local file; a failure there, like one on the
  execution host, is kept in the job's spec (bjobs -l, bhist -l).
  Beside each such file, <file>.json says where it goes, so that a
  controller that stops before the copy is written makes it at its next
  start (a << copy cut short may then be appended twice).
"""

import base64
import json
import logging
import os

from xce.errors import text
from xce.model import outdir, stagefiles

log = logging.getLogger("xce.controller")

DATA_INDEX = -1         # the job_data row of a job's > copies
PROTOCOL = 10           # the first agent protocol that copies -f files
SETPRIV = "/usr/bin/setpriv"
TIMEOUT = "/usr/bin/timeout"
WRITE_SECONDS = 60      # a local file that blocks (a FIFO) is given up
# 1 the local file, 2 the operator, 3 the -outdir directory to make
# first ("" for none), as the job's wrapper makes it on its host.
# LSF's << needs the local file.
_WRITE = r'''
f=$1
[ -n "$3" ] && mkdir -p -m 700 "$3" 2>/dev/null
if [ "$2" = "<<" ]; then
  [ -e "$f" ] || { echo "No such file or directory" >&2; exit 1; }
  exec cat >>"$f"
fi
exec cat >"$f"
'''


class Refused(Exception):
    """A submission whose -f files break a bound; str() is the message."""


def keep(ctl, spec, jobid):
    """Move the > copies' contents out of *spec* into the job's data;
    refuse the job when they are more than STAGE_MAX bytes together."""
    entries = spec.get("xfiles")
    if not entries:
        return
    texts = [e[3] for e in entries]
    size = sum(len(base64.b64decode(t, validate=True)) for t in texts if t)
    if size > stagefiles.STAGE_MAX:
        raise Refused(text("STAGE_TOO_BIG", size=size,
                           limit=stagefiles.STAGE_MAX))
    spec["xfiles"] = [[e[0], e[1], e[2], None] for e in entries]
    ctl.new_job_data[(jobid, DATA_INDEX)] = texts
    ctl.store.save_job_data(jobid, DATA_INDEX, json.dumps(texts), None)


def start_fields(ctl, job, host):
    """The start message's "xfiles", or nothing for a job without -f."""
    entries = job["spec"].get("xfiles")
    if not entries:
        return {}
    if host and ctl.hosts[host].get("protocol", 1) < PROTOCOL:
        raise RuntimeError(text("STAGE_OLD_AGENT", host=host))
    texts = _texts(ctl, job["jobid"])
    jobid, idx = job["jobid"], job["idx"]
    return {"xfiles": [
        {"op": op, "local": local,
         "remote": stagefiles.expand(remote, jobid, idx),
         "data": texts[n] if n < len(texts) else None}
        for n, (local, op, remote, _) in enumerate(entries)]}


def _texts(ctl, jobid):
    key = (jobid, DATA_INDEX)
    if key in ctl.new_job_data:
        return ctl.new_job_data[key]
    texts = json.loads(ctl.store.staged_data(jobid) or "[]")
    return texts if isinstance(texts, list) else []


# -- what comes back --------------------------------------------------------
def errors(job, msg):
    """The exit report's "xerr" (copies the execution host could not
    make), in LSF's words, for the FINISH event."""
    entries = job["spec"].get("xfiles") or []
    said = []
    for item in (msg.get("xerr") or [])[:stagefiles.FILES_MAX]:
        n = int(item["i"])
        if not 0 <= n < len(entries):
            continue
        local, _, remote, _ = entries[n]
        remote = stagefiles.expand(remote, job["jobid"], job["idx"])
        reason = str(item.get("reason") or "copy failed")[:1024]
        if item.get("dir") == "in":
            said.append(text("STAGE_IN_FAILED", local=local, remote=remote,
                             host=job["from_host"] or "", reason=reason))
        else:
            said.append(text("STAGE_OUT_FAILED", remote=remote,
                             local=_local(job, local),
                             host=job["from_host"] or "", reason=reason))
    return {"stage_errors": said} if said else {}


def _local(job, local):
    """A copy back's local file: %J/%I filled in, absolute (a relative
    one under -outdir's directory, else the submission directory)."""
    return stagefiles.local_path(
        stagefiles.expand(local, job["jobid"], job["idx"]),
        job["spec"].get("subcwd"), outdir.directory(job))


def returned(ctl, job, msg):
    """The exit report's "xout": each copy back written to a file of the
    controller's, to be copied with the user's rights after the commit."""
    entries = job["spec"].get("xfiles") or []
    for item in msg.get("xout") or ():
        n = int(item["i"])
        if not 0 <= n < len(entries):
            continue
        local, op, remote, _ = entries[n]
        made = outdir.directory(job) if not local.startswith("/") else None
        local = _local(job, local)
        remote = stagefiles.expand(remote, job["jobid"], job["idx"])
        try:
            data = base64.b64decode(item.get("data") or "", validate=True)
        except ValueError:
            continue
        path = _write_own(ctl, job, n, data)
        copy = {"key": [job["jobid"], job["idx"]],
                "uid": job["spec"]["uid"], "gid": job["spec"]["gid"],
                "op": op, "local": local, "remote": remote,
                "from_host": job["from_host"] or "", "data": path,
                "outdir": made or ""}
        # What to do with it, beside it: a controller that stops before
        # the writer has run finds it at its next start (load).
        _write_file(path + ".json", json.dumps(copy).encode())
        _queue(ctl, copy)


def _queue(ctl, copy):
    """Once: a report given again (the agent's hello) names the same
    file as the copy already waiting or being written."""
    if all(c["data"] != copy["data"] for c in
           [*ctl.stage_copies, *ctl.stage_writers.values()]):
        ctl.stage_copies.append(copy)


def load(ctl):
    """At start: the copies back a stopped controller had not finished
    (a << copy whose writer was cut short may be appended again)."""
    directory = ctl.cfg.spool / "stage"
    if not directory.is_dir():
        return
    for path in sorted(directory.glob("*.json")):
        try:
            copy = json.loads(path.read_text())
            copy["data"] = str(path)[:-len(".json")]
            if os.path.exists(copy["data"]):
                _queue(ctl, copy)
                continue
        except (OSError, ValueError, KeyError, TypeError):
            log.warning("stage: cannot read %s; removed", path)
        path.unlink(missing_ok=True)


def _write_own(ctl, job, n, data):
    """A fresh file of the controller's, mode 600, in a directory only it
    can enter."""
    directory = ctl.cfg.spool / "stage"
    directory.mkdir(mode=0o700, exist_ok=True)
    path = str(directory / f"{job['jobid']}.{job['idx']}.{n}")
    _write_file(path, data)
    return path


def _write_file(path, data):
    """*data* into *path*, atomically (written aside, synced, renamed)."""
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def start_copies(ctl):
    """After the commit: one writer per copy back, as the job's user."""
    for copy in ctl.stage_copies:
        err = copy["data"] + ".err"
        argv = _as_user(copy["uid"], copy["gid"], [
            "/bin/sh", "-c", _WRITE, "xce-copyback", copy["local"],
            copy["op"], copy.get("outdir") or ""])
        if os.access(TIMEOUT, os.X_OK):
            argv = [TIMEOUT, str(WRITE_SECONDS)] + argv
        try:
            # xce-fork-ok: posix_spawn, as the agent starts jobs
            pid = os.posix_spawn(argv[0], argv, {"PATH": "/usr/bin:/bin"},
                                 file_actions=[
                                     (os.POSIX_SPAWN_OPEN, 0, copy["data"],
                                      os.O_RDONLY, 0),
                                     (os.POSIX_SPAWN_OPEN, 1, "/dev/null",
                                      os.O_WRONLY, 0),
                                     (os.POSIX_SPAWN_OPEN, 2, err,
                                      os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                      0o600)], setsid=True)
        except OSError as e:
            _failed(ctl, copy, e.strerror or str(e))
            _remove_files(copy)
            continue
        ctl.stage_writers[pid] = copy
    ctl.stage_copies.clear()


def _as_user(uid, gid, argv):
    if os.geteuid() == 0 and uid != 0:
        return [SETPRIV, f"--reuid={uid}", f"--regid={gid}", "--init-groups",
                "--", *argv]
    return argv


def reaped(ctl, pid, status):
    """A writer has ended: its files go; a failure is said on the job.
    False when *pid* was no writer."""
    copy = ctl.stage_writers.pop(pid, None)
    if copy is None:
        return False
    if os.waitstatus_to_exitcode(status) != 0:
        _failed(ctl, copy, _reason(copy["data"] + ".err"))
    _remove_files(copy)
    return True


def _remove_files(copy):
    for ext in ("", ".err", ".json"):
        try:
            os.unlink(copy["data"] + ext)
        except FileNotFoundError:
            pass


def _reason(path):
    """The shell's complaint, without its "sh: 1: cannot create X:"."""
    try:
        with open(path, "rb") as f:
            words = f.read(4096).decode(errors="replace").strip()
    except OSError:
        words = ""
    last = words.splitlines()[-1] if words else "copy failed"
    return last.rsplit(": ", 1)[-1]


def _failed(ctl, copy, reason):
    said = text("STAGE_OUT_FAILED", remote=copy["remote"],
                local=copy["local"], host=copy["from_host"], reason=reason)
    log.warning("job %s: %s", copy["key"], said)
    key = tuple(copy["key"])
    try:
        job = ctl.jobs.get(key) or ctl.store.job_row(*key)
    except TypeError:       # no such job any more: the log has it
        return
    ctl.emit("OUTPUT", job, stage_errors=[said])

