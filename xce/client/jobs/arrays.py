"""bjobs -A: one summary line per job array, its elements counted by state.

The arrays shown are those with an element among the selected jobs; the
counts cover every element the store still holds, whatever its state, as
LSF counts DONE and EXIT elements next to the pending and running ones.
"""

from xce.model import jsoncodec

HEADER = ("JOBID    ARRAY_SPEC  OWNER   NJOBS PEND DONE  RUN EXIT SSUSP "
          "USUSP PSUSP")
# Counted columns after NJOBS, in header order.
_COUNTED = ("PEND", "DONE", "RUN", "EXIT", "SSUSP", "USUSP", "PSUSP")
_WIDTHS = (4, 4, 4, 4, 5, 5, 5)


def is_element(row):
    return bool(row["idx"])


def arrays(rows, reader):
    """[(jobid, array spec text, owner, {stat: n}, n)] in submission order."""
    ids = []
    for row in rows:
        if is_element(row) and row["jobid"] not in ids:
            ids.append(row["jobid"])
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    elements = reader.jobs(f"jobid IN ({marks})", ids,
                           ("jobid", "idx", "stat", "user", "spec"))
    found = {}
    for el in elements:
        entry = found.get(el["jobid"])
        if entry is None:
            entry = found[el["jobid"]] = [_spec_text(el), el["user"], {}, 0]
        counts = entry[2]
        # An unknown-host element still counts as running, as in bjobs -sum.
        stat = "RUN" if el["stat"] == "UNKWN" else el["stat"]
        counts[stat] = counts.get(stat, 0) + 1
        entry[3] += 1
    return [(jobid, *found[jobid]) for jobid in ids if jobid in found]


def _spec_text(row):
    try:
        spec = jsoncodec.loads(row["spec"] or "{}")
    except ValueError:
        spec = {}
    name = spec.get("array_name") or ""
    return f"{name}[{spec.get('array_spec', '')}]"


def line(jobid, spec_text, owner, counts, njobs, wide=False):
    if wide:
        head = f"{jobid:<7}  {spec_text} {owner} "
    else:
        head = f"{jobid:<7}  {spec_text:<8.8} {owner:>8.8} "
    numbers = " ".join(f"{counts.get(s, 0):>{w}}"
                       for s, w in zip(_COUNTED, _WIDTHS))
    return f"{head}  {njobs:>5} {numbers}"


def table(summaries, wide=False, noheader=False):
    lines = [] if noheader else [HEADER]
    lines += [line(*s, wide=wide) for s in summaries]
    return "\n".join(lines)
