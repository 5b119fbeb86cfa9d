"""bjdepinfo: the jobs a job depends on (parents) or that depend on it
(children), read from the store's jobs and their ``-w`` expressions.

Parents come from parsing the job's own expression; children from scanning
the expressions of the other jobs, so both directions need no index.
"""

import json
import time

from xce.lang import depend
from xce.model import cleanperiod

COLUMNS = "{:<14} {:<14} {:<14} {:<12} {}"


class Known:
    """The store's jobs as the controller knows them now: a finished job
    is forgotten CLEAN_PERIOD (DONE: CLEAN_PERIOD_DONE) after it ended,
    to the second, as the controller's dependency lookups forget it
    (xce.controller.jobindex), whether or not its row has moved to
    history.db yet; a condition on it is never satisfied."""

    def __init__(self, reader, now=None):
        self.reader = reader
        self.cutoffs = cleanperiod.cutoffs(
            reader.params(), time.time() if now is None else now)

    def depend_rows(self, jobid, idx=None):
        return self.reader.depend_rows(jobid, idx, self.cutoffs)

    def depend_rows_of(self, user):
        return self.reader.depend_rows_of(user, self.cutoffs)

    def dependent_rows(self):
        return self.reader.dependent_rows(self.cutoffs)


def _label(jobid, idx):
    return f"{jobid}[{idx}]" if idx else str(jobid)


def _row(reader, jobid, idx):
    """Rows of the store reader's DEPEND_COLUMNS (jobid, idx, stat, name,
    user, exit_code, spec)."""
    return reader.depend_rows(jobid, idx)


def _lookup(reader, user):
    """JobRef -> rows it names: an id (and index), or a name of USER's."""
    def rows(ref):
        if ref.job_id is not None:
            idx = ref.index if isinstance(ref.index, int) else None
            return _row(reader, ref.job_id, idx)
        found = reader.depend_rows_of(user)
        return [r for r in found if ref.matches_name(_base_name(r))]
    return rows


def _base_name(row):
    name = row[3] or ""
    return name.split("[", 1)[0] if name.endswith("]") else name


def _expr(row):
    try:
        return (json.loads(row[6] or "{}") or {}).get("depend")
    except ValueError:
        return None


def conditions(reader, row):
    """[(condition text, satisfied?, [parent rows])] of one job."""
    expr = _expr(row)
    if not expr:
        return []
    try:
        tree = depend.parse(expr)
    except depend.DependError:
        return []
    rows = _lookup(reader, row[4])
    out = []
    for cond in _leaves(tree):
        parents = rows(cond.ref)
        facts = [depend.JobFacts(state=p[2], exit_code=p[5]) for p in parents]
        ok = depend.evaluate(cond, lambda _ref, f=facts: f) is True
        out.append((str(cond), ok, parents))
    return out


def _leaves(tree):
    if isinstance(tree, depend.Condition):
        return [tree]
    if isinstance(tree, depend.Not):
        return _leaves(tree.operand)
    return [c for item in tree.items for c in _leaves(item)]


def children(reader, row):
    """Rows of the jobs whose expression names ROW's job."""
    out = []
    for other in reader.dependent_rows():
        for _, _, parents in conditions(reader, other):
            if any(p[0] == row[0] and p[1] == row[1] for p in parents):
                out.append(other)
                break
    return out
