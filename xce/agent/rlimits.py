"""The limits of bsub -c -v -S -F -D -C -p -T (and the queue's) as the
agent enforces them; the controller works the values out
(xce.controller.rlimits) and the start message carries them.

Per-process limits (CPU, file, data, stack and core size) are set with
setrlimit by prlimit(1) placed first in the job's argv: prlimit sets them
on itself and execs the privilege drop and the wrapper, so the limits hold
from the job's first instruction and every process of the job inherits
them.  Setting them afterwards (prlimit --pid on the spawned child) would
race the job's exec, posix_spawn has no rlimit attribute, and changing the
agent's own limits around a spawn would leak into its other threads.

Whole-job limits are checked at each usage sample of the job's session:
CPU time summed over its processes (and the children they reaped),
virtual memory summed (LSF's swap), processes and threads at one time.
The job's own wrapper shell, which is xce's and not the user's, is not
counted among the processes and threads.  Over a limit the job gets LSF's
signals: SIGXCPU, then SIGINT, SIGTERM and SIGKILL for CPU time; SIGINT,
SIGTERM and SIGKILL for the others, JOB_TERMINATE_INTERVAL apart.
"""

import math
import os
import resource
import signal

PRLIMIT = "/usr/bin/prlimit"

# (start message key, usage figure, LSF's exit reason)
WHOLE_JOB = (("cpulimit", "cpu", "TERM_CPULIMIT"),
             ("swaplimit", "vsize", "TERM_SWAP"),
             ("processlimit", "job_procs", "TERM_PROCESSLIMIT"),
             ("threadlimit", "job_threads", "TERM_THREADLIMIT"))
_TERMINATE = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
_RESOURCES = {"cpu": resource.RLIMIT_CPU, "fsize": resource.RLIMIT_FSIZE,
              "data": resource.RLIMIT_DATA, "stack": resource.RLIMIT_STACK,
              "core": resource.RLIMIT_CORE}


def prlimit_argv(limits):
    """The prlimit words to put before a job's argv ([] without
    per-process limits): ``--fsize=soft:hard``, hard left as it is when
    the queue sets none.  An agent that is not root cannot raise a hard
    limit, so its own hard limit caps both."""
    rows = (limits or {}).get("setrlimit") or []
    if not rows:
        return []
    words = [PRLIMIT]
    for name, soft, hard in rows:
        soft, hard = _capped(name, int(soft), hard)
        words.append(f"--{name}={soft}:{'' if hard is None else hard}")
    return words + ["--"]


def _capped(name, soft, hard):
    if os.geteuid() == 0 or name not in _RESOURCES:
        return soft, hard
    ceiling = resource.getrlimit(_RESOURCES[name])[1]
    if ceiling == resource.RLIM_INFINITY:
        return soft, hard
    hard = ceiling if hard is None else min(int(hard), ceiling)
    return min(soft, ceiling), hard


def exceeded(limits, usage):
    """LSF's exit reason for the first whole-job limit *usage* (one sample
    of the job's session) is over, or None."""
    for key, figure, reason in WHOLE_JOB:
        limit = (limits or {}).get(key)
        if limit and (usage.get(figure) or 0) > limit:
            return reason
    return None


def verdict(msg, reason, usage):
    """(LSF's exit reason, the signals in order) when one sample of a job
    (*usage*) puts it over a limit of its start message *msg*, and it is
    not already being ended (*reason*); None otherwise.  Memory (bsub -M)
    runs out fast: SIGKILL at once, no grace period."""
    limit = msg.get("memlimit")
    if limit and usage["rss"] > limit and reason != "TERM_MEMLIMIT":
        return "TERM_MEMLIMIT", [signal.SIGKILL]
    over = exceeded(msg.get("rlimits"), usage)
    if over and reason is None:
        return over, kill_signals(over)
    return None


def kill_signals(reason):
    """The signals, in order, that end a job over a whole-job limit."""
    if reason == "TERM_CPULIMIT":
        return [signal.SIGXCPU] + _TERMINATE
    return list(_TERMINATE)


def reason_of_exit(limits, code):
    """A job that the kernel ended at its per-process CPU limit (SIGXCPU)
    before a sample saw the job's total: LSF's TERM_CPULIMIT all the same."""
    if (limits or {}).get("cpulimit") and code == 128 + signal.SIGXCPU:
        return "TERM_CPULIMIT"
    return None


def with_cpulimit(limits, seconds):
    """The start message's limits with a new whole-job CPU limit (bmod -c
    of a running job; None: bmod -cn), the per-process one alike."""
    out = dict(limits or {})
    rows = [row for row in out.get("setrlimit") or [] if row[0] != "cpu"]
    out.pop("cpulimit", None)
    if seconds:
        out["cpulimit"] = seconds
        rows.append(["cpu", math.ceil(seconds), None])
    out["setrlimit"] = rows
    return out


def retarget_cpu(pids, seconds):
    """Move the per-process CPU limit (RLIMIT_CPU, soft) of a running job's
    processes to *seconds* (None: unlimited, up to the hard limit), as its
    new processes get it from their parents.  A process that ended
    meanwhile, or that the agent may not change, keeps what it had."""
    for pid in pids:
        try:
            _, hard = resource.prlimit(pid, resource.RLIMIT_CPU)
            soft = resource.RLIM_INFINITY if not seconds else \
                math.ceil(seconds)
            if hard != resource.RLIM_INFINITY and \
                    (soft == resource.RLIM_INFINITY or soft > hard):
                if os.geteuid() == 0:
                    hard = soft
                else:
                    soft = hard
            resource.prlimit(pid, resource.RLIMIT_CPU, (soft, hard))
        except (OSError, ValueError):
            continue
