"""Read-only access to the state store for commands (any user, controller up or not).

A read-only opener of a WAL database needs its -wal and -shm files; when the
controller is stopped they may be gone, so fall back to an immutable open,
which is safe with no writer.
"""

import sys


def _no_statement_cache(maxsize=128, typed=False):
    """functools.lru_cache as _sqlite3 calls it, for its statement cache:
    ``lru_cache(size)(connection)``.  This one caches nothing: a command
    prepares each of its few statements once or twice."""
    return lambda function: function


def _load_sqlite3():
    """The C module alone: the sqlite3 package adds date and time adapters,
    which no command uses, at a third of the module's load.  Connections,
    rows and errors are the same objects.

    _sqlite3's initialisation imports functools for lru_cache, and
    functools imports collections and builds a named tuple: a quarter of
    what bjobs executes in all (11 of 42 million instructions).  When
    nothing has loaded functools yet, _sqlite3 gets a stand-in holding
    only lru_cache, taken out of sys.modules again at once, so that any
    later ``import functools`` loads the real one."""
    if "functools" in sys.modules:
        import _sqlite3
        return _sqlite3
    stand_in = type(sys)("functools")
    stand_in.lru_cache = _no_statement_cache
    sys.modules["functools"] = stand_in
    try:
        import _sqlite3
    finally:
        if sys.modules.get("functools") is stand_in:
            del sys.modules["functools"]
    return _sqlite3


try:
    sqlite3 = _load_sqlite3()
except ImportError:         # not CPython
    import sqlite3

from xce import oslite
from xce.errbase import XceError, text
from xce.model import jsoncodec
from xce.model.jobid import submitted_by
from xce.store.schema import JOB_COLUMNS, SET_ASIDE, with_history


def logdir(spool, cluster):
    """LSB_SHAREDIR/<cluster>/logdir, where the controller writes
    lsb.events and lsb.acct: xce's LSB_SHAREDIR is its spool."""
    return oslite.join(oslite.fspath(spool), cluster or "", "logdir")


def open_ro(path):
    if not oslite.exists(path):
        raise XceError(text("NO_STATE"))
    last = None
    for query in ("mode=ro", "immutable=1"):
        try:
            db = sqlite3.connect(f"file:{path}?{query}", uri=True,
                                 isolation_level=None)
            db.execute("SELECT 1 FROM meta LIMIT 1")
            return db
        except sqlite3.Error as e:
            last = e
    raise XceError(text("STATE_UNREADABLE", reason=last))


def attach_history(db, path):
    """Attach history.db beside the store at *path* (when there is one)
    and shadow ``jobs`` and ``events`` with views over both: the queries
    of this module then read the jobs the controller moved there too.
    Opened as the store is: ``mode=ro``, else ``immutable=1``."""
    history = oslite.join(oslite.dirname(oslite.fspath(path)), "history.db")
    if not oslite.exists(history):
        return
    last = None
    for query in ("mode=ro", "immutable=1"):
        try:
            db.execute("ATTACH DATABASE ? AS hist",
                       (f"file:{history}?{query}",))
        except sqlite3.Error as e:
            last = e
            continue
        try:
            db.execute("SELECT 1 FROM hist.jobs LIMIT 1")
            db.executescript(with_history())
            return
        except sqlite3.Error as e:
            last = e
            db.execute("DETACH DATABASE hist")
    raise XceError(text("STATE_UNREADABLE", reason=last))


def read_error(error):
    """One line for an SQLite error met while a command reads the store.
    A table or column the query needs but the store lacks means a store of
    an older schema that no controller of this version has migrated yet."""
    text = str(error)
    if text.startswith(("no such table", "no such column")):
        return (f"Cannot read the batch system state: {text} (the state "
                "store is older than this xce: start the controller once "
                "to upgrade it)")
    return f"Cannot read the batch system state: {text}"


_STATE_STEP = (
    "time, kind, "
    "CASE WHEN instr(data, '\"stat\"') THEN json_extract(data, '$.stat') END, "
    "CASE WHEN kind = 'SUBMIT' THEN json_extract(data, '$.hold') END, "
    "CASE WHEN kind = 'FINISH' THEN json_extract(data, '$.end_time') END")
# The events that can change a job's state: a running job's usage reports,
# the bulk of a long job's events, are not read at all.
_HAS_STATE = ("(kind IN ('SUBMIT', 'START', 'FINISH') "
              "OR instr(data, '\"stat\"'))")


# A held job's spec, NULL for the others, as column "spec": bjobs' plain
# tables say who held a PSUSP job without reading every job's spec.
HELD_SPEC = "CASE WHEN stat = 'PSUSP' THEN spec END AS spec"
# A job's spec for json_extract in a query: NULL in a set-aside row, since
# SQLite's json_extract fails the whole query on one malformed value (a
# json_valid test would parse every spec twice).
SPEC = ("(CASE WHEN exit_reason GLOB '" + SET_ASIDE.replace("'", "''") +
        "*' THEN NULL ELSE spec END)")
# The columns of the rows bjdepinfo reads, in this order.
DEPEND_COLUMNS = "jobid, idx, stat, name, user, exit_code, spec"
# The jobs the controller still knows, given the (DONE, EXIT) end-time
# cutoffs of now (xce.model.cleanperiod): unfinished, or finished since.
KNOWN = ("(stat NOT IN ('DONE','EXIT') OR stat = 'DONE' AND end_time >= ? "
         "OR stat = 'EXIT' AND end_time >= ?)")


class Several(list):
    """The events of one job id and index that served several jobs (the
    id given again once MAX_JOBID wrapped): one list per job, each from
    its SUBMIT, oldest first (Reader.job_events)."""

    def __init__(self, events):
        super().__init__()
        for event in events:
            if event[1] == "SUBMIT" or not self:
                self.append([])
            self[-1].append(event)

    def of(self, submit_time):
        """The events of the job submitted at *submit_time* (a row's):
        those from the last SUBMIT at or before it."""
        return submitted_by(self, submit_time or 0, lambda e: e[0][0])


class Reader:
    def __init__(self, path, history=False):
        """*history*: the jobs of history.db too (attach_history)."""
        self.db = open_ro(path)
        self.path, self.historic = path, False
        if history:
            try:
                self.with_history()
            except BaseException:
                self.db.close()
                raise

    def with_history(self):
        """From now on, the jobs and events of history.db too: those the
        controller moved out of the store CLEAN_PERIOD after they ended."""
        if not self.historic:
            attach_history(self.db, self.path)
            self.historic = True
        return self

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def meta(self):
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def params(self):
        return dict(self.db.execute("SELECT name, value FROM params"))

    def queues(self):
        cur = self.db.execute("SELECT name, priority, open, active, conf "
                              "FROM queues ORDER BY priority DESC, seq")
        return [{"name": n, "priority": p, "open": o, "active": a,
                 "conf": jsoncodec.loads(c or "{}")} for n, p, o, a, c in cur]

    def hosts(self):
        cur = self.db.execute(
            "SELECT name, status, adm_closed, ncpus, mxj, maxmem, maxswp, "
            "type, model, conf, load FROM hosts ORDER BY seq")
        keys = ("name", "status", "adm_closed", "ncpus", "mxj", "maxmem",
                "maxswp", "type", "model", "conf", "load")
        rows = []
        for row in cur:
            h = dict(zip(keys, row))
            h["conf"] = jsoncodec.loads(h["conf"] or "{}")
            h["load"] = jsoncodec.loads(h["load"] or "{}")
            rows.append(h)
        return rows

    def jobs(self, where="", args=(), columns=JOB_COLUMNS, readonly=False):
        """Job rows as dicts; *readonly* rows (sqlite3.Row, read by name,
        not changed) cost less to build, which counts at 10,000 jobs."""
        sql = f"SELECT {','.join(columns)} FROM jobs"
        if where:
            sql += " WHERE " + where
        sql += " ORDER BY seq, idx"
        cur = self.db.cursor()
        if readonly:
            cur.row_factory = sqlite3.Row
            return cur.execute(sql, args).fetchall()
        keys = [c.rsplit(" AS ", 1)[-1] for c in columns]
        return [dict(zip(keys, row)) for row in cur.execute(sql, args)]

    def job_counts(self):
        """(queue, stat) -> (jobs, slots) for the unfinished jobs."""
        cur = self.db.execute(
            "SELECT queue, stat, COUNT(*), SUM(nslots) FROM jobs "
            "WHERE stat NOT IN ('DONE','EXIT') GROUP BY queue, stat")
        return {(q, s): (n, slots or 0) for q, s, n, slots in cur}

    def job_groups(self):
        """[(path, owner, job_limit)] of the job groups (bjgroup)."""
        return self.db.execute(
            "SELECT path, owner, job_limit FROM job_groups ORDER BY rowid"
        ).fetchall()

    def gangs(self):
        """[(path, size, on_failure)] of the gang groups (xce gang)."""
        return self.db.execute(
            "SELECT path, size, on_failure FROM gangs ORDER BY path"
        ).fetchall()

    def group_counts(self, finished_since, exited_since=None):
        """(job group, stat) -> (jobs, slots) over the jobs with a group:
        the unfinished ones and those finished since *finished_since*
        (EXIT ones: since *exited_since* when given, CLEAN_PERIOD beside
        CLEAN_PERIOD_DONE)."""
        if exited_since is None:
            exited_since = finished_since
        cur = self.db.execute(
            "SELECT json_extract(spec, '$.job_group') AS g, stat, COUNT(*), "
            "SUM(nslots) FROM jobs WHERE g IS NOT NULL AND "
            "(stat NOT IN ('DONE','EXIT') OR stat = 'DONE' AND end_time >= ? "
            "OR stat = 'EXIT' AND end_time >= ?) GROUP BY g, stat",
            (finished_since, exited_since))
        return {(g, st): (n, slots or 0) for g, st, n, slots in cur}

    def user_counts(self):
        """user -> {stat: slots} over the unfinished jobs."""
        cur = self.db.execute(
            "SELECT user, stat, SUM(nslots) FROM jobs WHERE stat NOT IN "
            "('DONE','EXIT') GROUP BY user, stat")
        counts = {}
        for user, stat, slots in cur:
            counts.setdefault(user, {})[stat] = slots or 0
        return counts

    def unfinished_slots(self):
        """(stat, nslots, spec JSON) of every unfinished job."""
        return self.db.execute("SELECT stat, nslots, spec FROM jobs WHERE "
                               "stat NOT IN ('DONE','EXIT')").fetchall()

    def stat_counts(self):
        """stat -> number of jobs the store has (finished ones too)."""
        return dict(self.db.execute(
            "SELECT stat, COUNT(*) FROM jobs GROUP BY stat"))

    def user_numbers(self):
        """(users with a job in the store, users with an unfinished one)."""
        users = self.db.execute(
            "SELECT COUNT(DISTINCT user) FROM jobs").fetchone()[0]
        active = self.db.execute(
            "SELECT COUNT(DISTINCT user) FROM jobs WHERE stat NOT IN "
            "('DONE','EXIT')").fetchone()[0]
        return users, active

    def last_reconfig(self, since):
        """Time of the last reconfiguration at or after *since*, or None."""
        return self.db.execute(
            "SELECT MAX(time) FROM events WHERE kind='RECONFIG' AND "
            "time >= ?", (since,)).fetchone()[0]

    def job_owners(self, jobid, idx=None):
        """The users who own the job (or the array's elements)."""
        return {user for (user,) in self.db.execute(
            "SELECT DISTINCT user FROM jobs WHERE jobid=?" +
            ("" if idx is None else " AND idx=?"),
            (jobid,) if idx is None else (jobid, idx))}

    def messages(self, jobid, idx=None, msg_id=None):
        """(jobid, idx, msg_id, user, time, text, attachment, data) of a
        job's messages (bpost, bstatus), by element then number."""
        sql = ("SELECT jobid, idx, msg_id, user, time, text, attachment, "
               "data FROM job_messages WHERE jobid=?")
        args = [jobid]
        if idx is not None:
            sql += " AND idx=?"
            args.append(idx)
        if msg_id is not None:
            sql += " AND msg_id=?"
            args.append(msg_id)
        return self.db.execute(sql + " ORDER BY idx, msg_id",
                               args).fetchall()

    def task_exits(self, jobid, idx, after_seq):
        """(seq, data JSON) of the job's blaunch task exits after event
        *after_seq*."""
        return self.db.execute(
            "SELECT seq, data FROM events WHERE jobid=? AND idx=? AND "
            "kind='TASK_EXIT' AND seq>?", (jobid, idx, after_seq)).fetchall()

    # -- dependencies (bjdepinfo): rows of DEPEND_COLUMNS --------------------
    # Only the jobs the controller knows (KNOWN, *cutoffs* (DONE, EXIT)):
    # one forgotten but not yet moved to history.db is no job.
    def depend_rows(self, jobid, idx, cutoffs):
        """The job (every element unless *idx*), by index."""
        sql = f"SELECT {DEPEND_COLUMNS} FROM jobs WHERE jobid=? AND {KNOWN}"
        args = [jobid, *cutoffs]
        if idx is not None:
            sql += " AND idx=?"
            args.append(idx)
        return self.db.execute(sql + " ORDER BY idx", args).fetchall()

    def depend_rows_of(self, user, cutoffs):
        """Every job of *user* (a -w condition may name one by name)."""
        return self.db.execute(
            f"SELECT {DEPEND_COLUMNS} FROM jobs WHERE user=? AND {KNOWN}",
            (user, *cutoffs)).fetchall()

    def dependent_rows(self, cutoffs):
        """The jobs that may have a -w expression, in submission order."""
        return self.db.execute(
            f"SELECT {DEPEND_COLUMNS} FROM jobs WHERE spec LIKE "
            f"'%\"depend\"%' AND {KNOWN} ORDER BY seq, idx",
            cutoffs).fetchall()

    def gpu_jobs(self):
        """(jobid, idx, stat, gpu_alloc) of the unfinished jobs holding
        GPUs (bhosts -gpu)."""
        cur = self.db.execute(
            "SELECT jobid, idx, stat, spec FROM jobs WHERE stat IN "
            "('RUN','USUSP','SSUSP','UNKWN') AND spec LIKE '%gpu_alloc%'")
        out = []
        for jobid, idx, stat, spec in cur:
            alloc = jsoncodec.loads(spec or "{}").get("gpu_alloc")
            if alloc:
                out.append((jobid, idx, stat, alloc))
        return out

    def claims(self):
        """[(id, host, jobid, idx, user, instances, counters, created,
        expires)] of every claim (xce claim list, bhosts -gpu), JSON
        decoded; none from a store the controller has not migrated."""
        try:
            rows = self.db.execute(
                "SELECT * FROM claims ORDER BY created, id, host").fetchall()
        except sqlite3.OperationalError:
            return []
        return [tuple(r[:5]) + (jsoncodec.loads(r[5] or "null"),
                                jsoncodec.loads(r[6] or "null")) +
                tuple(r[7:]) for r in rows]

    def host_counts(self):
        """host -> {stat: slots} over the unfinished jobs' exec hosts."""
        cur = self.db.execute(
            "SELECT stat, exec_hosts FROM jobs WHERE stat IN "
            "('RUN','USUSP','SSUSP','UNKWN')")
        counts = {}
        for stat, hosts in cur:
            for h in (hosts or "").split():
                per = counts.setdefault(h, {})
                per[stat] = per.get(stat, 0) + 1
        for held in self.reservations().values():
            for h, n in held["hosts"].items():
                per = counts.setdefault(h, {})
                per["RSV"] = per.get("RSV", 0) + n
        return counts

    def reservations(self):
        """The slots pending jobs hold (queue SLOT_RESERVE) as the
        controller's last pass left them: {(jobid, idx): {"since",
        "hosts": {host: slots}, "start": predicted start or None}}."""
        row = self.db.execute(
            "SELECT value FROM meta WHERE key = 'reservations'").fetchone()
        try:
            rows = jsoncodec.loads(row[0]) if row and row[0] else []
        except ValueError:
            rows = []
        return {(r["job"], r["idx"]): r for r in rows}

    # -- history (bhist, bacct) ---------------------------------------------
    def events(self):
        """Every event, in the order the controller committed them:
        (time, kind, jobid, idx, data JSON) -- what xce sim --verify
        replays."""
        return self.db.execute("SELECT time, kind, jobid, idx, data FROM "
                               "events ORDER BY seq")

    def events_between(self, t0, t1):
        """The job events committed from *t0* to *t1* (epoch seconds, both
        inclusive; None: unbounded), in the order they were committed:
        (time, kind, jobid, idx, data JSON) -- bhist -t's chronicle."""
        sql = "SELECT time, kind, jobid, idx, data FROM events WHERE jobid > 0"
        args = []
        if t0 is not None:
            sql += " AND time >= ?"
            args.append(t0)
        if t1 is not None:
            sql += " AND time < ?"
            args.append(t1 + 1)
        return self.db.execute(sql + " ORDER BY seq", args)

    def job_events(self, keys):
        """The events of the jobs *keys* ((jobid, idx) pairs), oldest first:
        {key: [(time, kind, data_json), ...]}; a Several where the id
        served several jobs."""
        return self._per_job(keys, "time, kind, data")

    def job_state_steps(self, keys):
        """Like job_events, but only what decides a job's state, pulled out
        of the event's JSON by SQLite: {key: [(time, kind, stat, hold,
        end_time), ...]}.  bhist's time table needs no more, and decoding
        every event in Python cost most of ``bhist -a`` at 100,000 jobs.
        Only events that can hold a field are parsed (most START, RUNNING
        and USAGE events have no state)."""
        return self._per_job(keys, _STATE_STEP, _HAS_STATE)

    def _per_job(self, keys, columns, only="1"):
        """Few jobs are looked up by the events_by_job index; many are read
        in one ordered index scan."""
        wanted = set(keys)
        found = {key: [] for key in wanted}
        if not wanted:
            return found
        base = f"SELECT jobid, idx, {columns} FROM events "
        ids = sorted({jobid for jobid, _ in wanted})
        if len(ids) <= 500:
            marks = ",".join("?" * len(ids))
            cur = self.db.execute(base + f"WHERE jobid IN ({marks}) AND "
                                  f"{only} ORDER BY jobid, idx, seq", ids)
        else:
            cur = self.db.execute(base + f"WHERE jobid > 0 AND {only} "
                                  "ORDER BY jobid, idx, seq")
        get = found.get
        several = []
        for row in cur:
            events = get((row[0], row[1]))
            if events is not None:
                if row[3] == "SUBMIT" and events:
                    several.append((row[0], row[1]))
                events.append(row[2:])
        for key in several:
            if type(found[key]) is list:
                found[key] = Several(found[key])
        return found

    def job_totals(self, expressions, where="", args=()):
        """One row of SQL aggregates (``SUM(...)``, ...) over matching jobs."""
        sql = f"SELECT {', '.join(expressions)} FROM jobs"
        if where:
            sql += " WHERE " + where
        return self.db.execute(sql, args).fetchone()
