"""The state store's schema and its forward migrations (see xce-store(5)).

Shared by the controller (writer) and the commands (read-only), so it is
stdlib-only and cheap to import.
"""

SCHEMA_VERSION = 8

# Column order of the jobs table; the writer stores a job dict in this order.
JOB_COLUMNS = (
    "jobid", "idx", "stat", "user", "uid", "queue", "name", "command",
    "submit_time", "start_time", "end_time", "from_host", "exec_hosts",
    "nslots", "attempt", "exit_code", "exit_reason", "pend_reason",
    "cpu_time", "max_mem", "avg_mem", "pids", "pgid", "outfile", "errfile",
    "seq", "spec",
)

# How exit_reason starts in a stored job the controller could not load
# (xce.controller.isolate): its row keeps the spec it held, which may not
# parse.
SET_ASIDE = "Job set aside by the controller: "

# The columns of the jobs table as version 1 made them (no migration has
# changed them since); history.db's jobs table has the same.  Part of a
# migration: never to be edited.
_JOBS_COLUMNS_SQL = """
    jobid INTEGER NOT NULL, idx INTEGER NOT NULL DEFAULT 0,
    stat TEXT NOT NULL, user TEXT, uid INTEGER, queue TEXT, name TEXT,
    command TEXT, submit_time REAL, start_time REAL, end_time REAL,
    from_host TEXT, exec_hosts TEXT, nslots INTEGER, attempt INTEGER,
    exit_code INTEGER, exit_reason TEXT, pend_reason TEXT, cpu_time REAL,
    max_mem INTEGER, avg_mem INTEGER, pids TEXT, pgid INTEGER,
    outfile TEXT, errfile TEXT, seq INTEGER, spec TEXT"""

_V1 = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE params(name TEXT PRIMARY KEY, value TEXT);
CREATE TABLE queues(name TEXT PRIMARY KEY, seq INTEGER, priority INTEGER,
    open INTEGER, active INTEGER, conf TEXT);
CREATE TABLE hosts(name TEXT PRIMARY KEY, seq INTEGER, status TEXT,
    adm_closed INTEGER, ncpus INTEGER, mxj INTEGER, maxmem INTEGER,
    maxswp INTEGER, type TEXT, model TEXT, conf TEXT, load TEXT);
CREATE TABLE jobs({_JOBS_COLUMNS_SQL},
    PRIMARY KEY(jobid, idx));
CREATE INDEX jobs_by_stat ON jobs(stat, user);
CREATE INDEX jobs_by_end ON jobs(end_time);
CREATE TABLE events(seq INTEGER PRIMARY KEY, time REAL, kind TEXT,
    jobid INTEGER, idx INTEGER, data TEXT);
CREATE INDEX events_by_job ON events(jobid, idx);
CREATE TABLE requests(id TEXT PRIMARY KEY, time REAL, uid INTEGER,
    kind TEXT, reply TEXT);
"""

# A job's environment and script are read at dispatch only, so they live
# apart from the rows that every bjobs reads.
_V2 = """
CREATE TABLE job_data(jobid INTEGER NOT NULL, idx INTEGER NOT NULL DEFAULT 0,
    env TEXT, jobfile TEXT, PRIMARY KEY(jobid, idx));
CREATE INDEX requests_by_time ON requests(time);
"""

# The default bjobs (one user's unfinished jobs, in submission order) reads
# this index alone, however many finished jobs the store holds.
_V3 = """
CREATE INDEX jobs_unfinished ON jobs(user, seq, idx)
    WHERE stat NOT IN ('DONE','EXIT');
"""

# bpost/bread: the messages posted to a job, one row per message index
# (a new post to the same index replaces the old one, as in LSF).
_V4 = """
CREATE TABLE job_messages(jobid INTEGER NOT NULL, idx INTEGER NOT NULL,
    msg_id INTEGER NOT NULL, user TEXT, time REAL, text TEXT,
    attachment TEXT, data TEXT, PRIMARY KEY(jobid, idx, msg_id));
"""

# Job groups (bgadd, bsub -g): one row per group, parents before their
# children; job_limit NULL means no limit of its own.
_V5 = """
CREATE TABLE job_groups(path TEXT PRIMARY KEY, owner TEXT,
    job_limit INTEGER, created REAL);
"""

# Claims (xce.controller.claims): what a started job holds of a host's
# GPUs and counters (jobid set, released when the job ends) and the
# standalone claims an administrator made (xce claim add; jobid NULL).
# One row per claim and host; instances and counters are JSON.
_V6 = """
CREATE TABLE claims(id TEXT NOT NULL, host TEXT NOT NULL, jobid INTEGER,
    idx INTEGER, user TEXT, instances TEXT, counters TEXT, created REAL,
    expires REAL, PRIMARY KEY(id, host));
"""

# A job's environment, script and bsub -f contents may hold secrets, and
# every local user reads xce.db: they moved to the controller's private
# database (PRIVATE_SCHEMA); the writer copies the rows there first.
_V7 = """
DROP TABLE job_data;
"""

# Gang groups (xce gang): a job group whose members start together;
# on_failure is kill or continue.
_V8 = """
CREATE TABLE gangs(path TEXT PRIMARY KEY, size INTEGER, on_failure TEXT);
"""

# MIGRATIONS[n] takes a store at version n to n + 1.
MIGRATIONS = {0: _V1, 1: _V2, 2: _V3, 3: _V4, 4: _V5, 5: _V6, 6: _V7,
              7: _V8}

# The private database (private.db beside xce.db, mode 0600): what only
# the controller may read.  Its own version, in its own user_version.
PRIVATE_SCHEMA = """
CREATE TABLE IF NOT EXISTS job_data(jobid INTEGER NOT NULL,
    idx INTEGER NOT NULL DEFAULT 0, env TEXT, jobfile TEXT,
    PRIMARY KEY(jobid, idx));
"""

# The history database (history.db beside xce.db, mode 0644): the rows
# and events of the jobs the controller forgot, CLEAN_PERIOD after they
# finished (xce.controller.retention), for bhist, bacct and xce sim.  A
# job id given again to a new job keeps the old job's row apart: its key
# holds its submission order (seq).  Its own version, in its user_version.
HISTORY_VERSION = 1
HISTORY_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS jobs({_JOBS_COLUMNS_SQL},
    PRIMARY KEY(jobid, idx, seq));
CREATE INDEX IF NOT EXISTS jobs_by_end ON jobs(end_time);
CREATE INDEX IF NOT EXISTS jobs_by_user ON jobs(user, seq);
CREATE TABLE IF NOT EXISTS events(seq INTEGER PRIMARY KEY, time REAL,
    kind TEXT, jobid INTEGER, idx INTEGER, data TEXT);
CREATE INDEX IF NOT EXISTS events_by_job ON events(jobid, idx);
PRAGMA user_version={HISTORY_VERSION};
"""


def with_history(live="main", old="hist", jobs="jobs", events="events"):
    """SQL of the temporary views *jobs* and *events* that show the rows
    of the store's schema *live* followed by those of the history
    database attached as *old*.  A row copied there whose deletion from
    the store is not committed yet (the controller copies first) shows
    once."""
    cols = ",".join(JOB_COLUMNS)
    return (
        f"CREATE TEMP VIEW IF NOT EXISTS {jobs} AS SELECT {cols} FROM "
        f"{live}.jobs UNION ALL SELECT {cols} FROM {old}.jobs h WHERE NOT "
        f"EXISTS (SELECT 1 FROM {live}.jobs m WHERE m.jobid = h.jobid AND "
        f"m.idx = h.idx AND m.seq IS h.seq);"
        f"CREATE TEMP VIEW IF NOT EXISTS {events} AS SELECT seq, time, kind, "
        f"jobid, idx, data FROM {live}.events UNION ALL SELECT seq, time, "
        f"kind, jobid, idx, data FROM {old}.events h WHERE NOT EXISTS "
        f"(SELECT 1 FROM {live}.events m WHERE m.seq = h.seq);")
