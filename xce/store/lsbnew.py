"""The JOB_NEW record of lsb.events, in the order LSF writes it.

LSF's file order is not the order of LSBLIB's jobNewLog structure (which
the field list of lsb.events(5) follows): fields added in later versions
were appended, and some are written only when an option bit asks for them.
The order here is that of a JOB_NEW written by LSF 9.1.3 (a plain batch
job, 87 fields) read against the reader of LSF's own LSBLIB (readJobNew,
as published in 2007): after the submission fields come dependCond and
preExecCmd, then jobName, command and the file transfers, mailUser and
projectName; niosPort only for an interactive job (SUB_INTERACTIVE);
maxNumProcessors, schedHostType, loginShell, timeEvent, userGroup,
exceptList, options2, idx, the three spool fields, userPriority.  Of the
later fields, rsvId, jobGroup, extsched, warningAction, sla and
licenseProject are written only under their options2 bit, as the 9.1.3
record shows (two numbers between userPriority and options3); of
notifyCmd and jobDescription, both under an options3 bit, that record has
one string: LSF writes the fields it added in 7.0 whatever their bits
(app, postExecCmd, requeueEValues, initChkpntPeriod, migThreshold, as
that record shows), so notifyCmd (7.0) is taken to be written always and
jobDescription (added later) only under SUB3_JOB_DESCRIPTION, which -Jd
sets.

A field xce has no value for is written as LSF writes it unset: "" for a
string, 0 for a number, -65535 for sigValue, -1 where LSF writes -1
(userPriority, warningTimePeriod, SLArunLimit, runtimeEstimation,
migThreshold, srcJobId, dstJobId), a count of 0 for a list.
"""

from xce.model import ugroupsel
from xce.store.lsbchanges import (SUB2_JOB_GROUP, SUB2_JOB_PRIORITY,
                                  SUB2_OVERWRITE_ERR_FILE,
                                  SUB2_OVERWRITE_OUT_FILE, SUB3_APP,
                                  SUB3_JOB_DESCRIPTION, SUB3_JOB_REQUEUE,
                                  SUB3_NOT_RERUNNABLE,
                                  SUB3_POST_EXEC, SUB3_RUNTIME_ESTIMATION,
                                  text_of, xfiles)
from xce.store.lsbfields import (NO_CLUSTER, SUB_INTERACTIVE, home, limits,
                                 q, spec_of, submit_options)

SUB2_HOLD = 0x01
SUB2_SLA = 0x80000
UNSET = -1
# sigValue of a job submitted without a warning signal, as LSF logs it.
NO_SIGNAL = -65535
# umask 022, as LSF logs a job submitted under the usual mask.
UMASK = 18
_EMPTY = q("")


def host_type(db, host):
    """The type of *host* (X86_64, ...) as its agent reports it, or "" for
    a host xce has no type for: LSF's schedHostType, the submission
    host's type."""
    if db is None or not host:
        return ""
    row = db.execute("SELECT type FROM hosts WHERE name = ?",
                     (host,)).fetchone()
    return (row[0] or "") if row else ""


def options2(spec):
    value = SUB2_HOLD if spec.get("hold") else 0
    if spec.get("user_priority") is not None:
        value |= SUB2_JOB_PRIORITY
    if spec.get("job_group"):
        value |= SUB2_JOB_GROUP
    if spec.get("sla"):
        value |= SUB2_SLA
    if spec.get("stdout_mode") == "w":          # -oo
        value |= SUB2_OVERWRITE_OUT_FILE
    if spec.get("stderr_mode") == "w":          # -eo
        value |= SUB2_OVERWRITE_ERR_FILE
    return value


def options3(spec):
    value = 0
    for key, bit in (("app", SUB3_APP), ("post_exec", SUB3_POST_EXEC),
                     ("estimate", SUB3_RUNTIME_ESTIMATION),
                     ("requeue_exit", SUB3_JOB_REQUEUE),
                     ("description", SUB3_JOB_DESCRIPTION)):
        if spec.get(key) not in (None, "", []):
            value |= bit
    # -rn: not rerunnable, whatever the queue says (an application
    # profile's RERUNNABLE=N is the profile's, not the job's option).
    if spec.get("rerunnable") is False and \
            "rerunnable" not in (spec.get("app_filled") or ()):
        value |= SUB3_NOT_RERUNNABLE
    return value


def _asked(spec):
    asked = spec.get("asked_hosts") or spec.get("hosts") or []   # bsub -m
    return asked.split() if isinstance(asked, str) else list(asked)


def _estimate(spec):
    """runtimeEstimation in seconds (bsub -We is in minutes)."""
    value = spec.get("estimate")
    return int(float(value) * 60) if value is not None else UNSET


def job_file(submit, jobid):
    """LSF's job file name: submission time and job id."""
    return f"{int(submit)}.{jobid}"


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
    options = submit_options(spec)
    opts2, opts3 = options2(spec), options3(spec)
    submit = int(job.get("submit_time") or 0)
    fields = [
        jobid, job.get("uid") or spec.get("uid") or 0, options, lo, submit,
        int(spec.get("begin_time") or 0),                   # bsub -b
        int(spec.get("term_time") or 0),                    # bsub -t
        NO_SIGNAL, 0, 0,            # sigValue, chkpntPeriod, restartPid
        q(job.get("user") or data.get("user")), limits(spec),
        q(spec.get("cpulimit_host") or spec.get("runlimit_host")),
        f"{1.0:.2f}", UMASK,        # unpadded: fields split on one blank
        q(data.get("queue") or job.get("queue")),
        q(spec.get("resreq_merged") or " ".join(spec.get("resreq") or [])),
        q(job.get("from_host")), q(spec.get("cwd")),
        _EMPTY,                                             # chkpntDir
        q(spec.get("stdin")), q(spec.get("stdout")), q(spec.get("stderr")),
        q(home(job.get("user"))), q(job_file(submit, jobid)),
        len(asked), *[q(h) for h in asked],
        q(spec.get("depend") or spec.get("dependency")),
        q(spec.get("pre_exec")),
        q(name), q(job.get("command")),
        *xfiles(spec.get("xfiles") or []),
        q(spec.get("mail_user")), q(spec.get("project") or "default"),
        *([0] if options & SUB_INTERACTIVE else []),        # niosPort
        hi, q(host_type(db, job.get("from_host"))),     # schedHostType
        q(spec.get("login_shell")),
        _EMPTY, q(ugroupsel.shown(spec) or None), _EMPTY,  # timeEvent,
        # userGroup (-G as given), exceptList
        opts2, idx,
        _EMPTY, _EMPTY, _EMPTY,     # inFileSpool, commandSpool, jobSpoolDir
        UNSET if priority is None else int(priority),
        *([q(text_of(spec.get("job_group")))]
          if opts2 & SUB2_JOB_GROUP else []),
        UNSET,                                          # warningTimePeriod
        *([q(spec.get("sla"))] if opts2 & SUB2_SLA else []),
        UNSET,                                          # SLArunLimit
        opts3, q(text_of(spec.get("app"))),
        q(text_of(spec.get("post_exec"))), _estimate(spec),
        q(text_of(spec.get("requeue_exit"))),
        0, UNSET,                   # initChkpntPeriod, migThreshold
        _EMPTY,                                         # notifyCmd
        *([q(spec.get("description"))]                  # bsub -Jd
          if opts3 & SUB3_JOB_DESCRIPTION else []),
        0, 0, 0,                    # submitEXT, options4, numAskedClusters
        NO_CLUSTER,
        _EMPTY, q(spec.get("cwd")),                     # flow_id, subcwd
        q(spec.get("outdir")),                          # bsub -outdir
        _EMPTY, _EMPTY,             # dcTmpls, dcVmActions
        0, UNSET, 0, _EMPTY,        # network: none
        _EMPTY, 0, _EMPTY,          # the 9.1.3 record's last three, unset
    ]
    return [("JOB_NEW", " ".join(str(f) for f in fields))]
