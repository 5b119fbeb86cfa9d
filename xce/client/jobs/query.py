"""Which jobs a bjobs-style query selects, as SQL over the store."""

import time

from xce.client.ids import expand as expand_id
from xce.client.site import current_user
from xce.model import cleanperiod
from xce.store.reader import JOB_COLUMNS

DEFAULT_CLEAN_PERIOD = cleanperiod.DEFAULT
# Every column of a job row, for the layouts that read whole rows.
ALL_COLUMNS = JOB_COLUMNS


def _user_clause(user, args):
    """*user*: a name, or a tuple, the members of a user group (expanded:
    `all` and `~name` as lsb.users writes them)."""
    if isinstance(user, str):
        args.append(user)
        return "user=?"
    if "all" in user:
        out = [m[1:] for m in user if m.startswith("~")]
        args += out
        return f"user NOT IN ({','.join('?' * len(out))})" if out else ""
    names = [m for m in user if not m.startswith("~")]
    args += names
    return f"user IN ({','.join('?' * len(names))})" if names else "0"


class Query:
    """Selection options shared by bjobs (and, later, bhist and bkill)."""

    def __init__(self, states=None, user=None, queue=None, name=None,
                 ids=(), finished=False, unfinished=True):
        self.states = states            # None: any of the chosen groups
        # None: the caller; "all": everyone; a tuple: a group's members
        self.user = user
        self.queue = queue
        self.name = name
        self.ids = [one for word in ids for one in expand_id(word)]
        self.finished = finished        # include recently finished jobs
        self.unfinished = unfinished

    def where(self, params, now=None):
        clauses, args = [], []
        if self.ids:
            clauses.append(ids_clause(self.ids, args))
        else:
            user = self.user or current_user()
            if user != "all":
                clauses.append(_user_clause(user, args))
            clauses.append(self._state_clause(params, now, args))
        if self.states:
            clauses.append(f"stat IN ({','.join('?' * len(self.states))})")
            args += list(self.states)
        if self.queue:
            clauses.append("queue=?")
            args.append(self.queue)
        return " AND ".join(c for c in clauses if c), args

    def _state_clause(self, params, now, args):
        parts = []
        if self.unfinished:
            parts.append("stat NOT IN ('DONE','EXIT')")
        if self.finished:
            # DONE jobs for CLEAN_PERIOD_DONE when set, EXIT ones for
            # CLEAN_PERIOD, as the controller keeps them.
            done, exited = cleanperiod.cutoffs(params, now or time.time())
            parts.append("(stat = 'DONE' AND end_time >= ? OR "
                         "stat = 'EXIT' AND end_time >= ?)")
            args += [done, exited]
        return "(" + " OR ".join(parts) + ")"

    def filter_names(self, rows):
        if not self.name:
            return rows
        from xce.model.arrayspec import name_matches
        return [r for r in rows if name_matches(r["name"], self.name)]


def ids_clause(ids, args):
    """The SQL that selects the jobs (label, jobid, idx) name, its
    arguments appended to *args*: one JSON list per kind of id (of
    integers: written here, without the json package's start-up), so that
    thousands of ids make neither an expression too deep for SQLite nor
    more arguments than it takes."""
    whole = [jobid for _, jobid, idx in ids if idx is None]
    elements = [[jobid, idx] for _, jobid, idx in ids if idx is not None]
    ors = []
    if whole:
        ors.append("jobid IN (SELECT value FROM json_each(?))")
        args.append("[%s]" % ",".join(map(str, whole)))
    if elements:
        ors.append("(jobid, idx) IN (SELECT json_extract(value, '$[0]'), "
                   "json_extract(value, '$[1]') FROM json_each(?))")
        args.append("[%s]" % ",".join("[%d,%d]" % (jobid, idx)
                                      for jobid, idx in elements))
    return "(" + " OR ".join(ors) + ")"
