"""``bhist -t``: every job event of a time window, oldest first.

One dated line per event, the whole ctime() stamp (with the year), then
``Job <id>`` and what bhist -l says of the event with its first letter in
lower case (``Job <12> starting (Pid 345);``).  The submission, the
dispatch and the end of a job have lines of their own, in the words of
LSF's "View chronological history of jobs" example:

    Wed Oct 22 14:03:09 2009: Job <1575> submitted from host <hostA> to
    Queue <normal>, CWD <$HOME>, User <user1>, Project <default>, Command
    <sleep 100>;
    Wed Oct 22 14:03:18 2009: Job <1575> dispatched to <hostB>;
    Wed Oct 22 14:17:04 2009: Job <1575> done successfully;

Long lines fold as bhist -l folds them (xce.client.text.wrap).  The window
is ``-T time0,time1``, by default the last week (``LSB_BHIST_HOURS``
hours when set).
"""

import os
import time

from xce.client.history.events import decode_all
from xce.client.history.long import event_lines
from xce.client.jobs import values as jv
from xce.client.jobs.long import requested_resources
from xce.client.jobs.table import job_label
from xce.client.text import units
from xce.client.text.wrap import wrap

WEEK = 7 * 24 * 3600


def default_window(now=None, environ=None):
    """(t0, now): the last week, or the last LSB_BHIST_HOURS hours."""
    now = time.time() if now is None else now
    hours = (os.environ if environ is None else environ).get(
        "LSB_BHIST_HOURS", "")
    span = int(hours) * 3600 if hours.strip().isdigit() else WEEK
    return now - span, now


def chronicle(reader, window):
    """The lines of ``bhist -t`` for *window* ((t0, t1), None: open)."""
    raw = list(reader.events_between(*window))
    if not raw:
        return []
    rows = _rows(reader, {(r[2], r[3]) for r in raw})
    datas = decode_all([r[4] for r in raw])
    lines = []
    for (t, kind, jobid, idx, _), data in zip(raw, datas):
        row = _row_at(rows.get((jobid, idx)) or (), t)
        if row is not None:
            lines += [wrap(line) for line in event_text(row, t, kind, data)]
    return lines


def _rows(reader, keys):
    """{(jobid, idx): [row, ...]} of the jobs the events are of."""
    found = {}
    ids = sorted({jobid for jobid, _ in keys})
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        where = f"jobid IN ({','.join('?' * len(part))})"
        for row in reader.jobs(where, part):
            key = (row["jobid"], row["idx"])
            if key in keys:
                found.setdefault(key, []).append(row)
    return found


def _row_at(rows, t):
    """The job the id named at *t* (an id serves again once MAX_JOBID
    wrapped): the latest submitted by then."""
    best = None
    for row in rows:
        if (row.get("submit_time") or 0) <= t + 1 and (
                best is None or row["submit_time"] > best["submit_time"]):
            best = row
    return best if best is not None else (rows[0] if rows else None)


def event_text(row, t, kind, data):
    """The logical line(s) one event prints."""
    head = f"{time.ctime(t)}: Job <{job_label(row)}> "
    spec = jv.spec(row)
    if kind == "SUBMIT":
        return [head + _submitted(row, spec, data)]
    if kind == "START":
        hosts = data.get("hosts") or jv.hosts(row)
        where = " ".join(f"<{h}>" for h in jv.counted_hosts(hosts))
        if len(hosts) > 1:
            where = f"{len(hosts)} Hosts/Processors {where}"
        return [head + f"dispatched to {where};"]
    if kind == "FINISH":
        if data.get("stat") == "DONE":
            return [head + "done successfully;"]
        code = data.get("exit_code")
        return [head + (f"exited with exit code {code};" if code
                        else "exited;")]
    stamp = units.long_time(t) + ": "
    out = []
    for line in event_lines(row, spec, jv.home_of(row.get("user")), t,
                            kind, data):
        if line.startswith(stamp):      # a bmod's detail lines have none
            line = head + line[len(stamp):len(stamp) + 1].lower() + \
                line[len(stamp) + 1:]
        out.append(line)
    return out


def _submitted(row, spec, data):
    home = jv.home_of(row.get("user"))
    cwd = jv.home_relative(spec.get("subcwd"), home) or "$HOME"
    items = [f"submitted from host <{row.get('from_host')}> to Queue "
             f"<{data.get('queue') or row.get('queue')}>", f"CWD <{cwd}>"]
    if spec.get("name"):
        items.append(f"Job Name <{row.get('name')}>")
    command = (row.get("command") or "").replace("\n", "; ")
    items += [f"User <{row.get('user')}>",
              f"Project <{spec.get('project') or 'default'}>",
              f"Command <{command}>"]
    if requested_resources(spec):
        items.append(f"Requested Resources <{requested_resources(spec)}>")
    return ", ".join(items) + ";"
