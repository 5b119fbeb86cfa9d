"""Tasks that blaunch starts for a job on this host: part of the job here.

A task runs as the job's user, in its own session (a process cannot join a
session it was not born in, and on the job's other hosts there is no job
session to join), so the agent keeps the tasks of each job and makes them
part of it by hand: they get every signal the job gets (bkill, bstop,
bresume), are killed when the controller says the job has ended
(``task_kill``), and their CPU and memory count in the job's usage (on the
job's first host in the job's own samples, elsewhere in ``task_usage``
reports).  Each exit is reported as ``task_exit`` with the job's id and
attempt, so a stale task's report is recognised.

Tasks are journalled (``task`` when spawned, ``task_end`` when over), and
their wrapper writes the exit status to a file, as a job's does: an agent
restarted after kill -9 re-adopts the tasks still running (neither killing
nor restarting them) and reports the exit of those that ended meanwhile.
"""

import heapq
import logging
import os
import re
import signal

from xce.agent import procs, spawn
from xce.agent.protocol import job_key

log = logging.getLogger("xce.agent")

# cd to the task's directory (as the user), send its output where blaunch
# said, run the task and record its status.  The wrapper outlives the
# catchable signals the task gets, so the status is written.  Its
# variables are xce_ ones, and the task's own xce_ variables come back
# from its fourth parameter just before the task runs (xce.agent.spawn);
# the task's OLDPWD, which cd changes, is put back.
_WRAPPER = ('xce_op=${OLDPWD-}; xce_os=${OLDPWD+1}; '
            'cd "$1" 2>/dev/null || cd /; '
            '[ -n "$xce_os" ] && OLDPWD=$xce_op || unset OLDPWD; '
            'xce_s=$2; xce_o=$3; xce_keep=$4; '
            'shift 4; [ -n "$xce_o" ] && '
            '{ exec >>"$xce_o" 2>&1 || exec >/dev/null 2>&1; }; '
            'trap : INT TERM HUP USR1 USR2 QUIT; '
            'if [ -z "$xce_keep" ]; then "$@"; '
            'else (eval "$xce_keep"; exec "$@"); fi; xce_rc=$?; '
            'echo $xce_rc >"$xce_s"; exit $xce_rc')
KILL_GRACE = 10.0       # seconds from a terminating signal to SIGKILL
ADOPTED_POLL = 0.5      # how often to look at tasks that are not our children
_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class Task:
    def __init__(self, key, msg, pid, ptime, status, child=True):
        self.key, self.msg, self.pid, self.ptime = key, msg, pid, ptime
        self.status = status        # the file the wrapper writes its rc to
        self.child = child          # False once re-adopted after a restart
        self.cpu = 0.0              # CPU seconds at the last sample


class TaskTable:
    def __init__(self, outbox, now, journal=None, user_dir=None):
        self.outbox = outbox        # the agent's list of outgoing messages
        self.now = now
        self.journal = journal      # the agent's journal (xce.agent.journal)
        self.user_dir = user_dir    # msg -> the job user's directory here
        self.by_pid = {}            # pid -> Task
        self.timers = []            # heap of (when, seq, action, pid, arg)
        self._seq = 0
        # key -> {"cpu": CPU of its ended tasks, "max_mem": KB}
        self.usage = {}

    # -- starting ----------------------------------------------------------
    def start(self, msg):
        key = job_key(msg)
        uid, gid = int(msg["uid"]), int(msg["gid"])
        if os.geteuid() != 0 and uid != os.geteuid():
            self._report(key, msg, 127, 0.0)
            return
        status = self._status_path(key, msg)
        argv = spawn.as_user_argv(uid, gid, [
            spawn.SHELL, "-c", _WRAPPER, "xce-task", msg.get("cwd") or "/",
            status, msg.get("stdout") or "",
            spawn.restore_text(msg.get("env") or {}), *msg["argv"]])
        env = spawn.without_reserved(msg.get("env") or {})
        try:
            _unlink(status)
            pid = spawn.spawn(argv, env)
        except OSError as e:
            log.error("task of job %s: cannot start: %s", key, e)
            self._report(key, msg, 127, 0.0)
            return
        task = Task(key, msg, pid, procs.start_ticks(pid), status)
        self.by_pid[pid] = task
        self.usage.setdefault(key, {"cpu": 0.0, "max_mem": 0})
        if self.journal is not None:
            # Handed to the kernel now: a crash from here on re-adopts it.
            self.journal.append_task(pid, key, msg=_slim(msg),
                                     ptime=task.ptime, status=status)
            self.journal.flush()

    def _status_path(self, key, msg):
        """Beside the job's own files, in its user's directory."""
        base = self.user_dir(msg) if self.user_dir else "/tmp"
        name = _SAFE.sub("_", f"{msg.get('task')}.{msg.get('n')}")
        return f"{base}/{key[0]}.{key[1]}.{key[2]}.task.{name}.status"

    # -- ending ------------------------------------------------------------
    def exited(self, pid, status, ru):
        """A child ended: if it is a task, report it.  True if it was."""
        task = self.by_pid.get(pid)
        if task is None or not task.child:
            return False
        code = (os.WEXITSTATUS(status) if os.WIFEXITED(status)
                else 128 + os.WTERMSIG(status))
        self._ended(task, code, ru.ru_utime + ru.ru_stime)
        return True

    def _ended(self, task, code, cpu):
        del self.by_pid[task.pid]
        acc = self.usage.get(task.key)
        if acc is not None:
            acc["cpu"] += max(cpu, task.cpu)
        report = self._report(task.key, task.msg, code, max(cpu, task.cpu))
        if self.journal is not None:
            # Kept until the controller acknowledges it (task_ack): an
            # exit that finds no controller is sent again at the hello.
            self.journal.end_task(task.pid, task.key, tid(report), report)
        _unlink(task.status)

    def _report(self, key, msg, code, cpu):
        report = {"op": "task_exit", "job": key[0], "idx": key[1],
                  "attempt": key[2], "task": msg.get("task"),
                  "n": msg.get("n"), "exit_code": code,
                  "cpu_time": round(cpu, 3)}
        self.outbox.append(report)
        return report

    def acked(self, msg):
        """The controller has recorded a task's exit."""
        if self.journal is not None:
            self.journal.ack_task(tid(msg))
            self.journal.compact()      # counted as a job's ack is

    # -- after a restart ---------------------------------------------------
    def recover(self):
        """Re-adopt the journalled tasks still running; report the others."""
        if self.journal is None:
            return
        for pid, rec in list(self.journal.tasks.items()):
            key = tuple(rec["key"])
            task = Task(key, rec["msg"], pid, rec.get("ptime"),
                        rec["status"], child=False)
            self.by_pid[pid] = task
            self.usage.setdefault(key, {"cpu": 0.0, "max_mem": 0})
            if procs.alive(pid, task.ptime):
                log.info("task %s of job %s: re-adopted", pid, key)
                self._at(self.now() + ADOPTED_POLL, "adopted", pid)
            else:
                self._ended(task, _status_of(task), 0.0)
        self.journal.flush()

    def _timer_adopted(self, pid, _):
        task = self.by_pid.get(pid)
        if task is None:
            return
        if procs.alive(pid, task.ptime):
            self._at(self.now() + ADOPTED_POLL, "adopted", pid)
        else:
            self._ended(task, _status_of(task), 0.0)

    def hello_tasks(self):
        """The tasks running here, for the controller to fence stale ones."""
        return [{"job": t.key[0], "idx": t.key[1], "attempt": t.key[2],
                 "pid": t.pid, "task": t.msg.get("task"), "n": t.msg.get("n")}
                for t in self.by_pid.values()]

    def hello_exits(self):
        """Task exits the controller has not acknowledged, sent again."""
        if self.journal is None:
            return []
        return [rec["report"] for rec in self.journal.task_done.values()]

    # -- usage -------------------------------------------------------------
    def sessions(self):
        return list(self.by_pid)

    def add_to(self, key, u, usage):
        """The job KEY's sampled usage *u* (or None) plus its tasks'."""
        mine = [t for t in self.by_pid.values() if t.key == key]
        acc = self.usage.get(key)
        if not mine and not acc:
            return u
        total = dict(u or {"cpu": 0.0, "rss": 0, "nprocs": 0, "pids": []})
        total["cpu"] += acc["cpu"] if acc else 0.0
        total["pids"] = list(total["pids"])
        for task in mine:
            t = usage.get(task.pid) or {}
            task.cpu = max(task.cpu, t.get("cpu", 0.0))
            total["cpu"] += task.cpu
            total["rss"] += t.get("rss", 0)
            total["nprocs"] += t.get("nprocs", 0)
            total["pids"] += t.get("pids", [])
        return total

    def report_usage(self, usage, local):
        """task_usage for each job with tasks here but not its own process
        (its other hosts): CPU so far and memory now, for the controller to
        add to the job's."""
        for key in {t.key for t in self.by_pid.values()} - set(local):
            u = self.add_to(key, None, usage)
            acc = self.usage.setdefault(key, {"cpu": 0.0, "max_mem": 0})
            acc["max_mem"] = max(acc["max_mem"], u["rss"])
            self.outbox.append({"op": "task_usage", "job": key[0],
                                "idx": key[1], "attempt": key[2],
                                "cpu_time": round(u["cpu"], 3),
                                "mem": u["rss"], "max_mem": acc["max_mem"]})

    # -- signals -----------------------------------------------------------
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
                self._at(self.now() + float(msg.get("interval") or KILL_GRACE),
                         "signal", task.pid, signal.SIGKILL)
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
        key = job_key(msg)
        for k in [k for k in self.usage if k[:2] == key[:2]]:
            del self.usage[k]       # nothing more to count for the job

    def _timer_signal(self, pid, sig):
        if pid in self.by_pid:
            _killpg(pid, sig)

    # -- timers ------------------------------------------------------------
    def _at(self, when, action, pid, arg=None):
        self._seq += 1
        heapq.heappush(self.timers, (when, self._seq, action, pid, arg))

    def next_deadline(self):
        return self.timers[0][0] if self.timers else None

    def run_timers(self, now):
        while self.timers and self.timers[0][0] <= now:
            _, _, action, pid, arg = heapq.heappop(self.timers)
            getattr(self, "_timer_" + action)(pid, arg)


def tid(msg):
    """One task of one attempt: what a task_exit and its ack share."""
    return f"{msg['job']}.{msg.get('idx', 0)}.{msg['attempt']}." \
        f"{msg.get('task')}.{msg.get('n')}"


def _slim(msg):
    """What a re-adopted task needs of its start message (not its env)."""
    return {k: msg.get(k) for k in ("job", "idx", "attempt", "task", "n",
                                    "uid", "gid", "user")}


def _status_of(task):
    code = procs.read_small_int(task.status)
    # No status file: the wrapper itself was killed, by SIGKILL.
    return 128 + signal.SIGKILL if code is None else code


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _killpg(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
