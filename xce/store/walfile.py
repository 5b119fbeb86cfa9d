"""WAL checkpoints taken after the replies, not inside a commit.

SQLite's automatic checkpoint runs in the COMMIT that makes the WAL pass
its threshold: that commit copies the WAL's pages into the database file
and syncs it (two more syncs and every page written since the last
checkpoint) before the controller can reply to the requests of its turn.
A checkpoint adds nothing to the durability of xce.db and history.db
(their WAL is synced at each commit; private.db's rows, synced only at
checkpoints, are by no reply's account), so the controller takes it
itself, after the turn's replies, every EVERY_COMMITS commits or EVERY_ROWS rows written;
the automatic one stays as a net at NET_PAGES for a turn that writes more
than that alone (a bulk submission).  PASSIVE: a checkpoint never waits
for a reader (a command holding an old snapshot); what it leaves is taken
by the next one, and a WAL that went in whole starts again from its
head at once (see _checkpoint).
"""

import logging
import os
import sqlite3

log = logging.getLogger("xce.store")

EVERY_COMMITS = 128
EVERY_ROWS = 2000
NET_PAGES = 10000       # 40 MB of WAL with 4 KiB pages


def open_wal(path, mode, synchronous="FULL"):
    """A WAL database file of *mode*; SQLite gives its -wal and -shm files
    the database file's mode.  *synchronous*: FULL syncs the WAL at each
    commit; NORMAL only at checkpoints (the file stays whole, the last
    commits may go with a power loss)."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, mode))
    for suffix in ("", "-wal", "-shm"):
        try:
            os.chmod(f"{path}{suffix}", mode)
        except FileNotFoundError:
            pass
    db = sqlite3.connect(str(path), isolation_level=None,
                         check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={synchronous}")
    # The automatic checkpoint as a net only (see above).
    db.execute(f"PRAGMA wal_autocheckpoint={NET_PAGES}")
    return db


class transaction:
    """BEGIN IMMEDIATE ... COMMIT on *db*, rolled back on an error."""

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, error, tb):
        if kind is None:
            self.db.execute("COMMIT")
        elif self.db.in_transaction:
            self.db.execute("ROLLBACK")


class Checkpoints:
    """Counts the commits of *dbs* (connections) and checkpoints every WAL
    they hold, attached databases included, when due."""

    def __init__(self, *dbs):
        self.dbs = dbs
        self.commits = self.rows = 0

    def committed(self, rows):
        self.commits += 1
        self.rows += rows

    def due(self):
        return self.commits >= EVERY_COMMITS or self.rows >= EVERY_ROWS

    def run(self):
        """Checkpoint when due; True when one was taken.  A failure (a
        full disk) is logged and tried again at the next due point: the
        WAL keeps every commit meanwhile."""
        if not self.due():
            return False
        self.commits = self.rows = 0
        for db in self.dbs:
            for schema in [row[1] for row in
                           db.execute("PRAGMA database_list")]:
                try:
                    _checkpoint(db, schema)
                except sqlite3.Error as e:
                    log.warning("store checkpoint failed: %s", e)
        return True


def _checkpoint(db, schema):
    """Checkpoint one database; when every frame went in, the next commit
    starts the WAL again from its head and syncs the new header on its
    own: a commit of the unchanged user_version takes that sync here,
    after the replies, instead of in the next turn's commit.  Not for a
    WAL of one frame: that one is the last such commit's, in a database
    nobody wrote since (history.db between retention turns)."""
    _, frames, done = db.execute(
        f"PRAGMA {schema}.wal_checkpoint(PASSIVE)").fetchone()
    if frames > 1 and frames == done:
        version = db.execute(f"PRAGMA {schema}.user_version").fetchone()[0]
        db.execute(f"PRAGMA {schema}.user_version={int(version)}")
