"""lsb.events records of the changes users make to jobs: bmod (JOB_MODIFY2),
bswitch (JOB_SWITCH), brequeue (JOB_REQUEUE), btop/bbot (JOB_MOVE) and bpost
(JOB_EXT_MSG).  Field orders are LSF's (see lsb.events(5)); each function
takes the job row, the event's data, the job id and index, and the store,
and returns [(record type, fields)].
"""

from xce.model.jobid import show
from xce.store.lsbfields import (RLIMIT_RSS, RLIMIT_RUN, RLIMIT_SLOTS, home,
                                 limit_values, q, status_record, uid_of)

# bmod's option bits (LSF's SUB_* and SUB2_* values): a bit set in options
# says the field is given, in delOptions that it is removed (-Jn, -qn, ...).
SUB_JOB_NAME, SUB_QUEUE = 0x01, 0x02
SUB_OUT_FILE, SUB_ERR_FILE = 0x10, 0x20
SUB_RES_REQ = 0x40000
SUB_PROJECT_NAME = 0x2000000
SUB2_JOB_PRIORITY = 0x200
_BITS = {"name": SUB_JOB_NAME, "queue": SUB_QUEUE, "stdout": SUB_OUT_FILE,
         "stderr": SUB_ERR_FILE, "resreq": SUB_RES_REQ,
         "project": SUB_PROJECT_NAME}
_BITS2 = {"user_priority": SUB2_JOB_PRIORITY}
# rLimits: -1 leaves a limit alone, -2 (DELETE_NUMBER) removes it (-Wn).
KEEP_LIMIT, DELETE_LIMIT = -1, -2
# numProcessors when -n is removed (LSF's DEL_NUMPRO, INFINIT_INT).
DEL_NUMPRO = 2147483647
_LIMIT_SLOTS = {"runlimit": RLIMIT_RUN, "memlimit": RLIMIT_RSS,
                **RLIMIT_SLOTS}
TO_TOP, TO_BOTTOM = 1, 2


def _bits(table, keys):
    value = 0
    for key in keys:
        value |= table.get(key, 0)
    return value


def _mod_limits(new, gone):
    values = limit_values(new, KEEP_LIMIT)
    for key in gone:
        if key in _LIMIT_SLOTS:
            values[_LIMIT_SLOTS[key]] = DELETE_LIMIT
    return " ".join(str(v) for v in values)


def _slots(new, gone):
    if "nslots" in new:
        lo, hi = (list(new["nslots"]) + [0, 0])[:2]
        return lo, hi or lo
    if "nslots" in gone:
        return DEL_NUMPRO, DEL_NUMPRO
    return 0, 0


def job_modify(job, data, jobid, idx, db):
    new, gone = data.get("set") or {}, data.get("unset") or []
    options, options2 = _bits(_BITS, new), _bits(_BITS2, new)
    lo, hi = _slots(new, gone)
    by = data.get("by")
    fields = [q(show(jobid, idx)), str(options), str(options2),
              str(_bits(_BITS, gone)), str(uid_of(by)), q(by), "0", "0",
              str(lo), "0", "0", "0", "0"]
    if options & SUB_JOB_NAME:
        fields.append(q(new["name"]))
    if options & SUB_QUEUE:
        fields.append(q(new["queue"]))
    if options & SUB_RES_REQ:
        fields.append(q(new.get("resreq_merged") or
                        " ".join(new.get("resreq") or [])))
    fields += [_mod_limits(new, gone), q(home(job.get("user")))]
    if options & SUB_OUT_FILE:
        fields.append(q(new["stdout"]))
    if options & SUB_ERR_FILE:
        fields.append(q(new["stderr"]))
    fields += [q(""), q(""), q("")]             # jobFile, fromHost, cwd
    if options & SUB_PROJECT_NAME:
        fields.append(q(new["project"]))
    fields += ["0", str(hi), q(""), str(_bits(_BITS2, gone))]
    if options2 & SUB2_JOB_PRIORITY:
        fields.append(str(int(new["user_priority"])))
    return [("JOB_MODIFY2", " ".join(fields))]


def job_switch(job, data, jobid, idx, db):
    by = data.get("by")
    return [("JOB_SWITCH", f"{uid_of(by)} {jobid} {q(data.get('queue'))} "
             f"{idx} {q(by)}")]


def job_requeue(job, data, jobid, idx, db):
    """JOB_REQUEUE, then the state the job went back to, as a JOB_STATUS
    (readers that follow JOB_STATUS alone see it pending again)."""
    out = [("JOB_REQUEUE", f"{jobid} {idx}")]
    stat = data.get("stat")
    if stat:
        out.append(status_record(jobid, idx, stat, data, False))
    return out


def job_move(job, data, jobid, idx, db):
    by = data.get("by")
    base = TO_BOTTOM if data.get("top") is False else TO_TOP
    return [("JOB_MOVE", f"{uid_of(by)} {jobid} "
             f"{int(data.get('position') or 1)} {base} {idx} {q(by)}")]


def job_ext_msg(job, data, jobid, idx, db):
    """bpost: LSF writes JOB_EXT_MSG (jobId, idx, msgIdx, userId, dataSize,
    postTime, dataStatus, desc, userName)."""
    user = data.get("user")
    text, size = data.get("text"), data.get("size")
    if text is None and db is not None:     # events from before text was kept
        row = db.execute("SELECT text, length(data) FROM job_messages "
                         "WHERE jobid=? AND idx=? AND msg_id=?",
                         (jobid, idx, data.get("msg_id") or 0)).fetchone()
        text, size = row if row else ("", 0)
    return [("JOB_EXT_MSG", f"{jobid} {idx} {int(data.get('msg_id') or 0)} "
             f"{uid_of(user)} {int(size or 0)} {int(data.get('time') or 0)} "
             f"0 {q(text)} {q(user)}")]


RECORDS = {"MODIFY": job_modify, "SWITCH": job_switch,
           "REQUEUE": job_requeue, "MOVE": job_move, "JOB_MSG": job_ext_msg}
