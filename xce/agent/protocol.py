"""The controller-agent protocol: versioned JSON messages, one per line.

Messages that change a job's state carry ``job``, ``idx`` and ``attempt``, so
a report from a stale copy of a requeued job is recognised and ignored.
"""

import json

# 2: the controller may send "limits" (bmod -W/-M of a running job).
# 3: it acknowledges each task_exit ("task_ack"); the hello lists running
#    tasks and unacknowledged task exits.
# 4: the signal that kills a stale copy of a job carries "fence": true;
#    the agent then appends no job report to the job's output file.
# 5: a start may carry "pre", "post" (steps), "starter" and "login_shell";
#    a finished message may carry "pre_failed" (the job never ran) or
#    "post_pending", and a "post" message follows with the post status.
# 6: a start may carry "nice" (the queue's NICE).
# 7: a start may carry "eexec" (LSF_SERVERDIR/eexec, run before the job).
# 8: the controller sends "elim" (LSF_SERVERDIR and the resource
#    definitions); load reports and the hello carry "ext", the values
#    the host's elims report.
# 9: a start may carry "interactive" (bsub -I/-Ip/-Is: the job runs under
#    the terminal relay, xce.agent.termrelay).
# 10: a start may carry "xfiles" (bsub -f); a finished message may carry
#    "xout" (the files copied back) and "xerr" (the copies that failed);
#    the controller may send "peek" (bpeek), answered by "peeked".
# 11: a start may carry "gpu_env" (the job's GPUs on that host); the
#    hello's facts carry "gpus" (the devices the agent detected).
# 12: a "limits" message may carry "cpulimit" (bmod -c of a running job).
# 13: "host_steps" (HOST_PRE_EXEC/HOST_POST_EXEC on a job's other hosts),
#     answered by "host_steps_done".
# 14: a start may carry "hold": true; the agent prepares the job (and
#     may spawn its wrapper, waiting) and runs it only on a "go" message
#     (job, idx, attempt), sent once the controller's store holds the
#     START; a held start is discarded when the connection drops first
#     (xce.agent.held).
# 15: the hello lists "discarded", the held starts (job, idx, attempt)
#     the agent discarded before their go, never run; the controller
#     sends such a job back to PEND and answers "discarded_ack" (jobs:
#     [[job, idx, attempt], ...]), after which the agent forgets them.
# 16: a start may carry "cwd_create": true (a -cwd with a dynamic
#     pattern: the job's wrapper creates the directory, as LSF does); a
#     finished message may carry "exec_cwd": "/tmp" (the job's working
#     directory was missing and it ran there).
# 17: a start may carry "cwd_ttl" (hours: JOB_CWD_TTL; the agent removes
#     the working directory the job's wrapper or pre-exec created that
#     long after the job, xce.agent.cwdttl); an "output" message may
#     carry "exec_cwd": "/tmp" (said a moment after the start, so that
#     bjobs -l shows where the job runs while it runs).
VERSION = 17

# The start message's fields that came after version 1, with the first
# version that acts on each and what it holds.  "outdir", "rlimits",
# "mail" and "requeue_exit" came with version 5's change set without a
# bump of their own.  An agent older than a field's version would run
# the job without it: the controller leaves the field out when it holds
# nothing and refuses to start the job there otherwise (``unknown``).
START_FIELDS = {
    "pre": (5, "pre-execution commands"),
    "post": (5, "post-execution commands"),
    "starter": (5, "job starter"),
    "login_shell": (5, "login shell (-L)"),
    "outdir": (5, "output directory (-outdir)"),
    "rlimits": (5, "limits (-c -v -S -F -D -C -p -T)"),
    "mail": (5, "mail (-u -B -N)"),
    "requeue_exit": (5, "requeue exit values (-Q)"),
    "nice": (6, "queue NICE value"),
    "eexec": (7, "eexec"),
    "interactive": (9, "interactive terminal (-I -Ip -Is)"),
    "xfiles": (10, "file copies (-f)"),
    "gpu_env": (11, "GPUs (-gpu)"),
    "cwd_create": (16, "working directory creation (-cwd with %J ...)"),
    "cwd_ttl": (17, "working directory removal (JOB_CWD_TTL)"),
}
MAX_LINE = 64 * 1024 * 1024


class ProtocolError(Exception):
    pass


def fit(msg, version):
    """*msg* (a start) as an agent of *version* can take it: fields it
    does not know that hold nothing are dropped.  Returns (message, what
    the fields it does not know but that hold something are for, with
    the version each needs)."""
    out, missing = dict(msg), []
    for field, (since, what) in START_FIELDS.items():
        if version >= since or field not in out:
            continue
        if out[field] in (None, "", 0, False, [], {}):
            del out[field]
        else:
            missing.append(f"{what} (protocol {since})")
    return out, missing


def encode(msg):
    return json.dumps(msg, separators=(",", ":")).encode() + b"\n"


class LineReader:
    """Accumulates bytes from a stream and yields complete messages."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        if len(self.buf) > MAX_LINE and b"\n" not in self.buf:
            raise ProtocolError("message too long")
        *lines, rest = bytes(self.buf).split(b"\n")
        self.buf = bytearray(rest)
        msgs = []
        for line in lines:
            if not line.strip():
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                raise ProtocolError("message is not JSON")
            if not isinstance(msg, dict) or "op" not in msg:
                raise ProtocolError("message has no op")
            msgs.append(msg)
        return msgs


def job_key(msg):
    return (int(msg["job"]), int(msg.get("idx", 0)), int(msg["attempt"]))
