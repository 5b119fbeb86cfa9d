"""Field helpers shared by the lsb.events/lsb.acct record writers.

LSF's text format (see lsb.events(5)): blank-separated fields, strings in
double quotes with inner quotes doubled, numbers bare, -1 for an unknown
resource figure.  Stdlib only; the controller imports it after commits.
"""

import functools
import json
import pwd

from xce.model.states import CODES

VERSION = "10.1"
# LSF_RLIM_NLIMITS entries of rLimits; -1 is "no limit".
NLIMITS = 11
RLIMIT_RSS, RLIMIT_RUN = 5, 9
# LSF_RLIMIT_* slots of bsub -c (seconds), -F -D -S -C -v (KB) and -p;
# the thread limit (-T) has no slot among the 11.
RLIMIT_SLOTS = {"cpulimit": 0, "filelimit": 1, "datalimit": 2,
                "stacklimit": 3, "corelimit": 4, "swaplimit": 8,
                "processlimit": 10}


def q(value):
    """A quoted LSF string field: inner quotes doubled, no newline."""
    text = "" if value is None else str(value)
    return '"' + text.replace('"', '""').replace("\n", "; ") + '"'


def spec_of(job):
    try:
        return json.loads(job.get("spec") or "{}") or {}
    except ValueError:
        return {}


def limit_values(spec, unset=-1):
    """The 11 rLimits: run and CPU limits (minutes in the spec) in
    seconds, memory and size limits in KB, the process limit; *unset* for
    every other entry."""
    values = [unset] * NLIMITS
    for key, slot in RLIMIT_SLOTS.items():
        if spec.get(key) is not None:
            value = spec[key]
            values[slot] = int(float(value) * 60) if key == "cpulimit" \
                else int(value)
    if spec.get("runlimit"):
        values[RLIMIT_RUN] = int(float(spec["runlimit"]) * 60)
    if spec.get("memlimit"):
        values[RLIMIT_RSS] = int(spec["memlimit"])
    return values


def limits(spec):
    return " ".join(str(v) for v in limit_values(spec))


@functools.lru_cache(maxsize=256)
def home(user):
    try:
        return pwd.getpwnam(user).pw_dir
    except (KeyError, TypeError):
        return ""


@functools.lru_cache(maxsize=256)
def uid_of(user):
    """The uid of the user who asked for a change (userId fields); 0 for a
    name the system does not know (the controller itself, for one)."""
    try:
        return pwd.getpwnam(user).pw_uid
    except (KeyError, TypeError):
        return 0


def wait_status(code):
    """LSF keeps a wait(2) status: exit code N is N << 8, signal S is S."""
    if code is None:
        return 0
    code = int(code)
    return code - 128 if code > 128 else code << 8


# Values LSF writes for a job of this cluster alone (no MultiCluster
# forwarding): no source or destination cluster, job ids -1.
NO_CLUSTER = '"" -1 "" -1'


# lsbatch.h's TERM_* numbers: the exitInfo of JOB_STATUS and of lsb.acct's
# JOB_FINISH, which bacct turns back into the reason's keyword.
EXIT_INFO = {
    "TERM_UNKNOWN": 0, "TERM_PREEMPT": 1, "TERM_WINDOW": 2, "TERM_LOAD": 3,
    "TERM_OTHER": 4, "TERM_RUNLIMIT": 5, "TERM_DEADLINE": 6,
    "TERM_PROCESSLIMIT": 7, "TERM_FORCE_OWNER": 8, "TERM_FORCE_ADMIN": 9,
    "TERM_REQUEUE_OWNER": 10, "TERM_REQUEUE_ADMIN": 11, "TERM_CPULIMIT": 12,
    "TERM_CHKPNT": 13, "TERM_OWNER": 14, "TERM_ADMIN": 15,
    "TERM_MEMLIMIT": 16, "TERM_EXTERNAL_SIGNAL": 17, "TERM_RMS": 18,
    "TERM_ZOMBIE": 19, "TERM_SWAP": 20, "TERM_THREADLIMIT": 21,
    "TERM_SLURM": 22, "TERM_BUCKET_KILL": 23, "TERM_CTRL_PID": 24,
    "TERM_CWD_NOTEXIST": 25, "TERM_REMOVE_HUNG_JOB": 26,
    "TERM_ORPHAN_SYSTEM": 27, "TERM_PRE_EXEC_FAIL": 28, "TERM_DATA": 29,
}


def exit_info(reason):
    """exitInfo of a finished job's reason (0, TERM_UNKNOWN, for none or
    one lsbatch.h does not number, such as xce's own TERM_GANG)."""
    return EXIT_INFO.get(reason or "", 0)


def status_record(jobid, idx, stat, data, finished):
    """JOB_STATUS in LSF 10.1's layout: jobId jStatus reason subreasons
    cpuTime endTime ru (0: no lsfRusage follows) jFlags exitStatus idx
    exitInfo numhRusages (0: no host usage follows) maxMem avgMem
    srcCluster srcJobId dstCluster dstJobId maskedJStatus."""
    cpu = float(data.get("cpu_time") or 0.0)
    end = int(data.get("end_time") or 0) if finished else 0
    code = CODES.get(stat, 0)
    return ("JOB_STATUS", f"{jobid} {code} 0 0 {cpu:4.4f} {end} 0 0 "
            f"{wait_status(data.get('exit_code'))} {idx} "
            f"{exit_info(data.get('reason')) if finished else 0} 0 "
            f"{int(data.get('max_mem') or 0)} {int(data.get('avg_mem') or 0)} "
            f"{NO_CLUSTER} {code}")


def with_reason(record, reason):
    """A JOB_STATUS record (status_record) with LSF's pending or
    suspending reason number *reason* in its reason field."""
    name, fields = record
    words = fields.split(" ")
    words[2] = str(reason)
    return name, " ".join(words)


# LSF's option bits of an interactive job (bsub -I, -Ip, -Is), in the
# options field of JOB_NEW and JOB_FINISH records.
SUB_INTERACTIVE, SUB_PTY, SUB_PTY_SHELL = 0x4000000, 0x8000000, 0x10000000
_MODE_BITS = {"I": SUB_INTERACTIVE, "Ip": SUB_INTERACTIVE | SUB_PTY,
              "Is": SUB_INTERACTIVE | SUB_PTY | SUB_PTY_SHELL}


# LSF's SUB_* bits (lsbatch.h) of the bsub options a job was given, by
# the spec key that holds each.  -q and -P have none here: the stored spec
# holds the queue and the project whether or not they were asked for.
_GIVEN_BITS = (("name", 0x01), ("asked_hosts", 0x04), ("hosts", 0x04),
               ("stdin", 0x08), ("stdout", 0x10), ("stderr", 0x20),
               ("exclusive", 0x40), ("mail_notify", 0x80),
               ("rerunnable", 0x4000),
               ("mail_begin", 0x100), ("user_group", 0x200),
               ("user_group_exclude", 0x200),
               ("cpulimit_host", 0x10000), ("runlimit_host", 0x10000),
               ("depend", 0x20000), ("dependency", 0x20000),
               ("resreq", 0x40000), ("xfiles", 0x80000),
               ("pre_exec", 0x100000), ("login_shell", 0x200000),
               ("mail_user", 0x400000))


def submit_options(spec):
    """The options field of JOB_NEW and JOB_FINISH: the bit of each bsub
    option the job was given, and the interactive ones."""
    value = _MODE_BITS.get(spec.get("interactive"), 0)
    for key, bit in _GIVEN_BITS:
        if spec.get(key) not in (None, "", [], False):
            value |= bit
    return value
