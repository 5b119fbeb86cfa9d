"""xce's own history as a workload, from LSF's log files: lsb.events
(JOB_NEW, JOB_START and the JOB_STATUS that ends a job) or lsb.acct (one
JOB_FINISH per finished job, which holds all of it).  Either file, as xce
writes them (xce.store.lsbfiles, lsbacct), gives the same jobs as the
store does (xce.sim.history): each submitted at its submit time to its
queue with its slots (-n lo,hi), resource requirement, asked hosts (-m)
and run limit (-W), running as long as it ran live; lsb.events' JOB_NEW
gives its user group (-G) too, which the controller's submission checks
as live (lsb.acct's JOB_FINISH, as xce writes it, has none).

As with the store, dependencies are left out, and a job that never
started or never ended in the log is skipped and counted.  Field
positions are those LSF writes (lsb.events(5)/lsb.acct(5) for LSF 10.1).
"""

import re

from xce.sim.swf import Trace, TraceJob

# A field: a double-quoted string (inner quotes doubled) or a bare word.
_FIELD = re.compile(r'"((?:[^"]|"")*)"|(\S+)')
# JOB_STATUS codes of a job that ended (lsbatch.h JOB_STAT_EXIT, _DONE).
ENDED = {32, 64}
RLIMIT_RUN = 9
# lsbatch.h SUB_INTERACTIVE: JOB_NEW carries niosPort.
SUB_INTERACTIVE = 0x4000000


def is_log(path):
    """Whether *path* looks like an LSF log: its first record is a quoted
    record name (lsb.events may begin with a "# <time>" header)."""
    try:
        with open(path, "rb") as f:
            for line in f:
                line = line.strip()
                if line:
                    return line.startswith((b'"', b"# "))
    except OSError:
        return False
    return False


def fields(line):
    """The fields of one record: strings unquoted, numbers left as text."""
    return [m.group(1).replace('""', '"') if m.group(2) is None
            else m.group(2) for m in _FIELD.finditer(line)]


def read(path):
    trace = Trace()
    new, started, ended, finished = {}, {}, {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                rec = fields(line)
                name, when = rec[0], float(rec[2])
                if name == "JOB_NEW":
                    job = _job_new(rec[3:], n)
                    new[(job.number, job.spec.pop("_idx"))] = job
                elif name == "JOB_START":
                    key = _start_key(rec[3:])
                    started.setdefault(key, when)
                elif name == "JOB_START_ACCEPT":
                    # The job began running on its host: the start the
                    # store (and lsb.acct) keep.
                    body = rec[3:]
                    started[(int(body[0]), int(body[3]))] = when
                elif name == "JOB_STATUS":
                    body = rec[3:]
                    if int(body[1]) in ENDED:
                        ended[(int(body[0]), _status_idx(body))] = \
                            float(body[5]) or when
                elif name == "JOB_FINISH":
                    finished.append(_job_finish(rec[3:], when, n))
            except (IndexError, ValueError):
                trace.bad.append((n, "not a record xce can read"))
    for key, start in started.items():
        base = new.get(key) or new.get((key[0], 0))
        end = ended.get(key)
        if base is None or end is None:
            trace.bad.append((base.line if base else 0,
                              "the job did not run to its end in the log"))
            continue
        finished.append(_element(base, key[1], start, end))
    for job in new.values():
        if job.number not in {k[0] for k in started}:
            trace.bad.append((job.line,
                              "the job did not run to its end in the log"))
    trace.jobs = [j for j in finished if j is not None]
    trace.jobs.sort(key=lambda j: (j.submit, j.number, j.spec["_idx"]))
    for j in trace.jobs:
        j.spec.pop("_idx")
    return trace


def _status_idx(body):
    """idx of a JOB_STATUS: after ru (0: no usage follows), jFlags and
    exitStatus; xce before LSF 10.1's whole layout left out jFlags."""
    return int(body[9] if len(body) > 11 else body[8])


def _start_key(body):
    """(jobid, idx) of a JOB_START: idx follows the hosts, then two
    strings, jFlags and userGroup (xce before LSF 10.1's whole layout left
    out userGroup, and ended the record with effectiveResReq)."""
    nhosts = int(body[5])
    at = 6 + nhosts + 3
    return int(body[0]), int(body[at + 1] if len(body) > at + 2 else body[at])


def _job_new(body, line):
    """A JOB_NEW in LSF's file order (as LSF 9.1/10.1 write it and xce
    writes it now, and as xce wrote it before 10.1's later fields), or in
    the order of LSBLIB's jobNewLog structure that xce wrote for a while
    (options2 right after options: hostFactor, the one real number, one
    field further on)."""
    if "." not in body[23]:
        return _job_new_struct_order(body, line)
    jobid, options, lo, submit = (int(body[0]), int(body[2]), int(body[3]),
                                  float(body[4]))
    user, rlimits = body[10], body[11:22]
    queue, resreq, cwd = body[25], body[26], body[28]
    nasked = int(body[35])
    asked = body[36:36 + nasked]
    rest = body[36 + nasked:]
    # dependCond preExecCmd jobName command nxf, its groups of three,
    # mailUser projectName, niosPort for an interactive job alone.
    name, command = rest[2], rest[3]
    rest = rest[5 + 3 * int(rest[4]):]
    rest = rest[3:] if options & SUB_INTERACTIVE else rest[2:]
    # maxNumProcessors schedHostType loginShell, then timeEvent userGroup
    # exceptList (left out before 10.1's later fields, with everything
    # after jobDescription), options2 idx.
    hi = int(rest[0])
    idx = int(rest[7] if len(rest) > 10 else rest[4])
    group = rest[4] if len(rest) > 10 else ""
    return _new_job(jobid, submit, lo, hi, user, rlimits, queue, resreq,
                    asked, name, command, cwd, idx, line, group)


def _job_new_struct_order(body, line):
    jobid, lo, submit = int(body[0]), int(body[4]), float(body[5])
    user, rlimits = body[11], body[12:23]
    queue, resreq, cwd = body[26], body[27], body[29]
    nasked = int(body[39])
    asked = body[40:40 + nasked]
    rest = body[40 + nasked:]
    # dependCond timeEvent jobName command nxf, its groups of three,
    # then preExecCmd mailUser projectName niosPort maxNumProcessors
    # schedHostType loginShell userGroup exceptList idx.
    name, command = rest[2], rest[3]
    rest = rest[5 + 3 * int(rest[4]):]
    hi, idx = int(rest[4]), int(rest[9])
    return _new_job(jobid, submit, lo, hi, user, rlimits, queue, resreq,
                    asked, name, command, cwd, idx, line, rest[7])


def _new_job(jobid, submit, lo, hi, user, rlimits, queue, resreq, asked,
             name, command, cwd, idx, line, group):
    runlimit = int(rlimits[RLIMIT_RUN])
    spec = _spec(queue, lo, hi, resreq, asked, name, command, cwd,
                 runlimit)
    spec["_idx"] = idx
    if group:       # -G as given: the controller's submission checks it
        spec["user_group"] = group
    return TraceJob(jobid, submit, 0.0, lo, 0.0, user, "", -1, line, spec)


def _job_finish(body, when, line):
    jobid, lo, submit, start = (int(body[0]), int(body[3]),
                                float(body[4]), float(body[7]))
    user, queue, resreq, cwd = body[8], body[9], body[10], body[14]
    nasked = int(body[19])
    asked = body[20:20 + nasked]
    rest = body[20 + nasked:]
    nexec = int(rest[0])
    rest = rest[1 + nexec:]
    # jStatus hostFactor jobName command utime stime maxrss, 16 rusage
    # figures, mailUser projectName exitStatus maxNumProcessors
    # loginShell timeEvent idx ...
    name, command = rest[2], rest[3]
    hi, idx = int(rest[26]), int(rest[29])
    rest = rest[53:]                # from the submitEXT count on
    next_ = 1 + 2 * int(rest[0])    # its key/value pairs
    nhost_rusage = int(rest[next_])
    runlimit = int(rest[next_ + 1 + 5 * nhost_rusage + 1])
    spec = _spec(queue, lo, hi, resreq, asked, name, command, cwd,
                 runlimit)
    spec["_idx"] = idx
    job = TraceJob(jobid, submit, 0.0, lo, 0.0, user, "", -1, line, spec)
    if start <= 0:
        return None
    return _element(job, idx, start, when, spec)


def _spec(queue, lo, hi, resreq, asked, name, command, cwd, runlimit):
    spec = {"queue": queue, "nslots": [lo, hi],
            "resreq": [resreq] if resreq else [], "name": name or None,
            "command": command, "cwd": cwd or "/", "subcwd": cwd or "/",
            "from_host": "", "depend": None}
    if asked:
        spec["asked_hosts"] = list(asked)
    if runlimit > 0:
        spec["runlimit"] = runlimit / 60.0
    return spec


def _element(base, idx, start, end, spec=None):
    """The job (or array element *idx*) that ran from *start* to *end*."""
    spec = dict(spec if spec is not None else base.spec)
    spec["_idx"] = idx
    if idx and spec.get("name") and "[" in spec["name"]:
        # An element is replayed as a job of its own, as from the store.
        spec["name"] = spec["name"].split("[", 1)[0] + f"[{idx}]"
    run = max(0.0, end - start)
    limit = spec["runlimit"] * 60 if spec.get("runlimit") else run
    return TraceJob(base.number, base.submit, run, base.procs, limit,
                    base.user, "", -1, base.line, spec)
