"""The controller's write API: events and the rows they change, one transaction.

Only the controller opens the store through this module (invariant 1).
"""

import errno
import json
import os
import sqlite3

from xce.store.schema import (HISTORY_SCHEMA, JOB_COLUMNS, MIGRATIONS,
                              PRIVATE_SCHEMA, SCHEMA_VERSION, with_history)
from xce.store.retire import Retire
from xce.store.walfile import Checkpoints, open_wal as _open
from xce.store.walfile import transaction as _transaction

_SAVE_JOB = (f"INSERT OR REPLACE INTO jobs({','.join(JOB_COLUMNS)}) "
             f"VALUES({','.join('?' * len(JOB_COLUMNS))})")


class StoreTooNew(RuntimeError):
    pass


class StoreFull(Exception):
    """The file system of the store is full; the batch is kept."""


def saved_meta(path, key):
    """One meta value of the store at PATH, read before the controller
    opens it for writing (it holds its lock: nobody writes): None when the
    store or the key is missing.  Raises sqlite3.Error when unreadable."""
    if not os.path.exists(path):
        return None
    # Without a WAL to fold in, a read-only open needs the -shm file,
    # which a clean stop removes: the file is then read as it stands.
    wal = f"{path}-wal"
    query = "mode=ro" if os.path.exists(wal) and os.path.getsize(wal) \
        else "immutable=1"
    db = sqlite3.connect(f"file:{path}?{query}", uri=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key=?",
                         (key,)).fetchone()
    finally:
        db.close()
    return row[0] if row else None


class Store(Retire):
    def __init__(self, path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # The private rows are not synced at each commit (about 6 ms of
        # each submission's way to its job on a busy host): a crash of the
        # controller loses none of them, a power loss may lose the last
        # turns', and a job whose data is gone then ends EXIT with its
        # reason (Controller.job_data) instead of running without it.
        # xce.db, committed after them, stays synced (xce-store(5)).
        self.private = _open(path.with_name("private.db"), 0o600,
                             synchronous="NORMAL")
        self.private.executescript(PRIVATE_SCHEMA)
        self.db = _open(path, 0o644)        # commands read it as any user
        self._migrate()
        self._attach_history(path.with_name("history.db"))
        self.checkpoints = Checkpoints(self.private, self.db)
        self._next_seq = self._last_seq() + 1
        self._events = []
        self._jobs = {}
        self._stmts = []
        self._private = []      # statements of the private database

    def _migrate(self):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreTooNew(f"store schema {version} is newer than "
                              f"this xce ({SCHEMA_VERSION})")
        while version < SCHEMA_VERSION:
            if version == 6:
                self._move_job_data()
            self.db.executescript("BEGIN;" + MIGRATIONS[version] +
                                  f"PRAGMA user_version={version + 1};COMMIT;")
            version += 1

    def _attach_history(self, path):
        """history.db (mode 0644, synced at each commit: a job's rows are
        deleted from xce.db only after their copy there is on disk),
        attached as ``hist``; the views all_jobs and all_events show the
        jobs of both, each once (xce.store.schema.with_history)."""
        history = _open(path, 0o644)
        history.executescript(HISTORY_SCHEMA)
        history.close()
        self.db.execute("ATTACH DATABASE ? AS hist", (str(path),))
        self.db.execute("PRAGMA hist.synchronous=FULL")
        self.db.executescript(with_history(jobs="all_jobs",
                                           events="all_events"))

    def _last_seq(self):
        """The highest event seq ever given: events leave xce.db for
        history.db (retention), and SQLite would give a deleted highest
        seq again, which lsb.events (written from seq onwards) and
        history.db (one row per seq) must never see."""
        seqs = [self.db.execute(f"SELECT MAX(seq) FROM {schema}.events"
                                ).fetchone()[0] for schema in ("main", "hist")]
        seqs.append(self.meta("last_event_seq"))
        return max(int(s) for s in seqs if s is not None) if any(
            s is not None for s in seqs) else 0

    def _move_job_data(self):
        """Copy job_data rows of a store older than version 7 into the
        private database, committed and synced (a checkpoint syncs what
        its commit did not) before the migration drops them (a crash in
        between copies them again)."""
        rows = self.db.execute("SELECT jobid, idx, env, jobfile "
                               "FROM job_data").fetchall()
        with _transaction(self.private):
            self.private.executemany(
                "INSERT OR REPLACE INTO job_data VALUES(?,?,?,?)", rows)
        self.private.execute("PRAGMA wal_checkpoint(FULL)")

    def close(self):
        # Fold the WAL into the database so readers find it whole, whether
        # or not SQLite removes the -wal file at close.
        for db, schema in ((self.private, "main"), (self.db, "hist"),
                           (self.db, "main")):
            try:
                db.execute(f"PRAGMA {schema}.wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        self.private.close()
        self.db.close()

    # -- reads the controller needs at start -----------------------------
    def meta(self, key, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key=?",
                              (key,)).fetchone()
        return row[0] if row else default

    def next_job_seq(self):
        """The least seq of the next job (Controller.job_seq): next_jobid
        until ids wrap, then next_seq (an older store's highest, recorded)."""
        recorded = self.meta("next_seq")
        if recorded is None:
            top = self.db.execute("SELECT MAX(seq) FROM all_jobs").fetchone()
            recorded = int(top[0] or 0) + 1
            self.set_meta("next_seq", recorded)
        return max(int(recorded), int(self.meta("next_jobid", 1)))

    def load_jobs(self, unfinished_only=True):
        cur = self.db.execute(
            f"SELECT {','.join(JOB_COLUMNS)} FROM jobs" +
            (" WHERE stat NOT IN ('DONE','EXIT')" if unfinished_only else "")
            + " ORDER BY seq")
        return [dict(zip(JOB_COLUMNS, row)) for row in cur]

    def request_reply(self, req_id):
        row = self.db.execute("SELECT reply FROM requests WHERE id=?",
                              (req_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def saved_queue_states(self):
        """Queue name -> (open, active, comment) as last saved: 1 or 0 each,
        and the -C comment of its last badmin control (or None)."""
        return {n: (o, a, c) for n, o, a, c in self.db.execute(
            "SELECT name, open, active, json_extract(conf, '$.comment') "
            "FROM queues")}

    def saved_host_closed(self):
        """Host name -> adm_closed (badmin hclose) as last saved."""
        return dict(self.db.execute("SELECT name, adm_closed FROM hosts"))

    def finished_since(self, since):
        """(jobid, idx, stat, user, name, exit_code, end_time, array name,
        post-exec status) of the jobs that ended at or after *since*, in
        submission order."""
        return self.db.execute(
            "SELECT jobid, idx, stat, user, name, exit_code, end_time, "
            "json_extract(spec, '$.array_name'), "
            "json_extract(spec, '$.post') FROM jobs "
            "WHERE stat IN ('DONE', 'EXIT') AND end_time >= ? "
            "ORDER BY seq, idx", (since,))

    def finished_jobs(self, since=None):
        """The finished jobs that had started (and ended at or after
        *since*), the store's and history.db's, as rows with queue, user,
        stat, start_time, end_time, nslots, cpu_time and a spec holding
        only user_group and share_group (their fairshare use)."""
        cur = self.db.execute(
            "SELECT queue, user, stat, start_time, end_time, nslots, "
            "cpu_time, json_extract(spec, '$.user_group'), "
            "json_extract(spec, '$.share_group') FROM all_jobs "
            "WHERE stat IN ('DONE', 'EXIT') AND start_time IS NOT NULL "
            "AND end_time >= ?", (since or 0,))
        return [{"queue": r[0], "user": r[1], "stat": r[2],
                 "start_time": r[3], "end_time": r[4], "nslots": r[5],
                 "cpu_time": r[6],
                 "spec": {"user_group": r[7], "share_group": r[8]}}
                for r in cur]

    def exits_since(self, since):
        """(first execution hosts, end time, exit reason) of the jobs that
        exited (EXIT) at or after *since* (a host's exit rate), the
        store's and history.db's."""
        return self.db.execute(
            "SELECT exec_hosts, end_time, exit_reason FROM all_jobs "
            "WHERE stat = 'EXIT' AND end_time >= ? AND exec_hosts IS NOT "
            "NULL", (since,)).fetchall()

    def starts_since(self, since):
        """(execution hosts, start time) of the jobs, finished or not, that
        were given their hosts at or after *since* (JOB_ACCEPT_INTERVAL);
        those history.db holds ended after *since* too (its index)."""
        return self.db.execute(
            "SELECT exec_hosts, start_time FROM jobs WHERE start_time >= ? "
            "AND exec_hosts IS NOT NULL UNION ALL SELECT exec_hosts, "
            "start_time FROM hist.jobs WHERE end_time >= ? AND start_time "
            ">= ? AND exec_hosts IS NOT NULL",
            (since, since, since)).fetchall()

    def saved_host_comments(self):
        """Host name -> the comment it was closed with (bhosts -l)."""
        return dict(self.db.execute(
            "SELECT name, json_extract(conf, '$.comment') FROM hosts"))

    # -- reads while running (committed rows) ------------------------------
    def job_briefs(self, jobid, idx=None):
        """Job id, index, status, user and queue of the stored elements of
        *jobid* (only element *idx* unless it is None)."""
        cur = self.db.execute(
            "SELECT jobid, idx, stat, user, queue FROM jobs WHERE jobid=?" +
            ("" if idx is None else " AND idx=?"),
            (jobid,) if idx is None else (jobid, idx))
        return [{"jobid": a, "idx": b, "stat": c, "user": d, "queue": q}
                for a, b, c, d, q in cur]

    def job_row(self, jobid, idx):
        """Every column of one stored job, its spec decoded."""
        row = self.db.execute(
            f"SELECT {','.join(JOB_COLUMNS)} FROM jobs WHERE jobid=? AND "
            "idx=?", (jobid, idx)).fetchone()
        full = dict(zip(JOB_COLUMNS, row))
        full["spec"] = json.loads(full["spec"] or "{}")
        return full

    def job_data(self, jobid, idx):
        """(env as JSON, job file) of a job, or of its array's index 0
        (the elements share it); None when there is none."""
        return self.private.execute(
            "SELECT env, jobfile FROM job_data WHERE jobid=? AND idx IN "
            "(?, 0) ORDER BY idx DESC LIMIT 1", (jobid, idx)).fetchone()

    def staged_data(self, jobid):
        """The contents of a job's bsub -f > copies (JSON text), kept in
        its job_data row of index -1 (xce.controller.stage); or None."""
        row = self.private.execute(
            "SELECT env FROM job_data WHERE jobid=? AND idx=-1",
            (jobid,)).fetchone()
        return row[0] if row else None

    def task_exit_recorded(self, jobid, idx, task, n):
        """Has blaunch task *task* (its start number *n*) of the job an
        exit event already?"""
        return self.db.execute(
            "SELECT 1 FROM events WHERE jobid=? AND idx=? AND "
            "kind='TASK_EXIT' AND json_extract(data, '$.task')=? AND "
            "json_extract(data, '$.n')=? LIMIT 1",
            (jobid, idx, task, n)).fetchone() is not None

    def last_event(self):
        """The seq of the last committed event (0 when none)."""
        return self.db.execute("SELECT MAX(seq) FROM events").fetchone()[0] \
            or 0

    def has_job(self, jobid):
        """Does the store hold a row of job id *jobid*?"""
        return self.db.execute("SELECT 1 FROM jobs WHERE jobid=? LIMIT 1",
                               (jobid,)).fetchone() is not None

    # -- the batch: collected, then written in one transaction -----------
    def event(self, now, kind, jobid=0, idx=0, **data):
        self._events.append((now, kind, jobid, idx,
                             json.dumps(data, separators=(",", ":"))))

    def save_job(self, job):
        self._jobs[(job["jobid"], job["idx"])] = job

    def request_done(self, req_id, now, uid, kind, reply):
        self._stmts.append((
            "INSERT OR REPLACE INTO requests VALUES(?,?,?,?,?)",
            (req_id, now, uid, kind, json.dumps(reply))))

    def set_meta(self, key, value):
        self._stmts.append(("INSERT OR REPLACE INTO meta VALUES(?,?)",
                            (key, str(value))))

    def mark(self):
        """Where the open batch stands, for ``rollback_to``."""
        return (len(self._events), len(self._stmts), set(self._jobs),
                len(self._private))

    def rollback_to(self, mark):
        """Drop what was added to the open batch since *mark* (a request
        whose handler failed); what came before it still commits."""
        events, stmts, jobs, private = mark
        del self._events[events:]
        del self._stmts[stmts:]
        del self._private[private:]
        for key in [k for k in self._jobs if k not in jobs]:
            del self._jobs[key]

    def set_aside_job(self, jobid, idx, now, reason):
        """A stored job the controller cannot load ends EXIT with the
        reason; the rest of its row (its spec) is kept for the admin."""
        self.execute("UPDATE jobs SET stat='EXIT', exit_reason=?, "
                     "end_time=?, pend_reason=NULL WHERE jobid=? AND idx=?",
                     (reason, now, jobid, idx))
        self.event(now, "FINISH", jobid if isinstance(jobid, int) else 0,
                   idx if isinstance(idx, int) else 0, stat="EXIT",
                   reason=reason)

    def save_params(self, params):
        """The parameters in force (name -> text), replacing the last."""
        self._stmts.append(("DELETE FROM params", ()))
        for name, value in params.items():
            self._stmts.append(("INSERT INTO params VALUES(?,?)",
                                (name, value)))

    def clear_queues(self):
        self._stmts.append(("DELETE FROM queues", ()))

    def save_queue(self, row):
        """(name, seq, priority, open, active, conf JSON)."""
        self._stmts.append((
            "INSERT OR REPLACE INTO queues VALUES(?,?,?,?,?,?)", row))

    def clear_hosts(self):
        self._stmts.append(("DELETE FROM hosts", ()))

    def save_host(self, row):
        """(name, seq, status, adm_closed, ncpus, mxj, maxmem, maxswp,
        type, model, conf JSON, load JSON)."""
        self._stmts.append((
            "INSERT OR REPLACE INTO hosts VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
            row))

    def save_host_load(self, name, load):
        """Only the load column of host *name* (load: JSON text)."""
        self._stmts.append(("UPDATE hosts SET load=? WHERE name=?",
                            (load, name)))

    def save_job_data(self, jobid, idx, env, jobfile):
        """A job's environment (JSON text) and job file."""
        self._private.append((
            "INSERT OR REPLACE INTO job_data VALUES(?,?,?,?)",
            (jobid, idx, env, jobfile)))

    def forget_job_data(self, jobids):
        """Drop the private data of jobs (a job id given to a new job, or
        jobs the controller forgot after CLEAN_PERIOD)."""
        self._private.extend(("DELETE FROM job_data WHERE jobid=?", (j,))
                             for j in jobids)

    def job_data_ids(self):
        """The job ids the private database holds data of."""
        return {r[0] for r in self.private.execute(
            "SELECT DISTINCT jobid FROM job_data")}

    def save_message(self, jobid, idx, msg_id, user, now, text, attachment):
        """A bpost message (bstatus: msg_id 0) of a job."""
        self._stmts.append((
            "INSERT OR REPLACE INTO job_messages VALUES(?,?,?,?,?,?,?,?)",
            (jobid, idx, msg_id, user, now, text, attachment, None)))

    def save_job_group(self, path, owner, job_limit, created):
        """A job group (bgadd, bgmod, bsub -g)."""
        self._stmts.append((
            "INSERT OR REPLACE INTO job_groups VALUES(?,?,?,?)",
            (path, owner, job_limit, created)))

    def delete_job_group(self, path):
        self._stmts.append(("DELETE FROM job_groups WHERE path=?", (path,)))
        self._stmts.append(("DELETE FROM gangs WHERE path=?", (path,)))

    def save_gang(self, path, size, on_failure):
        """A job group made a gang (xce gang set)."""
        self._stmts.append(("INSERT OR REPLACE INTO gangs VALUES(?,?,?)",
                            (path, size, on_failure)))

    def delete_gang(self, path):
        self._stmts.append(("DELETE FROM gangs WHERE path=?", (path,)))

    def load_gangs(self):
        """{path: (size, on_failure)} of every gang group."""
        return {r[0]: (r[1], r[2]) for r in self.db.execute(
            "SELECT path, size, on_failure FROM gangs")}

    def job_group_activity(self):
        """{path: when it was last used}: its creation, or the end of
        the last job that finished in it (bgdel -d)."""
        return {r[0]: max(r[1] or 0, r[2] or 0) for r in self.db.execute(
            "SELECT g.path, g.created, MAX(j.end_time) FROM job_groups g "
            "LEFT JOIN all_jobs j ON json_extract(j.spec, '$.job_group') = "
            "g.path GROUP BY g.path")}

    def load_job_groups(self):
        """{path: (owner, job_limit)} of every job group."""
        return {r[0]: (r[1], r[2]) for r in self.db.execute(
            "SELECT path, owner, job_limit FROM job_groups")}

    def save_claim(self, claim_id, host, key, user, instances, counters,
                   created, expires):
        """One host's part of a claim (xce.controller.claims); key is
        the (jobid, idx) of a job's claim, None for a standalone one."""
        jobid, idx = key if key is not None else (None, None)
        self._stmts.append((
            "INSERT OR REPLACE INTO claims VALUES(?,?,?,?,?,?,?,?,?)",
            (claim_id, host, jobid, idx, user, json.dumps(instances),
             json.dumps(counters), created, expires)))

    def delete_claim(self, claim_id):
        self._stmts.append(("DELETE FROM claims WHERE id=?", (claim_id,)))

    def load_claims(self):
        """[(id, host, jobid, idx, user, instances, counters, created,
        expires)] of every claim, instances and counters decoded."""
        return [r[:5] + (json.loads(r[5]), json.loads(r[6])) +
                r[7:] for r in self.db.execute(
                    "SELECT * FROM claims ORDER BY created, id, host")]

    def execute(self, sql, args=()):
        """Any statement, in the batch: for tests and benchmarks that
        plant rows; the controller uses the named writes."""
        self._stmts.append((sql, args))

    def forget_requests(self, before):
        """Request ids recorded before *before* (housekeeping)."""
        self._stmts.append(("DELETE FROM requests WHERE time < ?",
                            (before,)))

    def pending_writes(self):
        return bool(self._events or self._jobs or self._stmts or
                    self._private)

    def commit(self):
        """Write everything collected since the last commit atomically."""
        if not self.pending_writes():
            return
        jobs = [tuple(_column(j, c) for c in JOB_COLUMNS)
                for j in self._jobs.values()]
        db = self.db
        try:
            # The private rows first: a crash between the two commits
            # leaves data of no stored job (the request is done again and
            # writes it again), never a stored job without its data.
            if self._private:
                with _transaction(self.private):
                    for sql, args in self._private:
                        self.private.execute(sql, args)
            db.execute("BEGIN IMMEDIATE")
            for sql, args in self._stmts:
                db.execute(sql, args)
            first = self._next_seq
            db.executemany(
                "INSERT INTO events(seq,time,kind,jobid,idx,data) "
                "VALUES(?,?,?,?,?,?)",
                [(first + n,) + e for n, e in enumerate(self._events)])
            db.executemany(_SAVE_JOB, jobs)
            db.execute("COMMIT")
            self.checkpoints.committed(len(jobs) + len(self._stmts) +
                                       len(self._events) + len(self._private))
        except BaseException as e:
            # SQLite may have rolled back already (a full disk does).
            if db.in_transaction:
                db.execute("ROLLBACK")
            if _disk_full(e):
                raise StoreFull(str(e)) from e      # the batch is kept
            self._events, self._jobs, self._stmts, self._private = \
                [], {}, [], []
            raise
        self._next_seq += len(self._events)
        self._events, self._jobs, self._stmts, self._private = [], {}, [], []


def _disk_full(error):
    """SQLITE_FULL, or an I/O error from a write the disk had no room for."""
    if isinstance(error, OSError):
        return error.errno == errno.ENOSPC
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and (
        code == sqlite3.SQLITE_FULL or "disk is full" in str(error) or
        code is not None and code & 0xff == sqlite3.SQLITE_IOERR)


def _column(job, name):
    value = job.get(name)
    if name == "spec" and not isinstance(value, (str, type(None))):
        return json.dumps(value, separators=(",", ":"))
    return value
