"""Interactive jobs on the agent's side: the job's wrapper runs the
terminal relay (xce.agent.termrelay) as the job's user, and the relay runs
the job's command.

A start message of an interactive job carries ``interactive``: the mode
(I, Ip, Is), bsub's addresses, the job's key and ``term``, which of the
job's stdin, stdout and stderr go to bsub's terminal (the others go to the
job's -i/-o/-e files, as the wrapper opened them).
"""

import json
import os
import shlex
import signal
import sys
from pathlib import Path

# The directory holding the xce package, for the relay's import path.
_ROOT = str(Path(__file__).resolve().parents[2])


def wanted(msg):
    return isinstance(msg.get("interactive"), dict)


def output_to_terminal(msg):
    """True when the job's output goes to bsub: no report is appended to
    a file (LSF mails it only with -N)."""
    return wanted(msg) and bool((msg["interactive"].get("term") or
                                 [0, 1])[1])


def stop_signal(msg, sig):
    """The signal that stops the job for *sig*: on a pseudo-terminal the
    command has a session of its own, which SIGSTOP to the job's group
    would miss, so the relay gets SIGTSTP and stops the command
    (xce.agent.termrelay)."""
    if sig == signal.SIGSTOP and wanted(msg) and \
            msg["interactive"].get("mode") in ("Ip", "Is"):
        return signal.SIGTSTP
    return sig


def relay_command(msg, env, prefix, wrapped):
    """The wrapper's command line that runs the job's command under the
    relay (*wrapped*: its JOB_STARTER/-L form, if any);
    the relay's settings go in *env* (the job's user alone can read a
    process's environment), and it takes them out before the command runs."""
    ia = msg["interactive"]
    env["XCE_TERM"] = json.dumps({
        "mode": ia.get("mode"), "addrs": list(ia.get("addrs") or ()),
        "key": ia.get("key"), "term": ia.get("term") or [1, 1, 1],
        "job": msg["job"], "idx": msg.get("idx", 0),
        "host": (msg.get("hosts") or ["?"])[0]})
    env["XCE_TERM_CMD"] = _job_command(msg, prefix, wrapped)
    env["LSB_INTERACTIVE"] = "Y"
    code = (f"import sys; sys.path.insert(0, {_ROOT!r}); "
            "from xce.agent.termrelay import main; sys.exit(main())")
    python = os.path.realpath(sys.executable)
    return f"exec {shlex.quote(python)} -S -E -s -c {shlex.quote(code)}"


def _job_command(msg, prefix, wrapped):
    """The job's own command line: its JOB_STARTER/-L form, its command,
    or its script with its arguments."""
    if wrapped:
        return wrapped
    if msg.get("jobfile"):
        words = [prefix + ".job", *(msg.get("args") or ())]
        return " ".join(shlex.quote(w) for w in words)
    return msg["command"]
