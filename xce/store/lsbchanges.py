"""lsb.events records of the changes users make to jobs: bmod (JOB_MODIFY2),
bswitch (JOB_SWITCH), brequeue (JOB_REQUEUE), btop/bbot (JOB_MOVE) and bpost
(JOB_EXT_MSG).  Field orders are LSF's (see lsb.events(5)); each function
takes the job row, the event's data, the job id and index, and the store,
and returns [(record type, fields)].
"""

from xce.model.jobid import show
from xce.store.lsbfields import (NO_CLUSTER, RLIMIT_RSS, RLIMIT_RUN,
                                 RLIMIT_SLOTS, home, limit_values, q,
                                 status_record, uid_of)

# bmod's option bits (LSF's SUB_*, SUB2_* and SUB3_* values): a bit set in
# options says the field is given, in delOptions that it is removed (-Jn,
# -qn, ...).
SUB_JOB_NAME, SUB_QUEUE, SUB_HOST = 0x01, 0x02, 0x04
SUB_IN_FILE, SUB_OUT_FILE, SUB_ERR_FILE, SUB_EXCLUSIVE = 0x08, 0x10, 0x20, 0x40
SUB_NOTIFY_END, SUB_NOTIFY_BEGIN = 0x80, 0x100
SUB_RERUNNABLE = 0x4000
SUB_HOST_SPEC, SUB_DEPEND_COND = 0x10000, 0x20000
SUB_RES_REQ, SUB_OTHER_FILES = 0x40000, 0x80000
SUB_PRE_EXEC, SUB_LOGIN_SHELL, SUB_MAIL_USER = 0x100000, 0x200000, 0x400000
SUB_PROJECT_NAME = 0x2000000
SUB2_JOB_PRIORITY, SUB2_JOB_GROUP = 0x200, 0x40000
SUB2_OVERWRITE_OUT_FILE, SUB2_OVERWRITE_ERR_FILE = 0x400000, 0x800000
SUB3_APP, SUB3_POST_EXEC = 0x01, 0x10
SUB3_RUNTIME_ESTIMATION, SUB3_JOB_REQUEUE = 0x80, 0x200
SUB3_NOT_RERUNNABLE = 0x100                 # bsub -rn
SUB3_JOB_DESCRIPTION = 0x2000000            # bsub/bmod -Jd
_BITS = {"name": SUB_JOB_NAME, "queue": SUB_QUEUE,
         "asked_hosts": SUB_HOST, "stdin": SUB_IN_FILE,
         "stdout": SUB_OUT_FILE, "exclusive": SUB_EXCLUSIVE,
         "stderr": SUB_ERR_FILE, "mail_notify": SUB_NOTIFY_END,
         "mail_begin": SUB_NOTIFY_BEGIN, "runlimit_host": SUB_HOST_SPEC,
         "cpulimit_host": SUB_HOST_SPEC, "depend": SUB_DEPEND_COND,
         "resreq": SUB_RES_REQ,
         "xfiles": SUB_OTHER_FILES, "pre_exec": SUB_PRE_EXEC,
         "login_shell": SUB_LOGIN_SHELL, "mail_user": SUB_MAIL_USER,
         "project": SUB_PROJECT_NAME}
_BITS2 = {"user_priority": SUB2_JOB_PRIORITY, "job_group": SUB2_JOB_GROUP}
_BITS3 = {"app": SUB3_APP, "post_exec": SUB3_POST_EXEC,
          "estimate": SUB3_RUNTIME_ESTIMATION,
          "requeue_exit": SUB3_JOB_REQUEUE,
          "description": SUB3_JOB_DESCRIPTION}
# rLimits: -1 leaves a limit alone, -2 (DELETE_NUMBER) removes it (-Wn);
# beginTime and termTime the same way (0: unchanged).
KEEP_LIMIT, DELETE_LIMIT = -1, -2
# numProcessors when -n is removed (LSF's DEL_NUMPRO, INFINIT_INT).
DEL_NUMPRO = 2147483647
_LIMIT_SLOTS = {"runlimit": RLIMIT_RUN, "memlimit": RLIMIT_RSS,
                **RLIMIT_SLOTS}
# xFile options of a bsub/bmod -f copy (LSF's XF_OP_*).
XF_SUB2EXEC, XF_EXEC2SUB, XF_EXEC2SUB_APPEND = 0x1, 0x2, 0x8
_XF_OPS = {">": XF_SUB2EXEC, "<": XF_EXEC2SUB,
           "<<": XF_EXEC2SUB | XF_EXEC2SUB_APPEND,
           "><": XF_SUB2EXEC | XF_EXEC2SUB, "<>": XF_SUB2EXEC | XF_EXEC2SUB}
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


def _time(new, gone, key):
    """beginTime/termTime: the new time, DELETE_NUMBER for -bn/-tn, 0."""
    if new.get(key) is not None:
        return str(int(new[key]))
    return str(DELETE_LIMIT) if key in gone else "0"


def text_of(value):
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


def xfiles(entries):
    fields = [str(len(entries))]
    for entry in entries:
        local, op, remote = (list(entry) + ["", "", ""])[:3]
        fields += [q(local), q(remote or local), str(_XF_OPS.get(op, 0))]
    return fields


def job_modify(job, data, jobid, idx, db):
    """JOB_MODIFY2: LSF's fixed fields, each optional field present when
    its bit is set in options/options2, then LSF 10.1's later fields
    (job group, application profile, post-exec, run-time estimate, requeue
    exit values, job description)."""
    new, gone = data.get("set") or {}, data.get("unset") or []
    options, options2 = _bits(_BITS, new), _bits(_BITS2, new)
    # -r sets SUB_RERUNNABLE; -rn removes it (LSF's delOptions) and sets
    # SUB3_NOT_RERUNNABLE, as bsub -rn does.
    rerun = new.get("rerunnable")
    options |= SUB_RERUNNABLE if rerun else 0
    del_rerun = SUB_RERUNNABLE if rerun is False else 0
    options3 = _bits(_BITS3, new) | (SUB3_NOT_RERUNNABLE if rerun is False
                                     else 0)
    if new.get("stdout_mode") == "w":           # -oo
        options2 |= SUB2_OVERWRITE_OUT_FILE
    if new.get("stderr_mode") == "w":           # -eo
        options2 |= SUB2_OVERWRITE_ERR_FILE
    lo, hi = _slots(new, gone)
    by = data.get("by")
    fields = [q(show(jobid, idx)), str(options), str(options2),
              str(_bits(_BITS, gone) | del_rerun), str(uid_of(by)), q(by),
              "0", "0",
              str(lo), _time(new, gone, "begin_time"),
              _time(new, gone, "term_time"), "0", "0"]
    if options & SUB_JOB_NAME:
        fields.append(q(new["name"]))
    if options & SUB_QUEUE:
        fields.append(q(new["queue"]))
    if options & SUB_HOST:
        hosts = new["asked_hosts"]
        hosts = hosts.split() if isinstance(hosts, str) else list(hosts)
        fields += [str(len(hosts))] + [q(h) for h in hosts]
    if options & SUB_RES_REQ:
        fields.append(q(new.get("resreq_merged") or
                        " ".join(new.get("resreq") or [])))
    fields.append(_mod_limits(new, gone))
    if options & SUB_HOST_SPEC:
        fields.append(q(new.get("runlimit_host") or new.get("cpulimit_host")))
    if options & SUB_DEPEND_COND:               # bmod -w
        fields.append(q(new["depend"]))
    fields.append(q(home(job.get("user"))))
    if options & SUB_IN_FILE:
        fields.append(q(new["stdin"]))
    if options & SUB_OUT_FILE:
        fields.append(q(new["stdout"]))
    if options & SUB_ERR_FILE:
        fields.append(q(new["stderr"]))
    if options & SUB_OTHER_FILES:
        fields += xfiles(new["xfiles"])
    # jobFile, fromHost, cwd (bmod -cwd's directory; -cwdn: the
    # submission directory again)
    fields += [q(""), q(""), q(text_of(new.get("cwd")))]
    if options & SUB_PRE_EXEC:
        fields.append(q(new["pre_exec"]))
    if options & SUB_MAIL_USER:
        fields.append(q(new["mail_user"]))
    if options & SUB_PROJECT_NAME:
        fields.append(q(new["project"]))
    fields += ["0", str(hi)]                    # niosPort, maxNumProcessors
    if options & SUB_LOGIN_SHELL:
        fields.append(q(new["login_shell"]))
    fields += [q(""), str(_bits(_BITS2, gone))]  # schedHostType, delOptions2
    if options2 & SUB2_JOB_PRIORITY:
        fields.append(str(int(new["user_priority"])))
    fields += [q(""), q(""), "0", q(""),        # rsvId extsched wt wa
               q(text_of(new.get("job_group"))), q(""), q(""),  # SLA licProj
               str(options3), str(_bits(_BITS3, gone)),
               q(text_of(new.get("app"))), q(""),  # apsString
               q(text_of(new.get("post_exec"))),
               str(int(float(new["estimate"]) * 60)
                   if new.get("estimate") is not None else 0),
               q(text_of(new.get("requeue_exit"))), q(""),  # resizeNotifyCmd
               q(text_of(new.get("description")))]
    return [("JOB_MODIFY2", " ".join(fields))]


# The MultiCluster tail of JOB_SWITCH and JOB_MOVE in LSF 10.1: no
# remote job control stage (0) and no remote results (a count of 0).
NO_REMOTE_CTRL = "0 0"


def job_switch(job, data, jobid, idx, db):
    """userId jobId queue idx userName, then the cluster ids and the
    remote job control fields, for a job of this cluster alone."""
    by = data.get("by")
    return [("JOB_SWITCH", f"{uid_of(by)} {jobid} {q(data.get('queue'))} "
             f"{idx} {q(by)} {NO_CLUSTER} {NO_REMOTE_CTRL}")]


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
             f"{int(data.get('position') or 1)} {base} {idx} {q(by)} "
             f"{NO_REMOTE_CTRL}")]


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
