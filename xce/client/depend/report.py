"""bjdepinfo's walk over dependency levels and its LSF-style table."""

from xce.client.depend import tree
from xce.errors import XceError, text

PARENT_HEADER = tree.COLUMNS.format(
    "JOBID", "PARENT", "PARENT_STATUS", "PARENT_NAME", "LEVEL")
CHILD_HEADER = tree.COLUMNS.format(
    "JOBID", "CHILD", "CHILD_STATUS", "CHILD_NAME", "LEVEL")


def _line(job, other, level):
    return tree.COLUMNS.format(
        tree._label(job[0], job[1]), tree._label(other[0], other[1]),
        other[2], other[3] or "", level)


def _parents(reader, row, pending_only):
    """(condition lines for -l, parent rows) of one job."""
    notes, found = [], []
    for cond, ok, parents in tree.conditions(reader, row):
        if pending_only and ok:
            continue
        word = "satisfied" if ok else "not satisfied"
        notes.append(f"The dependency condition of job "
                     f"<{tree._label(row[0], row[1])}> is {word}: {cond}")
        found += [p for p in parents if p not in found]
    return notes, found


def report(reader, word, jobid, idx, level, child, pending_only, long_out,
           now=None):
    """The lines bjdepinfo prints, walking up to LEVEL levels, as the
    controller knows the jobs at *now* (tree.Known)."""
    reader = tree.Known(reader, now)
    start = tree._row(reader, jobid, idx)
    if not start:
        raise XceError(text("JOB_ERROR", job=word, error=text("NO_JOB")))
    lines, seen = [], set()
    frontier = [(r, 1) for r in start]
    while frontier:
        row, depth = frontier.pop(0)
        key = (row[0], row[1])
        if key in seen or depth > level:
            continue
        seen.add(key)
        if child:
            others = tree.children(reader, row)
        else:
            notes, others = _parents(reader, row, pending_only)
            if long_out:
                lines += notes
        lines += [("row", _line(row, o, depth)) for o in others]
        frontier += [(o, depth + 1) for o in others]
    return lines


def print_report(lines, word, child):
    rows = [l[1] for l in lines if isinstance(l, tuple)]
    if not rows:
        what = "child" if child else "parent"
        print(f"Job <{word}> has no {what} job dependencies.")
        return 0
    print(CHILD_HEADER if child else PARENT_HEADER)
    for line in lines:
        print(line[1] if isinstance(line, tuple) else line)
    return 0
