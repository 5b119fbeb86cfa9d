"""bsub -f on the execution host: the start message's "xfiles" copied
into place before the job, and the copies back read after it.

Each entry is {"op", "remote", "data"}: data (base64) for a > copy.  The
agent writes what comes in to fresh files beside the job's files
(<prefix>.xin.N, in the user's own directory, given to the user), and a
small shell script, <prefix>.xfer, that the job's wrapper sources: as
the job's user and in the job's working directory, ``xce_in`` copies
each file to its remote name before the job (the job does not run when
one fails), and ``xce_out`` copies each remote file of a < copy to
<prefix>.xout.N after the job, however it ended.  A copy that fails
leaves "N in|out reason" in <prefix>.xerr.

At the job's end the agent reads those files -- the user's, so never
through a link, only regular files the user owns, and at most
STAGE_MAX bytes together -- into the exit report ("xout", "xerr"); the
controller writes them on the submission host.  When the -o file is
also copied back, the job report goes with it, as LSF appends the
report before it copies the output file.
"""

import base64
import os
import shlex
import stat

from xce.agent.report import job_report
from xce.model.stagefiles import FILES_MAX, STAGE_MAX, returns, sends

# Sourced by the wrapper: its variables are xce_ ones (xce.agent.spawn).
_IN = ('( cat "$xce_d.xin.{n}" >{remote} ) 2>"$xce_d.xmsg" || '
       '{{ printf "%s\\n" "{n} in $(tail -n 1 "$xce_d.xmsg")" '
       '>>"$xce_d.xerr"; xce_r=1; }}')
_OUT = ('( cat {remote} >"$xce_d.xout.{n}" ) 2>"$xce_d.xmsg" || '
        'printf "%s\\n" "{n} out $(tail -n 1 "$xce_d.xmsg")" '
        '>>"$xce_d.xerr"')


def prepare(msg, prefix, write):
    """The job's .xin.N files and its .xfer script, made with *write*
    (path, bytes-or-text, mode) -> path; the paths, to give to the user."""
    entries = msg.get("xfiles") or []
    made, ins, outs = [], [], []
    for n, entry in enumerate(entries[:FILES_MAX]):
        remote = shlex.quote(entry["remote"])
        if sends(entry["op"]):
            data = base64.b64decode(entry.get("data") or "")
            made.append(write(f"{prefix}.xin.{n}", data, 0o600))
            ins.append(_IN.format(n=n, remote=remote))
        if returns(entry["op"]):
            outs.append(_OUT.format(n=n, remote=remote))
    script = ("rm -f \"$xce_d.xerr\"\nxce_in() {\n xce_r=0\n" +
              "".join(f" {line}\n" for line in ins) +
              " return $xce_r\n}\nxce_out() {\n :\n" +
              "".join(f" {line}\n" for line in outs) + "}\n")
    made.append(write(f"{prefix}.xfer", script, 0o600))
    return made


def collect(msg, prefix, result):
    """(xout, xerr) of the exit report (*result*): each copy back's
    contents (base64) and each failure as {"i", "dir", "reason"}.  A copy
    back of the job's -o file gets the job report too."""
    uid = msg["uid"]
    cwd = result.get("exec_cwd") or msg["cwd"]      # /tmp if it was lost
    report = job_report(msg, result, msg.get("command_lines", []),
                        msg.get("home", "/"), cwd, msg.get("stderr"))
    entries = msg.get("xfiles") or []
    xerr = _failures(prefix, uid, len(entries))
    failed = {e["i"] for e in xerr}
    xout, total = [], 0
    stdout = _resolved(cwd, msg.get("stdout"))
    for n, entry in enumerate(entries[:FILES_MAX]):
        if not returns(entry["op"]) or n in failed:
            continue
        try:
            data = read_own(f"{prefix}.xout.{n}", uid, STAGE_MAX - total)
        except OSError as e:
            xerr.append({"i": n, "dir": "out",
                         "reason": e.strerror or str(e)})
            continue
        if report and _resolved(cwd, entry["remote"]) == stdout:
            data += report.encode()
        total += len(data)
        xout.append({"i": n, "data": base64.b64encode(data).decode()})
    return xout, xerr


def _resolved(cwd, path):
    """*path* under the directory the job runs in (*cwd*)."""
    if not path:
        return None
    return os.path.normpath(os.path.join(cwd or "/", path))


def _failures(prefix, uid, count):
    try:
        text = read_own(prefix + ".xerr", uid, 64 * 1024).decode(
            errors="replace")
    except OSError:
        return []
    out = []
    for line in text.splitlines():
        words = line.split(" ", 2)
        if len(words) < 2 or not words[0].isdigit() or \
                words[1] not in ("in", "out") or int(words[0]) >= count:
            continue
        reason = words[2] if len(words) > 2 else ""
        out.append({"i": int(words[0]), "dir": words[1],
                    "reason": reason.rsplit(": ", 1)[-1] or "copy failed"})
    return out


def read_own(path, uid, limit):
    """The bytes of *path*, a regular file of *uid*'s (or of the agent's
    own user), opened without following a link or waiting on a FIFO;
    OSError when it is anything else or holds more than *limit* bytes."""
    fd = _open_own(path, uid)
    try:
        if os.fstat(fd).st_size > limit:
            raise OSError(0, f"more than the {STAGE_MAX} bytes a job may "
                             "copy back")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                raise OSError(0, f"more than the {STAGE_MAX} bytes a job "
                                 "may copy back")
            chunks.append(chunk)
    finally:
        os.close(fd)


def _open_own(path, uid):
    """A descriptor of *path* if it is a regular file of *uid*'s (or the
    agent's), opened without following a link or waiting on a FIFO."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid not in (uid, os.geteuid()):
        os.close(fd)
        raise OSError(0, "not a regular file of the job's user")
    return fd


def remove(prefix):
    """The staging files beside a job's prefix, once it is acknowledged."""
    if not os.path.exists(prefix + ".xfer"):
        return
    for n in range(FILES_MAX):
        for ext in (".xin.", ".xout."):
            try:
                os.unlink(f"{prefix}{ext}{n}")
            except FileNotFoundError:
                pass
    for ext in (".xerr", ".xmsg", ".xfer"):
        try:
            os.unlink(prefix + ext)
        except FileNotFoundError:
            pass


# -- bpeek ----------------------------------------------------------------
PEEK_MAX = 1 << 20      # bytes of each file in one answer


def peek(running, msg):
    """The "peeked" answer: the running job's output (and separate error)
    file from the offsets given, read as read_own reads."""
    answer = {"op": "peeked", "ticket": msg.get("ticket")}
    job = running.get((int(msg["job"]), int(msg.get("idx", 0)),
                       int(msg["attempt"])))
    if job is None:
        answer["error"] = "the job is not running here"
        return answer
    m = job.msg
    # where the job runs: /tmp when its own directory was missing
    cwd = "/tmp" if os.path.exists(job.prefix + ".cwd") else m.get("cwd")
    out = _resolved(cwd, m.get("stdout"))
    err = _resolved(cwd, m.get("stderr"))
    for name, path, offset in (("out", out, msg.get("out_offset")),
                               ("err", err if err != out else None,
                                msg.get("err_offset"))):
        if path is None:
            continue
        if os.path.isdir(path):
            path = os.path.join(path, f"{m['job']}.{name}")
        try:
            data = _read_from(path, m["uid"], int(offset or 0))
        except FileNotFoundError:
            data = b""
        except OSError as e:
            answer["error"] = f"{path}: {e.strerror or e}"
            continue
        answer[name] = base64.b64encode(data).decode()
    return answer


def _read_from(path, uid, offset):
    fd = _open_own(path, uid)
    try:
        os.lseek(fd, offset, os.SEEK_SET)
        return os.read(fd, PEEK_MAX)
    finally:
        os.close(fd)
