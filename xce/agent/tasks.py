"""Tasks that blaunch starts for a job on this host.

A task runs as the job's user, in its own session (a process cannot join a
session it was not born in, and on the job's other hosts there is no job
session to join), so the agent keeps the tasks of each job and signals them
whenever the job is signalled, and kills them when the controller says the
job has ended (``task_kill``).  Each exit is reported as ``task_exit`` with
the job's id and attempt, so a stale task's report is recognised.
"""

import heapq
import logging
import os
import signal

from xce.agent import spawn
from xce.agent.protocol import job_key

log = logging.getLogger("xce.agent")

# cd to the task's directory (as the user), send its output where blaunch
# said, then become the task.
_WRAPPER = ('cd "$1" 2>/dev/null || cd /; o=$2; shift 2; '
            '[ -n "$o" ] && { exec >>"$o" 2>&1 || exec >/dev/null 2>&1; }; '
            'exec "$@"')
KILL_GRACE = 10.0       # seconds from a terminating signal to SIGKILL


class Task:
    def __init__(self, key, msg, pid):
        self.key, self.msg, self.pid = key, msg, pid


class TaskTable:
    def __init__(self, outbox, now):
        self.outbox = outbox        # the agent's list of outgoing messages
        self.now = now
        self.by_pid = {}            # pid -> Task
        self.timers = []            # heap of (when, pid, signal)

    def start(self, msg):
        key = job_key(msg)
        uid, gid = int(msg["uid"]), int(msg["gid"])
        if os.geteuid() != 0 and uid != os.geteuid():
            self._report(key, msg, 127, 0.0)
            return
        argv = spawn.as_user_argv(uid, gid, [
            spawn.SHELL, "-c", _WRAPPER, "xce-task", msg.get("cwd") or "/",
            msg.get("stdout") or "", *msg["argv"]])
        env = dict(msg.get("env") or {})
        try:
            pid = spawn.spawn(argv, env)
        except OSError as e:
            log.error("task of job %s: cannot start: %s", key, e)
            self._report(key, msg, 127, 0.0)
            return
        self.by_pid[pid] = Task(key, msg, pid)

    def exited(self, pid, status, ru):
        """A child ended: if it is a task, report it.  True if it was."""
        task = self.by_pid.pop(pid, None)
        if task is None:
            return False
        code = (os.WEXITSTATUS(status) if os.WIFEXITED(status)
                else 128 + os.WTERMSIG(status))
        self._report(task.key, task.msg, code, ru.ru_utime + ru.ru_stime)
        return True

    def _report(self, key, msg, code, cpu):
        self.outbox.append({"op": "task_exit", "job": key[0], "idx": key[1],
                            "attempt": key[2], "task": msg.get("task"),
                            "n": msg.get("n"), "exit_code": code,
                            "cpu_time": round(cpu, 3)})

    def _of(self, msg, any_attempt=False):
        key = job_key(msg)
        return [t for t in self.by_pid.values() if t.key == key or
                any_attempt and t.key[:2] == key[:2]]

    def signal(self, msg):
        """The job got a signal: so do its tasks here.  The kill sequence
        becomes SIGTERM now and SIGKILL after the job's interval."""
        sig = msg["signal"]
        for task in self._of(msg):
            if sig == "KILLSEQ":
                _killpg(task.pid, signal.SIGCONT)
                _killpg(task.pid, signal.SIGTERM)
                heapq.heappush(self.timers, (
                    self.now() + float(msg.get("interval") or KILL_GRACE),
                    task.pid, signal.SIGKILL))
            else:
                if int(sig) in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
                    _killpg(task.pid, signal.SIGCONT)
                _killpg(task.pid, int(sig))

    def kill_job(self, msg):
        """The job ended or was requeued: none of its tasks may live on."""
        for task in self._of(msg, any_attempt=True):
            log.info("killing task %s of job %s", task.pid, task.key)
            _killpg(task.pid, signal.SIGCONT)
            _killpg(task.pid, signal.SIGKILL)

    def next_deadline(self):
        return self.timers[0][0] if self.timers else None

    def run_timers(self, now):
        while self.timers and self.timers[0][0] <= now:
            _, pid, sig = heapq.heappop(self.timers)
            if pid in self.by_pid:
                _killpg(pid, sig)


def _killpg(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
