"""The store's side of retention: finished jobs and old events of no job
leave xce.db for history.db (xce.controller.retention decides when).

Mixed into xce.store.writer.Store: the copies to history.db are committed
at once, the deletions from xce.db go into the Store's open batch.
"""

import itertools

from xce.store.schema import JOB_COLUMNS
from xce.store.walfile import transaction


class Retire:
    """Store's moves of rows to history.db (uses its db and batch)."""

    def expired_jobs(self, before, limit, done_before=None):
        """(jobid, idx, seq) of at most *limit* finished jobs that ended
        before *before* (DONE jobs: before *done_before* when given, which
        is the later), the oldest first (index jobs_by_end)."""
        done_before = max(before, done_before or before)
        return self.db.execute(
            "SELECT jobid, idx, seq FROM jobs WHERE end_time < ? AND "
            "(stat = 'DONE' OR stat = 'EXIT' AND end_time < ?) "
            "ORDER BY end_time LIMIT ?",
            (done_before, before, limit)).fetchall()

    def attachments_of(self, keys):
        """(jobid, idx, msg_id) of the messages of jobs *keys* ((jobid,
        idx, seq)) that have an attached file (bpost -a)."""
        if not keys:
            return []
        return self.db.execute(
            "SELECT m.jobid, m.idx, m.msg_id FROM (VALUES "
            f"{','.join(['(?,?)'] * len(keys))}) k JOIN main.job_messages m "
            "ON m.jobid = k.column1 AND m.idx = k.column2 WHERE "
            "m.attachment IS NOT NULL",
            [v for jobid, idx, _ in keys for v in (jobid, idx)]).fetchall()

    def retire_jobs(self, keys):
        """Move the rows and events of the finished jobs *keys* ((jobid,
        idx, seq)) to history.db: the copy is committed there now (a copy
        made again after a crash replaces the first), their deletion from
        xce.db, with their messages, goes into the open batch.  Each
        statement looks the keys up by index (a join on a VALUES list)."""
        if not keys:
            return
        args = [v for key in keys for v in key]
        rows = f"(VALUES {','.join(['(?,?,?)'] * len(keys))}) k"
        job = (f"{rows} JOIN main.jobs j ON j.jobid = k.column1 AND "
               "j.idx = k.column2 AND j.seq IS k.column3")
        events = (f"{rows} JOIN main.events e ON e.jobid = k.column1 AND "
                  "e.idx = k.column2")
        with transaction(self.db):
            self.db.execute(
                "INSERT OR REPLACE INTO hist.jobs SELECT "
                f"{','.join('j.' + c for c in JOB_COLUMNS)} FROM {job}",
                args)
            self.db.execute(
                "INSERT OR REPLACE INTO hist.events SELECT e.seq, e.time, "
                f"e.kind, e.jobid, e.idx, e.data FROM {events}", args)
        self._stmts += [
            ("INSERT OR REPLACE INTO meta SELECT 'last_event_seq', "
             "MAX(seq) FROM main.events", ()),
            ("DELETE FROM main.jobs WHERE rowid IN (SELECT j.rowid FROM "
             f"{job} WHERE j.stat IN ('DONE', 'EXIT'))", args),
            (f"DELETE FROM main.events WHERE seq IN (SELECT e.seq FROM "
             f"{events})", args),
            ("DELETE FROM main.job_messages WHERE rowid IN (SELECT m.rowid "
             f"FROM {rows} JOIN main.job_messages m ON m.jobid = k.column1 "
             "AND m.idx = k.column2)", args)]

    def retire_cluster_events(self, before, limit):
        """Move the oldest events of no job (job id 0: controller starts,
        reconfigurations, queue and host controls, claims, gangs) that
        happened before *before*, at most *limit*, to history.db as
        retire_jobs moves a job's; how many."""
        rows = self.db.execute("SELECT seq, time FROM main.events WHERE "
                               "jobid = 0 ORDER BY seq LIMIT ?", (limit,))
        seqs = list(itertools.takewhile(lambda r: r[1] < before, rows))
        if not seqs:
            return 0
        span = "FROM main.events WHERE jobid = 0 AND seq BETWEEN ? AND ?"
        args = (seqs[0][0], seqs[-1][0])
        with transaction(self.db):
            self.db.execute("INSERT OR REPLACE INTO hist.events SELECT seq, "
                            f"time, kind, jobid, idx, data {span}", args)
        self._stmts += [("INSERT OR REPLACE INTO meta SELECT "
                         "'last_event_seq', MAX(seq) FROM main.events", ()),
                        (f"DELETE {span}", args)]
        return len(seqs)
