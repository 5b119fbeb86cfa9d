"""LSF's ``lsb.events`` and ``lsb.acct`` files, written from the store's events.

Tools that parse LSF's logs (Snakemake falls back to ``JOB_STATUS`` records
of ``lsb.events``) find them where LSF keeps them,
``$LSB_SHAREDIR/<cluster>/logdir/``; xce's ``LSB_SHAREDIR`` is its spool.
The store stays the durable record: after each commit the controller calls
:func:`after_commit`, which reads the events committed since the last call
(one range query on the events' primary key, joined to their job rows),
appends them as LSF records with one ``write`` per file, and records the
last event written in ``.xce-seq`` (one ``pwrite``; no fsync).  After a
crash between the append and that record, the records of one commit may
appear twice.  Record layouts follow LSF's (see lsb.events(5)): blank
separated fields, strings in double quotes with inner quotes doubled.
"""

import functools
import json
import logging
import os
import pwd
from pathlib import Path

from xce.model.states import CODES
from xce.store.schema import JOB_COLUMNS

log = logging.getLogger("xce.controller")

VERSION = "10.1"
SEQ_FILE = ".xce-seq"
BATCH = 10000
# LSF_RLIM_NLIMITS entries of rLimits; -1 is "no limit".
NLIMITS = 11
RLIMIT_RSS, RLIMIT_RUN = 5, 9
QUEUE_OPCODES = {"qopen": 1, "qclose": 2, "qact": 3, "qinact": 4}
HOST_OPCODES = {"hopen": 1, "hclose": 2}

_QUERY = (f"SELECT e.seq, e.time, e.kind, e.jobid, e.idx, e.data, "
          f"{', '.join('j.' + c for c in JOB_COLUMNS)} FROM events e "
          f"LEFT JOIN jobs j ON j.jobid = e.jobid AND j.idx = e.idx "
          f"WHERE e.seq > ? ORDER BY e.seq LIMIT {BATCH}")

_logs = {}


def logdir(spool, cluster):
    return Path(spool) / cluster / "logdir"


def after_commit(store, spool, cluster):
    """Append what the last commit(s) added; never raises into the caller."""
    key = id(store)
    try:
        files = _logs.get(key)
        if files is None:
            files = _logs[key] = EventFiles(logdir(spool, cluster), store.db)
        files.append_new()
    except (OSError, ValueError) as e:
        log.warning("cannot append to lsb.events/lsb.acct: %s", e)


class EventFiles:
    def __init__(self, directory, db):
        self.dir = Path(directory)
        self.db = db
        self.dir.mkdir(parents=True, exist_ok=True)
        events = self.dir / "lsb.events"
        fresh = not events.exists() or events.stat().st_size == 0
        self.events_fd = _open_append(events)
        self.acct_fd = _open_append(self.dir / "lsb.acct")
        if fresh:
            os.write(self.events_fd, b"# 0\n")
        self.seq_fd = os.open(self.dir / SEQ_FILE, os.O_RDWR | os.O_CREAT,
                              0o644)
        self.last = self._start_seq(fresh)

    def _start_seq(self, fresh):
        text = os.pread(self.seq_fd, 32, 0).decode().strip()
        if text.isdigit():
            return int(text)
        if fresh:
            return 0            # a new log: the whole history goes in
        row = self.db.execute("SELECT MAX(seq) FROM events").fetchone()
        return row[0] or 0      # an old log without a position: go on

    def close(self):
        for fd in (self.events_fd, self.acct_fd, self.seq_fd):
            os.close(fd)

    def append_new(self):
        """Append up to BATCH new events: a long backlog (a new log over an
        old store) is caught up over several turns, not in one."""
        rows = self.db.execute(_QUERY, (self.last,)).fetchall()
        if not rows:
            return
        events, acct = [], []
        for row in rows:
            records(row, events, acct, self.db)
        if events:
            os.write(self.events_fd, "".join(events).encode())
        if acct:
            os.write(self.acct_fd, "".join(acct).encode())
        self.last = rows[-1][0]
        os.pwrite(self.seq_fd, f"{self.last:<20d}\n".encode(), 0)


def _open_append(path):
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


def q(value):
    """A quoted LSF string field: inner quotes doubled, no newline."""
    text = "" if value is None else str(value)
    return '"' + text.replace('"', '""').replace("\n", "; ") + '"'


def records(row, events, acct, db=None):
    """Add the lsb.events (and lsb.acct) lines of one event row."""
    _, t, kind, jobid, idx, data = row[:6]
    job = dict(zip(JOB_COLUMNS, row[6:]))
    try:
        data = json.loads(data or "{}")
    except ValueError:
        data = {}
    fn = _RECORDS.get(kind)
    if fn is None:
        return
    if kind == "STATUS":
        data.setdefault("end_time", t)
    head = f'"{{}}" "{VERSION}" {int(t)}'
    for name, fields in fn(job, data, jobid, idx or 0, db):
        line = head.format(name) + " " + fields + "\n"
        (acct if name == "JOB_FINISH" else events).append(line)


def _spec(job):
    try:
        return json.loads(job.get("spec") or "{}") or {}
    except ValueError:
        return {}


def _limits(spec):
    limits = [-1] * NLIMITS
    if spec.get("runlimit"):
        limits[RLIMIT_RUN] = int(float(spec["runlimit"]) * 60)
    if spec.get("memlimit"):
        limits[RLIMIT_RSS] = int(spec["memlimit"])
    return " ".join(str(v) for v in limits)


def _job_new(job, data, jobid, idx, db):
    spec = _spec(job)
    asked = spec.get("hosts") or []
    if isinstance(asked, str):
        asked = asked.split()
    lo, hi = (spec.get("nslots") or [1, 1])[:2]
    fields = [
        str(jobid), str(job.get("uid") or spec.get("uid") or 0), "0",
        str(lo), str(int(job.get("submit_time") or 0)), "0", "0", "0", "0",
        "0", q(job.get("user") or data.get("user")), _limits(spec), q(""),
        f"{1.0:6.2f}", "18", q(data.get("queue") or job.get("queue")),
        q(spec.get("resreq_merged") or " ".join(spec.get("resreq") or [])),
        q(job.get("from_host")), q(spec.get("cwd")), q(""),
        q(spec.get("stdin")), q(spec.get("stdout")), q(spec.get("stderr")),
        q(_home(job.get("user"))), q(""), str(len(asked))]
    fields += [q(h) for h in asked]
    fields += [
        q(spec.get("depend") or spec.get("dependency")), q(spec.get("pre_exec")),
        q(job.get("name")), q(job.get("command")), "0", q(spec.get("mail_user")),
        q(spec.get("project") or "default"), str(hi), q(""), q(""), "0",
        str(idx), q(""), q(""), q(""), str(spec.get("user_priority") or -1),
        q("")]
    return [("JOB_NEW", " ".join(fields))]


@functools.lru_cache(maxsize=256)
def _home(user):
    try:
        return pwd.getpwnam(user).pw_dir
    except (KeyError, TypeError):
        return ""


def _job_start(job, data, jobid, idx, db):
    hosts = data.get("hosts") or []
    spec = _spec(job)
    return [("JOB_START", " ".join(
        [str(jobid), str(CODES["RUN"]), "0", "0", f"{1.0:3.1f}",
         str(len(hosts))] + [q(h) for h in hosts] +
        [q(""), q(""), "0", str(idx), q(spec.get("resreq_merged"))]))]


def _job_running(job, data, jobid, idx, db):
    pid = int(data.get("pid") or 0)
    spec = _spec(job)
    uid = job.get("uid") or 0
    return [("JOB_START_ACCEPT", f"{jobid} {pid} {pid} {idx}"),
            ("JOB_EXECUTE", " ".join(
                [str(jobid), str(uid), str(pid), q(spec.get("cwd")),
                 q(_home(job.get("user"))), q(job.get("user")), str(pid),
                 str(idx)]))]


def wait_status(code):
    """LSF keeps a wait(2) status: exit code N is N << 8, signal S is S."""
    if code is None:
        return 0
    code = int(code)
    return code - 128 if code > 128 else code << 8


def _status_record(jobid, idx, stat, data, finished):
    cpu = float(data.get("cpu_time") or 0.0)
    end = int(data.get("end_time") or 0) if finished else 0
    return ("JOB_STATUS", f"{jobid} {CODES.get(stat, 0)} 0 0 {cpu:4.4f} "
            f"{end} 0 {wait_status(data.get('exit_code'))} {idx} "
            f"{int(data.get('max_mem') or 0)} {int(data.get('avg_mem') or 0)}")


def _job_status(job, data, jobid, idx, db):
    stat = data.get("stat")
    if not stat:
        return []
    finished = stat in ("DONE", "EXIT")
    out = [_status_record(jobid, idx, stat, data, finished)]
    if finished:
        out.append(_job_finish(job, data, jobid, idx))
    return out


def _job_finish(job, data, jobid, idx):
    spec = _spec(job)
    hosts = (job.get("exec_hosts") or "").split()
    lo, hi = (spec.get("nslots") or [1, 1])[:2]
    cpu = float(data.get("cpu_time") or job.get("cpu_time") or 0.0)
    maxmem = int(data.get("max_mem") or job.get("max_mem") or 0)
    rusage = [f"{cpu:1.6f}", f"{0.0:1.6f}", str(maxmem)] + ["-1"] * 16
    fields = [
        str(jobid), str(job.get("uid") or 0), "0", str(lo),
        str(int(job.get("submit_time") or 0)), "0", "0",
        str(int(job.get("start_time") or 0)), q(job.get("user")),
        q(job.get("queue")), q(spec.get("resreq_merged")),
        q(spec.get("depend") or spec.get("dependency")),
        q(spec.get("pre_exec")), q(job.get("from_host")), q(spec.get("cwd")),
        q(spec.get("stdin")), q(spec.get("stdout")), q(spec.get("stderr")),
        q(""), "0", str(len(hosts))] + [q(h) for h in hosts] + [
        str(CODES.get(data.get("stat"), 0)), f"{1.0:3.1f}",
        q(job.get("name")), q(job.get("command"))] + rusage + [
        q(spec.get("mail_user")), q(spec.get("project") or "default"),
        str(wait_status(data.get("exit_code"))), str(hi), q(""), str(idx),
        str(maxmem), "0", q(""), q("")]
    return ("JOB_FINISH", " ".join(fields))


def _job_signal(job, data, jobid, idx, db):
    sig = str(data.get("signal") or "")
    return [("JOB_SIGNAL", f"{jobid} 0 {job.get('attempt') or 0} {q(sig)} "
             f"{idx} {q(data.get('by'))}")]


def _mbd_start(job, data, jobid, idx, db):
    meta = dict(db.execute("SELECT key, value FROM meta "
                           "WHERE key IN ('master', 'cluster')"))
    hosts = db.execute("SELECT COUNT(*) FROM hosts").fetchone()[0]
    queues = db.execute("SELECT COUNT(*) FROM queues").fetchone()[0]
    return [("MBD_START", f"{q(meta.get('master'))} {q(meta.get('cluster'))} "
             f"{hosts} {queues}")]


def _queue_ctrl(job, data, jobid, idx, db):
    return [("QUEUE_CTRL", f"{QUEUE_OPCODES.get(data.get('op'), 0)} "
             f"{q(data.get('queue'))} 0 {q(data.get('by') or 'root')} "
             f"{q('')}")]


def _host_ctrl(job, data, jobid, idx, db):
    return [("HOST_CTRL", f"{HOST_OPCODES.get(data.get('op'), 0)} "
             f"{q(data.get('host'))} 0 {q(data.get('by') or 'root')} "
             f"{q('')}")]


_RECORDS = {"SUBMIT": _job_new, "START": _job_start,
            "RUNNING": _job_running, "STATUS": _job_status,
            "FINISH": _job_status, "SIGNAL": _job_signal,
            "CONTROLLER_START": _mbd_start, "QUEUE_CTRL": _queue_ctrl,
            "HOST_CTRL": _host_ctrl}
