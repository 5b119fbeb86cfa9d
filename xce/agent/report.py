"""The LSF job report appended to a job's output file when it ends: its
text (pure), and its appending, by the agent for a job of its own user,
by a process with the user's rights for another user's job."""

import logging
import os
import time

from xce.agent import interactive, spawn
from xce.agent.jobfiles import create
from xce.model.joboutput import fallback_sentences

RULE = "-" * 60

EXIT_REASON_TEXT = {
    "TERM_OWNER": "TERM_OWNER: job killed by owner.",
    "TERM_ADMIN": "TERM_ADMIN: job killed by root or LSF administrator.",
    "TERM_RUNLIMIT": "TERM_RUNLIMIT: job killed after reaching LSF run time limit.",
    "TERM_MEMLIMIT": "TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.",
    "TERM_DEADLINE": "TERM_DEADLINE: job killed after deadline expires.",
    "TERM_PREEMPT": "TERM_PREEMPT: job killed after preemption.",
    "TERM_WINDOW": "TERM_WINDOW: job killed after queue run window closed.",
    "TERM_LOAD": "TERM_LOAD: job killed after load exceeds threshold.",
    "TERM_CPULIMIT": "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit.",
    "TERM_SWAP": "TERM_SWAP: job killed after reaching LSF swap usage limit.",
    "TERM_PROCESSLIMIT": "TERM_PROCESSLIMIT: job killed after reaching LSF process limit.",
    "TERM_THREADLIMIT": "TERM_THREADLIMIT: job killed after reaching LSF thread limit.",
    "TERM_GANG": "TERM_GANG: job killed because another member of its gang group failed.",
    "TERM_BUCKET_KILL": "TERM_BUCKET_KILL: job killed with bkill -b.",
    "TERM_CWD_NOTEXIST": "TERM_CWD_NOTEXIST: job killed because the current working directory does not exist.",
}


def ctime(t):
    """C's ctime() without its newline, as LSF dates the report: the day
    padded with a space (``Mon Jan  6 14:22:28 2025``), English names."""
    return time.ctime(t)


def _mem(kb):
    if kb is None:
        return "-"
    return f"{max(1, round(kb / 1024))} MB" if kb else "0 MB"


def _hosts_line(hosts):
    counts = {}
    for h in hosts:
        counts[h] = counts.get(h, 0) + 1
    parts = [f"<{n}*{h}>" if n > 1 else f"<{h}>" for h, n in counts.items()]
    return ("\n" + " " * 26).join(parts)


def job_report(job, result, command_lines, home, cwd, errfile=None):
    """Text of the report; *job* is the start message, *result* the exit."""
    done = result["stat"] == "DONE"
    end = result["end_time"]
    start = result.get("start_time", end)
    lines = [
        "", RULE,
        f"Sender: LSF System <{job['user']}@{job['hosts'][0]}>",
        f"Subject: Job {job['label']}: <{job['name']}> in cluster "
        f"<{job['cluster']}> {'Done' if done else 'Exited'}",
        "",
        f"Job <{job['name']}> was submitted from host <{job['from_host']}> "
        f"by user <{job['user']}> in cluster <{job['cluster']}> at "
        f"{ctime(job['submit_time'])}",
        f"Job was executed on host(s) {_hosts_line(job['hosts'])}, in queue "
        f"<{job['queue']}>, as user <{job['user']}> in cluster "
        f"<{job['cluster']}> at {ctime(start)}",
        f"<{home}> was used as the home directory.",
        f"<{cwd}> was used as the working directory.",
        f"Started at {ctime(start)}",
        f"Terminated at {ctime(end)}",
        f"Results reported at {ctime(end)}",
        "", "Your job looked like:", "", RULE, "# LSBATCH: User input",
        *command_lines[:50], RULE, "",
    ]
    if done:
        lines.append("Successfully completed.")
    else:
        reason = EXIT_REASON_TEXT.get(result.get("reason") or "")
        if reason:
            lines.append(reason)
        lines.append(f"Exited with exit code {result['exit_code']}.")
    lines += _usage(result, start, end, job)
    moved = result.get("output_fallback") or {}
    if "stderr" in moved:
        errfile = moved["to"]
    if errfile or moved:
        lines += ["", "PS:", ""]
        lines += fallback_sentences(moved)
    if errfile:
        lines += [f"Read file <{errfile}> for stderr output of this job.", ""]
    elif moved:
        lines.append("")
    return "\n".join(lines) + "\n"


def _usage(result, start, end, job):
    avg = result.get("avg_mem")
    rows = [
        ("CPU time", f"{result.get('cpu_time') or 0.0:.2f} sec."),
        ("Max Memory", _mem(result.get("max_mem"))),
        ("Average Memory", f"{avg / 1024:.2f} MB" if avg else "-"),
        ("Total Requested Memory", "-"),
        ("Delta Memory", "-"),
        ("Max Swap", "-"),
        ("Max Processes", result.get("max_procs") or "-"),
        ("Max Threads", result.get("max_threads") or "-"),
        ("Run time", f"{int(round(end - start))} sec."),
        ("Turnaround time", f"{int(round(end - job['submit_time']))} sec."),
    ]
    # Values start in column 49, as in LSF's report.
    return (["", "Resource usage summary:", ""] +
            [f"{'    ' + label + ' :':<49}{value}" for label, value in rows] +
            ["", "The output (if any) is above this job summary.", ""])


def _append_own(out, text, jobid):
    """The job runs as the agent's own user: append the report directly
    (for another user's job a process with that user's rights does it)."""
    if os.path.isdir(out):
        out = os.path.join(out, f"{jobid}.out")
    try:
        with open(out, "a") as f:
            f.write(text)
    except OSError as e:
        logging.getLogger("xce.agent").warning(
            "job %s: cannot append the report to %s: %s", jobid, out, e)


def append_report(job, result):
    """The report of *job* (xce.agent.running.Running) ended with
    *result*, appended to its output file; its text."""
    msg = job.msg
    cwd = result.get("exec_cwd") or msg["cwd"]      # /tmp if it was lost
    text = job_report(msg, result, msg.get("command_lines", []),
                      msg.get("home", "/"), cwd, msg.get("stderr"))
    if interactive.output_to_terminal(msg):
        return text         # it went to bsub's terminal, not to a file
    moved = result.get("output_fallback") or {}
    out = moved["to"] if "stdout" in moved else msg["stdout"]
    if not out.startswith("/"):
        out = os.path.join(cwd, out)
    if msg["uid"] == os.geteuid():
        _append_own(out, text, msg["job"])
        return text
    path = job.prefix + ".report"
    # Written by the agent into a fresh file it creates, never following
    # a link the user may have planted in their directory; appended to
    # the output file by a process with the user's rights.
    create(path, text, 0o644)
    spawn.append_as_user(msg["uid"], msg["gid"], str(path), out,
                         str(msg["job"]))
    return text
