"""bgadd, bgdel, bgmod (one request each) and bjgroup (the store, read)."""

import sys
import time

from xce.errors import XceError, text
from xce.model import jobgroups as jg
from xce.model import cleanperiod, states

HEADER = ("GROUP_NAME", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "FINISH",
          "SLA", "JLIMIT", "OWNER")
# bjgroup -N: slots, with no finished or limit columns.
HEADER_SLOTS = ("GROUP_NAME", "NSLOTS", "PEND", "RUN", "SSUSP", "USUSP",
                "RSV", "SLA", "OWNER")
_STATS = ("PEND", "RUN", "SSUSP", "USUSP")


def request(site, op, path, limit=None, **sweep):
    """One jobgroup request; print the controller's line(s); exit code.
    *sweep*: bgdel's sweep, owner and idle (None values left out)."""
    from xce.spool.client import call
    if sweep.get("sweep") in (None, "below") and not jg.valid(path):
        raise XceError(text("BAD_JGROUP_NAME", path=path))
    body = {"op": op, "path": path}
    if limit is not None:
        body["limit"] = limit
    body.update((k, v) for k, v in sweep.items() if v is not None)
    reply = call(site, "jobgroup", body)
    if not reply.get("ok"):
        raise XceError(reply.get("error") or text("REQUEST_FAILED"))
    print(reply["text"])
    return 0


def show(reader, top=None, tree=False, slots=False, out=sys.stdout):
    """bjgroup: one line per group (its subgroups' jobs counted in)."""
    rows = reader.job_groups()
    if top is not None:
        only_top = top.endswith("/") and top != "/"
        top = jg.normal(top)
        if top != jg.ROOT and top not in {r[0] for r in rows}:
            raise XceError(text("JGROUP_NULL", path=top))
        rows = [r for r in rows if (r[0] == top if only_top
                                    else jg.is_under(r[0], top))]
    if not rows:
        print("No job group found", file=sys.stderr)
        return 0 if top is None else 255
    counts = reader.group_counts(
        *cleanperiod.cutoffs(reader.params(), time.time()))
    pick = 1 if slots else 0
    if tree:
        rows = sorted(rows, key=lambda r: r[0].split("/"))
    else:       # LSF: by depth, then as created
        rows = sorted(rows, key=lambda r: r[0].count("/"))
    lines = [HEADER if not slots else HEADER_SLOTS]
    for path, owner, limit in rows:
        per = dict.fromkeys(_STATS + ("FINISH",), 0)
        for (g, stat), pair in counts.items():
            if jg.is_under(g, path):
                key = "FINISH" if stat in states.FINISHED else \
                    "PEND" if stat in states.PENDING else \
                    stat if stat in _STATS else None
                if key:
                    per[key] += pair[pick]
        total = sum(per.values())
        started = per["RUN"] + per["SSUSP"] + per["USUSP"]
        if slots:
            lines.append((path, total - per["FINISH"], per["PEND"],
                          per["RUN"], per["SSUSP"], per["USUSP"], 0, "()",
                          owner))
            continue
        lines.append((path, total, per["PEND"], per["RUN"], per["SSUSP"],
                      per["USUSP"], per["FINISH"], "()",
                      f"{started}/{'-' if limit is None else limit}", owner))
    width = max(len(r[0]) for r in lines) + 2
    for r in lines:
        print(f"{r[0]:<{width}}" + "".join(f"{str(v):>7} " for v in r[1:-1])
              + f"  {r[-1]}", file=out)
    return 0
