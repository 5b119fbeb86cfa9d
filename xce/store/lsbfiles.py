"""LSF's ``lsb.events`` and ``lsb.acct`` files, written from the store's events.

Tools that parse LSF's logs (Snakemake falls back to ``JOB_STATUS`` records
of ``lsb.events``) find them where LSF keeps them,
``$LSB_SHAREDIR/<cluster>/logdir/``; xce's ``LSB_SHAREDIR`` is its spool.
The store stays the durable record: after each commit the controller calls
:func:`after_commit`, which reads the events committed since the last call
(one range query on the events' primary key, joined to their job rows),
appends them as LSF records with one ``write`` per file, and then records
in ``.xce-seq`` the last event written and the files' sizes (see
lsbrotate: after a crash, bytes past those sizes are cut off and written
again, and a rotation begun is finished, so no record is lost or doubled).
Record layouts follow LSF's (see lsb.events(5)): blank separated fields,
strings in double quotes with inner quotes doubled.
"""

import json
import logging
import os
import signal
import time
from pathlib import Path

from xce.model.jobid import submitted_by
from xce.model.states import CODES
from xce.model.suspreasons import status_reason
from xce.store import lsbacct, lsbchanges, lsbnew, lsbprepost, lsbrotate
from xce.store.lsbfields import (NO_CLUSTER, VERSION, home, q, spec_of,
                                 status_record, uid_of, wait_status,
                                 with_reason)
from xce.store.lsbrotate import ACCT, EVENTS, LogState
from xce.store.reader import logdir
from xce.store.schema import JOB_COLUMNS

# The exit reason of the jobs bkill -b kills.
BULK_KILLED = "TERM_BUCKET_KILL"

__all__ = ["after_commit", "EventFiles", "q", "wait_status", "records"]

log = logging.getLogger("xce.controller")

BATCH = 10000
QUEUE_OPCODES = {"qopen": 1, "qclose": 2, "qact": 3, "qinact": 4}
# LSF's opcodes (lsbatch.h): HOST_OPEN, HOST_CLOSE, HOST_REBOOT (badmin
# hrestart), HOST_SHUTDOWN (hshutdown).
HOST_OPCODES = {"hopen": 1, "hclose": 2, "hrestart": 3, "hshutdown": 4}
# lsbatch.h: the pending reason of a job whose start its host discarded.
PEND_JOB_START_FAIL = 1603

_QUERY = (f"SELECT e.seq, e.time, e.kind, e.jobid, e.idx, e.data, "
          f"{', '.join('j.' + c for c in JOB_COLUMNS)} FROM events e "
          f"LEFT JOIN jobs j ON j.jobid = e.jobid AND j.idx = e.idx "
          f"WHERE e.seq > ? ORDER BY e.seq LIMIT {BATCH}")
# A log written again from the start (a new log directory) reads the
# events the controller moved to history.db too (xce.store.schema
# with_history: the writer's views all_events and all_jobs).
_HISTORY_EVENTS = ("SELECT seq, time, kind, jobid, idx, data FROM all_events "
                   f"WHERE seq > ? ORDER BY seq LIMIT {BATCH}")
_HISTORY_JOBS = (f"SELECT {', '.join(JOB_COLUMNS)} FROM all_jobs "
                 "WHERE jobid IN ({}) ORDER BY submit_time")

_logs = {}


def after_commit(store, spool, cluster, params=None, now=None):
    """Append what the last commit(s) added; never raises into the caller.
    *params* (lsb.params keys) set when the files are rotated."""
    key = id(store)
    try:
        files = _logs.get(key)
        if files is None:
            files = _logs[key] = EventFiles(logdir(spool, cluster), store.db)
        files.limits = lsbrotate.Limits.from_params(params)
        files.append_new(time.time() if now is None else now)
    except (OSError, ValueError) as e:
        log.warning("cannot append to lsb.events/lsb.acct: %s", e)


def written(store):
    """The seq of the last event appended to the files of *store*'s
    controller, or None when they have not been opened."""
    files = _logs.get(id(store))
    return None if files is None else files.last


class EventFiles:
    def __init__(self, directory, db, now=None):
        self.dir = Path(directory)
        self.db = db
        self.limits = lsbrotate.Limits()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.seq_fd = os.open(self.dir / lsbrotate.STATE_FILE,
                              os.O_RDWR | os.O_CREAT, 0o644)
        self.state = self._recover(time.time() if now is None else now)
        self.events_fd = _open_append(self.dir / EVENTS)
        self.acct_fd = _open_append(self.dir / ACCT)

    @property
    def last(self):
        return self.state.seq

    def _recover(self, now):
        """The state after the last run, with its effects made whole."""
        text = os.pread(self.seq_fd, lsbrotate.STATE_WIDTH, 0).decode(
            errors="replace")
        state = LogState.parse(text)
        events = self.dir / EVENTS
        fresh = _size(events) == 0
        if state is None:
            state = self._first_state(fresh, now)
        elif state.events_size < 0:         # a position alone: older xce
            state.finished = lsbrotate.count_finished(events)
            state.acct_begun = int(now)
        if state.rotating != "-":
            self._finish(state, state.rotating, now)
        for name, size in ((EVENTS, state.events_size),
                           (ACCT, state.acct_size)):
            _cut(self.dir / name, size)
        if _size(events) == 0:
            events.write_text(lsbrotate.HEADER)
        state.events_size = _size(events)
        state.acct_size = _size(self.dir / ACCT)
        self._save(state)
        return state

    def _first_state(self, fresh, now):
        """No state line: a new log gets the whole history; an old log
        without a position goes on from the newest event."""
        state = LogState(acct_begun=int(now))
        if not fresh:
            row = self.db.execute("SELECT MAX(seq) FROM all_events"
                                  ).fetchone()
            state.seq = row[0] or 0
            state.finished = lsbrotate.count_finished(self.dir / EVENTS)
        return state

    def _save(self, state):
        os.pwrite(self.seq_fd, state.line(), 0)

    def close(self):
        for fd in (self.events_fd, self.acct_fd, self.seq_fd):
            os.close(fd)

    def append_new(self, now=None):
        """Append up to BATCH new events: a long backlog (a new log over an
        old store) is caught up over several turns, not in one.  lsb.events
        is switched at the event that brings it to MAX_JOB_NUM finished
        jobs; lsb.acct is archived after the append when it is due."""
        now = time.time() if now is None else now
        if self.state.finished >= self.limits.max_job_num:
            # Full, but not switched: a crash came before the switch was
            # begun, or MAX_JOB_NUM was lowered.
            self._rotate(EVENTS, now)
        rows = _new_rows(self.db, self.state.seq)
        events, acct = [], []
        for row in rows:
            self.state.finished += records(row, events, acct, self.db)
            self.state.seq, self.state.stamp = row[0], int(row[1])
            if self.state.finished >= self.limits.max_job_num:
                self._flush(events, acct)
                events, acct = [], []
                self._rotate(EVENTS, now)
        if rows:
            self._flush(events, acct)
        if self.limits.acct_due(self.state.acct_size, self.state.acct_begun,
                                now):
            self._rotate(ACCT, now)

    def _flush(self, events, acct):
        for fd, lines, field in ((self.events_fd, events, "events_size"),
                                 (self.acct_fd, acct, "acct_size")):
            if lines:
                data = "".join(lines).encode()
                os.write(fd, data)
                setattr(self.state, field, getattr(self.state, field) +
                        len(data))
        self._save(self.state)

    def _rotate(self, name, now):
        """Record the intent, then rename; see lsbrotate.finish_rotation."""
        fd = self.events_fd if name == EVENTS else self.acct_fd
        self.state.rotating, self.state.ino = name, os.fstat(fd).st_ino
        self._save(self.state)
        os.close(fd)
        self._finish(self.state, name, now)
        self._save(self.state)
        if name == EVENTS:
            self.events_fd = _open_append(self.dir / EVENTS)
        else:
            self.acct_fd = _open_append(self.dir / ACCT)
        log.info("%s switched to %s.1", name, name)

    def _finish(self, state, name, now):
        size = lsbrotate.finish_rotation(str(self.dir), name, state.ino,
                                         state.stamp)
        if name == EVENTS:
            state.events_size, state.finished = size, 0
        else:
            state.acct_size, state.acct_begun = size, int(now)
            lsbrotate.prune_archives(str(self.dir), ACCT,
                                     self.limits.max_acct_files)
        state.rotating, state.ino = "-", 0


def _new_rows(db, after):
    """The events after seq *after*, each with its job's row.  Live, they
    are all in xce.db (retention moves none that lsb.events lacks): one
    join.  Catching up over history.db, a job id may have served several
    jobs (MAX_JOBID wrapped): an event goes with the row of the job
    submitted last at or before it."""
    if db.execute("SELECT 1 FROM hist.events WHERE seq > ? LIMIT 1",
                  (after,)).fetchone() is None:
        return db.execute(_QUERY, (after,)).fetchall()
    events = db.execute(_HISTORY_EVENTS, (after,)).fetchall()
    jobs = {}
    ids = sorted({e[3] for e in events if e[3]})
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for job in db.execute(_HISTORY_JOBS.format(",".join("?" * len(part))),
                              part):
            jobs.setdefault((job[0], job[1]), []).append(job)
    empty = (None,) * len(JOB_COLUMNS)
    return [event + _job_at(jobs.get((event[3], event[4])), event[1], empty)
            for event in events]


_SUBMIT_TIME = JOB_COLUMNS.index("submit_time")


def _job_at(rows, when, empty):
    """Of the rows of one job id and index (by submit time), the one of
    the job submitted last at or before *when*."""
    if not rows:
        return empty
    return tuple(submitted_by(rows, when, lambda r: r[_SUBMIT_TIME]))


def _open_append(path):
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


def _size(path):
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _cut(path, size):
    """Drop what was appended after the recorded *size* (-1: unknown)."""
    if size >= 0 and _size(path) > size:
        os.truncate(path, size)


def records(row, events, acct, db=None):
    """Add the lsb.events (and lsb.acct) lines of one event row; return
    the number of jobs it finishes."""
    _, t, kind, jobid, idx, data = row[:6]
    job = dict(zip(JOB_COLUMNS, row[6:]))
    try:
        data = json.loads(data or "{}")
    except ValueError:
        data = {}
    fn = _RECORDS.get(kind)
    if fn is None:
        return 0
    if kind == "STATUS":
        data.setdefault("end_time", t)
    elif kind == "JOB_MSG":
        data.setdefault("time", t)          # bpost's postTime
    head = f'"{{}}" "{VERSION}" {int(t)}'
    finished = 0
    for name, fields in fn(job, data, jobid, idx or 0, db):
        if name == "JOB_FINISH":
            finished += 1
            if data.get("reason") == BULK_KILLED:
                continue        # bkill -b: LSF writes no lsb.acct record
        line = head.format(name) + " " + fields + "\n"
        (acct if name == "JOB_FINISH" else events).append(line)
    return finished


def _job_start(job, data, jobid, idx, db):
    """JOB_START in LSF 10.1's layout: the job is dispatched (no process
    yet: jobPid and jobPGid 0); LSF's optional parts are written empty."""
    hosts = data.get("hosts") or []
    spec = spec_of(job)
    return [("JOB_START", " ".join(
        [str(jobid), str(CODES["RUN"]), "0", "0", f"{1.0:3.1f}",
         str(len(hosts))] + [q(h) for h in hosts] +
        [q(""), q(""), "0",                     # queuePre/PostCmd, jFlags
         q(""), str(idx), q(""),                # userGroup, idx, addInfo
         "0", "0",                  # duration4PreemptBackfill, jFlags2
         q(spec.get("resreq_merged")), NO_CLUSTER,
         "0", q(""),                            # num_network, affinity
         "0", "0",          # nextStatusNo, combinedCpuFrequency
         str(len(hosts))] + [q(h) for h in hosts]))]   # allocSlots


# INFINIT_INT, as LSF writes it unset after duration4PreemptBackfill.
_INFINIT_INT = 2147483647


def _job_running(job, data, jobid, idx, db):
    """JOB_START_ACCEPT, then JOB_EXECUTE with the trailing fields that
    LSF 9.1.3 writes for a plain job, unset as it writes them:
    additionalInfo "", SLAscaledRunLimit -1, execRusage "",
    duration4PreemptBackfill 0, then INFINIT_INT, the cluster ids and a
    string and a number more ("" -1)."""
    pid = int(data.get("pid") or 0)
    spec = spec_of(job)
    uid = job.get("uid") or 0
    return [("JOB_START_ACCEPT", f"{jobid} {pid} {pid} {idx}"),
            ("JOB_EXECUTE", " ".join(
                [str(jobid), str(uid), str(pid), q(spec.get("cwd")),
                 q(home(job.get("user"))), q(job.get("user")), str(pid),
                 str(idx), q(""), "-1", q(""), "0", str(_INFINIT_INT),
                 NO_CLUSTER, q(""), "-1"]))]


def _job_status(job, data, jobid, idx, db):
    stat = data.get("stat")
    if not stat:
        return []
    finished = stat in ("DONE", "EXIT")
    out = [status_record(jobid, idx, stat, data, finished)]
    if data.get("start_failed"):        # its host discarded its start
        out = [with_reason(out[0], PEND_JOB_START_FAIL)]
    elif status_reason(stat, data):     # bstop, bresume, the system's
        out = [with_reason(out[0], status_reason(stat, data))]
    if finished:
        out.append(lsbacct.job_finish(job, data, jobid, idx))
    return out


def _job_signal(job, data, jobid, idx, db):
    sig, by = str(data.get("signal") or ""), data.get("by")
    if sig.isdigit():               # bkill -s 10: LSF logs the symbol
        try:
            sig = signal.Signals(int(sig)).name
        except ValueError:
            pass
    return [("JOB_SIGNAL", f"{jobid} {uid_of(by)} {job.get('attempt') or 0} "
             f"{q(sig)} {idx} {q(by)} {NO_CLUSTER}")]


def _mbd_start(job, data, jobid, idx, db):
    meta = dict(db.execute("SELECT key, value FROM meta "
                           "WHERE key IN ('master', 'cluster')"))
    hosts = db.execute("SELECT COUNT(*) FROM hosts").fetchone()[0]
    queues = db.execute("SELECT COUNT(*) FROM queues").fetchone()[0]
    return [("MBD_START", f"{q(meta.get('master'))} {q(meta.get('cluster'))} "
             f"{hosts} {queues}")]


def _queue_ctrl(job, data, jobid, idx, db):
    return _ctrl("QUEUE_CTRL", QUEUE_OPCODES, data.get("queue"), data)


def _host_ctrl(job, data, jobid, idx, db):
    return _ctrl("HOST_CTRL", HOST_OPCODES, data.get("host"), data)


def _ctrl(name, opcodes, target, data):
    """opCode, the queue or host, userId, userName and ctrlComments
    (badmin -C).  badmin hstartup is no request to the master daemon in
    LSF (it starts sbatchd directly) and leaves no record."""
    code = opcodes.get(data.get("op"))
    if code is None:
        return []
    by = data.get("by") or "root"
    return [(name, f"{code} {q(target)} {uid_of(by)} {q(by)} "
             f"{q(data.get('comment'))}")]


_RECORDS = {"SUBMIT": lsbnew.job_new, "START": _job_start,
            "RUNNING": _job_running, "STATUS": _job_status,
            "FINISH": _job_status, "SIGNAL": _job_signal,
            "CONTROLLER_START": _mbd_start, "QUEUE_CTRL": _queue_ctrl,
            "HOST_CTRL": _host_ctrl, **lsbchanges.RECORDS,
            **lsbprepost.RECORDS}
