"""The JOB_NEW record of lsb.events, in LSF 10.1's whole layout.

Parsers of lsb.events walk JOB_NEW field by field to its end (IBM's
lsb.events(5) for LSF 10.1), so every field of the layout is written, in
its order: options2 right after options, the spool files before
subHomeDir, timeEvent after dependCond, the file transfers before
preExecCmd, then the fields LSF added later (job group, application
profile, post-exec, run-time estimate, requeue exit values, job
description, the MultiCluster ids, network, CPU frequency, options4 and
the data requirement files).  A field xce has no value for is written as
LSF writes it unset: "" for a string, 0 for a number, -1 where LSF
itself writes -1 (userPriority, warningTimePeriod, runtimeEstimation,
srcJobId, dstJobId), a count of 0 for a list.
"""

from xce.store.lsbchanges import (SUB2_JOB_GROUP, SUB2_JOB_PRIORITY,
                                  SUB2_OVERWRITE_ERR_FILE,
                                  SUB2_OVERWRITE_OUT_FILE, SUB3_APP,
                                  SUB3_JOB_REQUEUE, SUB3_POST_EXEC,
                                  SUB3_RUNTIME_ESTIMATION, text_of, xfiles)
from xce.store.lsbfields import (NO_CLUSTER, home, limits, q, spec_of,
                                 submit_options)

SUB2_HOLD = 0x01
UNSET = -1
# umask 022, as LSF logs a job submitted under the usual mask.
UMASK = 18
_EMPTY = q("")


def options2(spec):
    value = SUB2_HOLD if spec.get("hold") else 0
    if spec.get("user_priority") is not None:
        value |= SUB2_JOB_PRIORITY
    if spec.get("job_group"):
        value |= SUB2_JOB_GROUP
    if spec.get("stdout_mode") == "w":          # -oo
        value |= SUB2_OVERWRITE_OUT_FILE
    if spec.get("stderr_mode") == "w":          # -eo
        value |= SUB2_OVERWRITE_ERR_FILE
    return value


def options3(spec):
    value = 0
    for key, bit in (("app", SUB3_APP), ("post_exec", SUB3_POST_EXEC),
                     ("estimate", SUB3_RUNTIME_ESTIMATION),
                     ("requeue_exit", SUB3_JOB_REQUEUE)):
        if spec.get(key) not in (None, "", []):
            value |= bit
    return value


def _asked(spec):
    asked = spec.get("asked_hosts") or spec.get("hosts") or []   # bsub -m
    return asked.split() if isinstance(asked, str) else list(asked)


def _estimate(spec):
    """runtimeEstimation in seconds (bsub -We is in minutes)."""
    value = spec.get("estimate")
    return int(float(value) * 60) if value is not None else UNSET


def job_new(job, data, jobid, idx, db):
    """JOB_NEW of a job; of a job array, one JOB_NEW with idx 0 and the
    name as submitted ("name[1-10]%2"), written with its first element
    (older events, without array_head, give one per element)."""
    head = data.get("array_head")
    if head is False:
        return []
    spec = spec_of(job)
    name = job.get("name")
    if head:
        idx, name = 0, spec.get("name") or name
    asked = _asked(spec)
    lo, hi = (spec.get("nslots") or [1, 1])[:2]
    priority = spec.get("user_priority")
    fields = [
        jobid, job.get("uid") or spec.get("uid") or 0,
        submit_options(spec), options2(spec), lo,
        int(job.get("submit_time") or 0),
        int(spec.get("begin_time") or 0),                   # bsub -b
        int(spec.get("term_time") or 0),                    # bsub -t
        0, 0, 0,                    # sigValue, chkpntPeriod, restartPid
        q(job.get("user") or data.get("user")), limits(spec),
        q(spec.get("cpulimit_host") or spec.get("runlimit_host")),
        f"{1.0:.2f}", UMASK,        # unpadded: fields split on one blank
        q(data.get("queue") or job.get("queue")),
        q(spec.get("resreq_merged") or " ".join(spec.get("resreq") or [])),
        q(job.get("from_host")), q(spec.get("cwd")),
        _EMPTY,                                             # chkpntDir
        q(spec.get("stdin")), q(spec.get("stdout")), q(spec.get("stderr")),
        _EMPTY, _EMPTY, _EMPTY,     # inFileSpool, commandSpool, jobSpoolDir
        q(home(job.get("user"))), _EMPTY,                   # jobFile
        len(asked), *[q(h) for h in asked],
        q(spec.get("depend") or spec.get("dependency")),
        _EMPTY,                                             # timeEvent
        q(name), q(job.get("command")),
        *xfiles(spec.get("xfiles") or []),
        q(spec.get("pre_exec")), q(spec.get("mail_user")),
        q(spec.get("project") or "default"),
        0, hi,                      # niosPort, maxNumProcessors
        _EMPTY, q(spec.get("login_shell")),   # schedHostType, loginShell
        q(spec.get("user_group")), _EMPTY,    # userGroup, exceptList
        idx, UNSET if priority is None else int(priority),
        _EMPTY, q(text_of(spec.get("job_group"))),          # rsvId
        _EMPTY, UNSET, _EMPTY,      # extsched, warningTimePeriod, -Action
        q(spec.get("sla")), 0, _EMPTY,  # SLArunLimit, licenseProject
        options3(spec), q(text_of(spec.get("app"))),
        q(text_of(spec.get("post_exec"))), _estimate(spec),
        q(text_of(spec.get("requeue_exit"))),
        _EMPTY,                                         # resizeNotifyCmd
        q(spec.get("description")),                     # bsub -Jd
        0,                                              # submitEXT: none
        NO_CLUSTER,
        _EMPTY, 0, 0,               # network, cpu_frequency, options4
        0,                          # nStinFile: no data requirements
    ]
    return [("JOB_NEW", " ".join(str(f) for f in fields))]
