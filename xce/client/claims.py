"""xce claim add / remove (one request each: devices of a host, or
tokens of shared resources) and xce claim list (the store, read); the GPU marks bhosts -gpu shows come from here too."""

import time

from xce.errors import XceError, text

HEADER = ("CLAIM", "USER", "HOST", "GPUS", "COUNTERS", "CREATED", "UNTIL")


def parse_gpus(value):
    """--gpus 0,3: the device ids, each once."""
    try:
        ids = [int(x) for x in value.split(",")]
    except ValueError:
        raise XceError(text("CLAIM_BAD_GPUS")) from None
    if not ids or min(ids) < 0 or max(ids) > 1023 or \
            len(set(ids)) != len(ids):
        raise XceError(text("CLAIM_BAD_GPUS"))
    return ids


def parse_counters(values):
    """--counter lic=2 (repeatable): {name: amount}, each name once."""
    out = {}
    for value in values:
        name, eq, amount = value.partition("=")
        try:
            number = float(amount)
        except ValueError:
            number = None
        if not eq or not name or name in out or number is None or \
                not 0 < number <= 1e15:
            raise XceError(text("CLAIM_BAD_COUNTER"))
        out[name] = number
    return out


def parse_until(value, now):
    """--until: bsub -t's [[[YYYY:]MM:]DD:]hh:mm, or epoch seconds."""
    if value.isdigit():
        return int(value)
    from xce.client.submit import times
    try:
        return int(times.parse(value, now, "term"))
    except XceError:
        raise XceError(text("CLAIM_BAD_TIME")) from None


def request(site, body):
    """One claim request; print the controller's line; exit code."""
    from xce.spool.client import call
    reply = call(site, "claim", body)
    if not reply.get("ok"):
        raise XceError(reply.get("error") or text("REQUEST_FAILED"))
    print(reply["text"])
    return 0


def lines(reader, user=None, host=None):
    """xce claim list: one line per claim and host, oldest first."""
    out = [HEADER]
    for (cid, h, _jobid, _idx, owner, inst, counters, created,
         until) in reader.claims():
        if (user and owner != user) or (host and h != host):
            continue
        ids = (inst or {}).get("gpus")
        out.append((cid.replace(" ", ":"), owner, h or "-",
                    ",".join(map(str, ids)) if ids else "-",
                    _counters(counters), _when(created), _when(until)))
    return out


def table(rows):
    """The rows in columns as wide as their widest cell."""
    from xce.client.text.cells import lcell, line
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "".join(line(*(lcell(v, w) for v, w in zip(r, widths))) + "\n"
                   for r in rows)


def _counters(terms):
    """name=amount[/duration s[ decay]] of each rusage[] term."""
    return ",".join(
        f"{n}={v:g}" + (f"/{d:g}s" if d else "") + ("/decay" if d and y
                                                    else "")
        for n, v, d, y in terms or ()) or "-"


def _when(t):
    return time.strftime("%b %d %H:%M", time.localtime(t)) if t else "-"


def reserved_devices(reader):
    """{host: {device id: user}} of the standalone claims (bhosts -gpu
    marks a claimed device with its user)."""
    out = {}
    for cid, h, jobid, _idx, owner, inst, _c, _t, _u in reader.claims():
        if jobid is None:
            for i in (inst or {}).get("gpus") or ():
                out.setdefault(h, {})[i] = owner
    return out
