"""The controller's write API: events and the rows they change, one transaction.

Only the controller opens the store through this module (invariant 1).
"""

import errno
import json
import os
import sqlite3

from xce.store.schema import JOB_COLUMNS, MIGRATIONS, SCHEMA_VERSION

_SAVE_JOB = (f"INSERT OR REPLACE INTO jobs({','.join(JOB_COLUMNS)}) "
             f"VALUES({','.join('?' * len(JOB_COLUMNS))})")


class StoreTooNew(RuntimeError):
    pass


class StoreFull(Exception):
    """The file system of the store is full; the batch is kept."""


class Store:
    def __init__(self, path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None,
                                  check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self._migrate()
        # Commands read the store as any user.
        for suffix in ("", "-wal", "-shm"):
            try:
                os.chmod(f"{path}{suffix}", 0o644)
            except FileNotFoundError:
                pass
        self._events = []
        self._jobs = {}
        self._stmts = []

    def _migrate(self):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreTooNew(f"store schema {version} is newer than "
                              f"this xce ({SCHEMA_VERSION})")
        while version < SCHEMA_VERSION:
            self.db.executescript("BEGIN;" + MIGRATIONS[version] +
                                  f"PRAGMA user_version={version + 1};COMMIT;")
            version += 1

    def close(self):
        # Fold the WAL into the database so readers find it whole, whether
        # or not SQLite removes the -wal file at close.
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        self.db.close()

    # -- reads the controller needs at start -----------------------------
    def meta(self, key, default=None):
        row = self.db.execute("SELECT value FROM meta WHERE key=?",
                              (key,)).fetchone()
        return row[0] if row else default

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

    def live_jobs_of_finished(self, clean_before):
        """Finished jobs older than the clean period (for trimming)."""
        return self.db.execute(
            "SELECT COUNT(*) FROM jobs WHERE end_time < ?",
            (clean_before,)).fetchone()[0]

    # -- the batch: collected, then written in one transaction -----------
    def event(self, now, kind, jobid=0, idx=0, **data):
        self._events.append((now, kind, jobid, idx,
                             json.dumps(data, separators=(",", ":"))))

    def save_job(self, job):
        self._jobs[(job["jobid"], job["idx"])] = job

    def execute(self, sql, args=()):
        self._stmts.append((sql, args))

    def request_done(self, req_id, now, uid, kind, reply):
        self._stmts.append((
            "INSERT OR REPLACE INTO requests VALUES(?,?,?,?,?)",
            (req_id, now, uid, kind, json.dumps(reply))))

    def set_meta(self, key, value):
        self._stmts.append(("INSERT OR REPLACE INTO meta VALUES(?,?)",
                            (key, str(value))))

    def mark(self):
        """Where the open batch stands, for ``rollback_to``."""
        return len(self._events), len(self._stmts), set(self._jobs)

    def rollback_to(self, mark):
        """Drop what was added to the open batch since *mark* (a request
        whose handler failed); what came before it still commits."""
        events, stmts, jobs = mark
        del self._events[events:]
        del self._stmts[stmts:]
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

    def pending_writes(self):
        return bool(self._events or self._jobs or self._stmts)

    def commit(self):
        """Write everything collected since the last commit atomically."""
        if not self.pending_writes():
            return
        jobs = [tuple(_column(j, c) for c in JOB_COLUMNS)
                for j in self._jobs.values()]
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            for sql, args in self._stmts:
                db.execute(sql, args)
            db.executemany("INSERT INTO events(time,kind,jobid,idx,data) "
                           "VALUES(?,?,?,?,?)", self._events)
            db.executemany(_SAVE_JOB, jobs)
            db.execute("COMMIT")
        except BaseException as e:
            # SQLite may have rolled back already (a full disk does).
            if db.in_transaction:
                db.execute("ROLLBACK")
            if _disk_full(e):
                raise StoreFull(str(e)) from e      # the batch is kept
            self._events, self._jobs, self._stmts = [], {}, []
            raise
        self._events, self._jobs, self._stmts = [], {}, []


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
