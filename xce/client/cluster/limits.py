"""blimits: each configured resource limit, its scope and its use."""

import json
import time

from xce.client.site import sections
from xce.client.text.cells import cell, lcell, line, rcell
from xce.config import limitcheck
from xce.errors import XceError, text
from xce.lang import timevalue
from xce.model.projects import ancestors

LIMIT_COLUMNS = ("SLOTS", "MEM", "TMP", "SWP", "JOBS")
SCOPE_COLUMNS = (("USERS", ("USERS", "PER_USER")),
                 ("QUEUES", ("QUEUES", "PER_QUEUE")),
                 ("HOSTS", ("HOSTS", "PER_HOST")),
                 ("PROJECTS", ("PROJECTS", "PER_PROJECT")))
# Shown only when a limit shown names application profiles.
APPS_COLUMN = ("APPS", ("APPS", "PER_APP"))


def blimits_text(reader, names=(), wide=False, projects=()):
    """Each configured limit with its scope and its limit values, then
    the quotas of the project tree (a limit named after its project).
    Where running jobs use a limit, one row per consumer in use shows
    ``used/limit`` as the controller last counted it (``limit_usage`` in
    the meta table); an unused limit shows ``-/limit``.  *projects*
    (blimits -P) keeps the limits that apply to those projects."""
    found = sections(reader)
    limits = [lim for lim in found["limits"] if isinstance(lim, dict)] + \
        _project_quotas(found["projects"])
    if names:
        limits = [lim for lim in limits if str(lim.get("NAME")) in names]
    if projects:
        limits = [lim for lim in limits if _covers(lim, projects)]
    if not limits:
        raise XceError(text("NO_LIMIT_USAGE"))
    usage = _limit_usage(reader)
    now = time.time()
    scopes = SCOPE_COLUMNS + ((APPS_COLUMN,) if any(
        lim.get(k) not in (None, "") for lim in limits
        for k in APPS_COLUMN[1]) else ())
    head = line(cell("NAME", 18), *[cell(c, 12) for c, _ in scopes],
                *[rcell(c, 10) for c in LIMIT_COLUMNS])
    rows = ["", "INTERNAL RESOURCE LIMITS:", "", head]
    text_cell = lcell if wide else cell      # -w: names and scopes never cut
    for i, lim in enumerate(limits):
        if _resources(lim) and all(lim.get(c) in (None, "") for c in
                                   LIMIT_COLUMNS + ("SLOTS_PER_PROCESSOR",)):
            continue        # shown under EXTERNAL RESOURCE LIMITS only
        name = str(lim.get("NAME") or f"limit{i + 1}")
        for used in usage.get(name) or [None]:
            scope = [_scope(lim, keys, used) for _, keys in scopes]
            # A time-based amount shows the value in force now.
            values = [_limit_cell(timevalue.in_force(lim.get(c), now),
                                  used, c)
                      for c in LIMIT_COLUMNS]
            rows.append(line(text_cell(name, 18),
                             *[text_cell(s, 12) for s in scope],
                             *[f"{v:>10} " for v in values]))
    rows += _external(limits, usage, scopes, text_cell)
    return "\n".join(rows)


def _resources(lim):
    try:
        return limitcheck.resource_pairs(lim.get("RESOURCE"))
    except ValueError:
        return {}


def _external(limits, usage, scopes, text_cell):
    """EXTERNAL RESOURCE LIMITS: a column per resource that a RESOURCE
    names, ``used/limit`` in each row of a limit that caps it."""
    names = sorted({n for lim in limits for n in _resources(lim)})
    if not names:
        return []
    head = line(cell("NAME", 18), *[cell(c, 12) for c, _ in scopes],
                *[rcell(c, 10) for c in names])
    rows = ["", "EXTERNAL RESOURCE LIMITS:", "", head]
    for i, lim in enumerate(limits):
        caps = _resources(lim)
        if not caps:
            continue
        name = str(lim.get("NAME") or f"limit{i + 1}")
        for used in usage.get(name) or [None]:
            scope = [_scope(lim, keys, used) for _, keys in scopes]
            held = (used or {}).get("resources") or {}
            values = ["-" if n not in caps else _limit_cell(
                caps[n], None if used is None else {n: held.get(n, 0)}, n)
                for n in names]
            rows.append(line(text_cell(name, 18),
                             *[text_cell(s, 12) for s in scope],
                             *[f"{v:>10} " for v in values]))
    return rows


def _project_quotas(table):
    """The projects: tree's SLOTS/JOBS/MEM as Limit-section dicts."""
    out = []
    for name, props in (table or {}).items():
        if not isinstance(props, dict):
            continue
        quota = {k: props[k] for k in ("SLOTS", "JOBS", "MEM")
                 if props.get(k) not in (None, "")}
        if quota:
            out.append({"NAME": str(name), "PROJECTS": str(name), **quota})
    return out


def _covers(lim, projects):
    """A limit naming projects counts one of *projects* (or all)."""
    words = set()
    for key in ("PROJECTS", "PER_PROJECT"):
        value = lim.get(key) or ()
        words |= set(value.split() if isinstance(value, str) else
                     (str(v) for v in value))
    if "all" in words:
        return True
    return any(words.intersection(ancestors(p)) for p in projects)


def _limit_usage(reader):
    """limit name -> its counters in use (dicts), from the meta table."""
    try:
        found = json.loads(reader.meta().get("limit_usage") or "[]")
    except ValueError:
        found = []
    out = {}
    for row in found:
        if isinstance(row, dict):
            out.setdefault(str(row.get("name")), []).append(row)
    return out


def _scope(lim, keys, used=None):
    if used is not None:
        # A PER_ limit counts each consumer: the row names the one in use.
        mine = used.get(keys[0].lower())
        if mine not in (None, "*"):
            return str(mine)
    for key in keys:
        value = lim.get(key)
        if value not in (None, ""):
            words = value if isinstance(value, str) else \
                " ".join(str(v) for v in value)
            return words + ("/" if key.startswith("PER_") else "")
    return "-"


_USED = {"SLOTS": "slots", "JOBS": "jobs", "MEM": "mem", "SWP": "swp",
         "TMP": "tmp"}


def _limit_cell(value, used=None, column=None):
    if value in (None, ""):
        return "-"
    if used is None or _USED.get(column, column) not in used:
        return f"-/{value}"
    amount = used.get(_USED.get(column, column)) or 0
    if isinstance(amount, float):
        amount = int(amount) if amount.is_integer() else round(amount, 1)
    return f"{amount}/{value}"
