"""The JOB_FINISH record of lsb.acct, in LSF 10.1's whole layout.

Accounting tools read lsb.acct positionally, field by field, to the end of
the record (IBM's lsb.acct(5) for LSF 10.1), and reject a record that stops
early.  So every field of the layout is written, in its order, including
those xce has no value for; these are written as LSF writes an unavailable
value: ``""`` for a string, 0 for a time or number (runLimit too), -1
for a resource figure (and where LSF itself writes -1: warningTimePeriod,
runtimeEstimation, srcJobId, dstJobId, ineligiblePendTime).  jobFile is
LSF's job file name, submitTime.jobId; flow_id is a string, as in the
JOB_FINISH records LSF 10.1 writes (lsb.acct(5) says %d).  Lists are
written as a count followed by that many entries, as LSF does.
"""

from xce.model.fairshare import account_group
from xce.model.states import CODES
from xce.store.lsbfields import (exit_info, q, spec_of, submit_options,
                                 wait_status)
from xce.store.lsbnew import options2, options3

# getrusage(2) figures of lsfRusage: ru_utime, ru_stime, ru_maxrss, then 16
# more that xce does not measure (-1, "unavailable").
RUSAGE_UNKNOWN = 16
UNKNOWN = -1
_NO_STRING = q("")


def charged_saap(job, spec):
    """The share account path the job was charged to, as LSF writes it:
    in a fairshare queue the whole path from the top of its share tree
    kept when it started (/top/sub/user); else "/user", or "/group/user"
    for a job charged to a group's account (the group the scheduler
    chose, else its bsub -G or default user group)."""
    user = job.get("user") or ""
    if not user:
        return ""
    path = spec.get("share_path")
    if path:
        return "/" + "/".join(str(name) for name in path)
    group = account_group(spec)
    return f"/{group}/{user}" if group else f"/{user}"


def job_finish(job, data, jobid, idx):
    """("JOB_FINISH", fields) of a job that just finished."""
    spec = spec_of(job)
    hosts = (job.get("exec_hosts") or "").split()
    asked = spec.get("asked_hosts") or spec.get("hosts") or []
    if isinstance(asked, str):
        asked = asked.split()
    lo, hi = (spec.get("nslots") or [1, 1])[:2]
    cpu = float(data.get("cpu_time") or job.get("cpu_time") or 0.0)
    maxmem = int(data.get("max_mem") or job.get("max_mem") or 0)
    avgmem = int(data.get("avg_mem") or job.get("avg_mem") or 0)
    start = int(job.get("start_time") or 0)
    end = int(data.get("end_time") or job.get("end_time") or 0)
    resreq = spec.get("resreq_merged") or " ".join(spec.get("resreq") or [])
    runlimit = spec.get("runlimit")
    fields = [
        jobid, int(job.get("uid") or 0), submit_options(spec), lo,
        int(job.get("submit_time") or 0), int(spec.get("begin_time") or 0),
        int(spec.get("term_time") or 0), start,
        q(job.get("user")), q(job.get("queue")), q(resreq),
        q(spec.get("depend") or spec.get("dependency")),
        q(spec.get("pre_exec")), q(job.get("from_host")), q(spec.get("cwd")),
        q(spec.get("stdin")), q(spec.get("stdout")), q(spec.get("stderr")),
        q(f"{int(job.get('submit_time') or 0)}.{jobid}"),    # jobFile
        len(asked), *[q(h) for h in asked],
        len(hosts), *[q(h) for h in hosts],
        CODES.get(data.get("stat"), 0), f"{1.0:.2f}",        # hostFactor
        q(job.get("name")), q(job.get("command")),
        f"{cpu:.6f}", f"{0.0:.6f}", maxmem, *[UNKNOWN] * RUSAGE_UNKNOWN,
        q(spec.get("mail_user")), q(spec.get("project") or "default"),
        wait_status(data.get("exit_code")), hi,
        _NO_STRING, _NO_STRING,                  # loginShell, timeEvent
        idx, maxmem, 0,                          # maxRMem, maxRSwap
        _NO_STRING, _NO_STRING,                  # inFileSpool, commandSpool
        _NO_STRING, _NO_STRING, 0,               # rsvId, sla, exceptMask
        _NO_STRING,                              # additionalInfo
        exit_info(data.get("reason") or job.get("exit_reason")),  # exitInfo
        _NO_STRING, UNKNOWN,                     # warningAction, its period
        q(charged_saap(job, spec)), _NO_STRING,  # licenseProject
        q(spec.get("app")), q(spec.get("post_exec")),
        UNKNOWN,                                 # runtimeEstimation
        _NO_STRING, _NO_STRING, options2(spec),  # jgroup, requeueEValues,
                                                 # options2 (as JOB_NEW's)
        _NO_STRING, start,                       # resizeNotifyCmd,
                                                 # lastResizeTime
        _NO_STRING,                              # rsvId (long group names)
        q(spec.get("description")),              # jobDescription
        0,                                       # submitEXT: no pairs
        0,                                       # numHostRusage
        options3(spec),                          # as JOB_NEW's
        int(float(runlimit) * 60) if runlimit else 0,       # runLimit
        avgmem, q(resreq),                       # avgMem, effectiveResReq
        _NO_STRING, UNKNOWN, _NO_STRING, UNKNOWN,  # src/dst cluster, job
        0, _NO_STRING, 0, 0,                     # forwardTime, flow_id
                                                 # (a string, as LSF 10.1
                                                 # writes it), acJobWaitTime,
                                                 # totalProvisionTime
        q(spec.get("outdir")),
        max(end - start, 0) if start else 0,     # runTime
        q(spec.get("cwd")),                      # subcwd
        0,                                       # num_network
        _NO_STRING,                              # affinity
        f"{0.0:.6f}", "0.00", "0.00", "0.00", "0.00",  # energy, cpi, gips,
                                                       # gbs, gflops
        len(hosts), *[q(h) for h in hosts],      # numAllocSlots, allocSlots
        UNKNOWN,                                 # ineligiblePendTime
        0,                                       # indexRangeCnt
        0,                                       # requeueTime
        0,                                       # numGPURusages
        0,                                       # storageInfoC
        0,                                       # finishKVP: no pairs
    ]
    return ("JOB_FINISH", " ".join(str(f) for f in fields))
