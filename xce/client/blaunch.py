"""blaunch from inside a job: ask the controller to start tasks on the job's
hosts, then wait for their exits, which the controller records in the store.
"""

import json
import os
import stat
import time

from xce.errors import XceError, text
from xce.spool.client import call
from xce.store.reader import Reader

POLL = 0.2          # seconds between looks at the store while tasks run
NOT_IN_JOB = "blaunch: Not running inside an LSF job (LSB_JOBID is not set)"


def job_of(environ):
    """(job id, index) of the job blaunch runs in, from LSB_JOBID/INDEX."""
    try:
        return int(environ["LSB_JOBID"]), int(environ.get("LSB_JOBINDEX") or 0)
    except (KeyError, ValueError):
        raise XceError(NOT_IN_JOB)


def output_path(environ):
    """Where the tasks' output goes: blaunch's own stdout when it is a file
    (the job's output, usually), else the job's output file."""
    try:
        path = os.readlink("/proc/self/fd/1")
        if path.startswith("/") and stat.S_ISREG(os.stat(path).st_mode):
            return path
    except OSError:
        pass
    return environ.get("LSB_OUTPUTFILE")


def hosts_from_file(path):
    """-u: one host name per line (a task per line, as LSF does)."""
    try:
        with open(path) as f:
            return [w for line in f for w in line.split()[:1]]
    except OSError as e:
        raise XceError(text("COMMAND_FILE", command="blaunch", path=path,
                            reason=e.strerror))


def launch(site, hosts, argv, environ=None):
    """Start one task per host; wait; the first non-zero exit status."""
    environ = dict(os.environ if environ is None else environ)
    jobid, idx = job_of(environ)
    reply = call(site, "blaunch", {
        "job": jobid, "idx": idx, "hosts": list(hosts), "argv": list(argv),
        "cwd": os.getcwd(), "env": environ,
        "stdout": output_path(environ)})
    if not reply.get("ok"):
        raise XceError(text("BLAUNCH_FAILED", error=reply.get("error") or
                            text("BLAUNCH_REQUEST_FAILED")))
    codes = wait(site, jobid, idx, reply["task"], len(reply["hosts"]))
    return next((c for c in codes if c), 0)


def wait(site, jobid, idx, task, count):
    """Poll the store (read-only) until COUNT tasks of TASK have exited."""
    codes, seen = [], 0
    while True:
        with Reader(site.store_path) as reader:
            rows = reader.task_exits(jobid, idx, seen)
        for seq, data in rows:
            seen = max(seen, seq)
            doc = json.loads(data or "{}")
            if doc.get("task") == task:
                code = doc.get("exit_code")
                codes.append(code if isinstance(code, int) else 1)
        if len(codes) >= count:
            return codes
        time.sleep(POLL)
