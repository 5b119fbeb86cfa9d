"""The agent's job lifecycle: start, track, signal, reap, finish.

Decisions about what to send back are returned as messages; the caller
(xce.agent.server) owns the sockets.  The table's other parts live
beside it: pre/post-exec steps (xce.agent.prepost), usage samples and
the limits checked on them (jobusage), re-adoption after a restart
(recovery); the job's command line (jobargv), its files (jobfiles) and
its report (report).
"""

import heapq
import logging
import os
import signal
import time

from xce.agent import (interactive, jobargv, jobfiles, mail as jobmail, procs,
                       rlimits, spawn, staging)
from xce.agent.boxes import Boxes
from xce.agent.cwdttl import CwdTtl
from xce.agent.held import Held
from xce.agent.jobenv import job_environment
from xce.agent.joboutput import default_output, moved_output
from xce.agent.jobusage import Sampling, final_peak
from xce.agent.journal import Journal
from xce.agent.prepost import PrePost
from xce.agent.protocol import job_key
from xce.agent.recovery import Recovery
from xce.agent.report import append_report
from xce.agent.running import Running

log = logging.getLogger("xce.agent")

ADOPTED_POLL = 0.5          # how often to look at jobs that are not our children
GROUP_RETRY = 0.02          # a signal before the job's session exists waits


class JobTable(PrePost, Sampling, Recovery, Boxes, Held, CwdTtl):
    def __init__(self, workdir, output_dir, now=time.time):
        self.dir = workdir
        self.jobs_dir = workdir / "jobs"
        self.jobs_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.jobs_dir, 0o711)
        # Where GNU time writes each job's peak: the agent's, not the user's.
        self.peak_dir = workdir / "peak"
        self.peak_dir.mkdir(mode=0o700, exist_ok=True)
        self.output_dir = output_dir
        self.now = now
        self.journal = Journal(workdir / "journal")
        self.running = {}       # key -> Running
        self.by_pid = {}        # pid of a child -> key
        self.timers = []        # heap of (when, seq, action, key, arg)
        self._seq = 0
        self.outbox = []        # messages for the controller
        # Called with (pid, status, rusage) for a child that is no job,
        # such as a blaunch task (xce.agent.tasks); True if it was one.
        self.other_child = None
        self._user_dirs = set()
        self._init_prepost()
        self._init_boxes(workdir)
        self._init_cwdttl(workdir)      # JOB_CWD_TTL (xce.agent.cwdttl)
        self._init_held()
        self.mailer = jobmail.Mailer(self.peak_dir)    # bsub -B/-N, no -o

    # -- timers ------------------------------------------------------------
    def at(self, when, action, key, arg=None):
        self._seq += 1
        heapq.heappush(self.timers, (when, self._seq, action, key, arg))

    def next_deadline(self):
        return self.timers[0][0] if self.timers else None

    def run_timers(self, now):
        while self.timers and self.timers[0][0] <= now:
            _, _, action, key, arg = heapq.heappop(self.timers)
            getattr(self, "_timer_" + action)(key, arg, now)

    # -- starting ----------------------------------------------------------
    def start_batch(self, msgs):
        """Journal every new start (one write), then spawn them."""
        fresh = []
        for msg in msgs:
            key = job_key(msg)
            if key in self.journal.jobs:
                self._restate(key)      # a resent start: say what we know
                continue
            if key in self.held:
                continue                # already prepared, waits for go
            prefix = f"{self.user_dir(msg)}/{key[0]}.{key[1]}.{key[2]}"
            if msg.get("hold"):         # protocol 14: prepare, wait for go
                self.hold(key, msg, prefix)
                continue
            self.journal.append("start", key, msg=msg, dir=prefix)
            fresh.append((key, msg, prefix))
        if fresh:
            self.journal.flush()
        for key, msg, prefix in fresh:
            try:
                self._spawn(key, msg, prefix)
            except OSError as e:
                log.error("job %s: cannot start: %s", key, e)
                self._finish(key, 127, {}, reason="TERM_UNKNOWN",
                             error=str(e))

    def _restate(self, key):
        rec = self.journal.jobs[key]
        if "result" in rec:
            self.outbox.append(_finished_msg(key, rec["result"]))
        elif key in self.running:
            self.outbox.append(self._started_msg(self.running[key]))

    def user_dir(self, msg):
        """jobs/u<uid>: made once per user and owned by them, so a job
        costs no directory of its own to make and remove."""
        path = self.jobs_dir / f"u{msg['uid']}"
        if path not in self._user_dirs:
            if not path.is_dir():
                path.mkdir(mode=0o700)
                if os.geteuid() == 0:
                    os.chown(path, msg["uid"], msg["gid"])
            self._user_dirs.add(path)
        return path

    def _spawn(self, key, msg, prefix):
        argv, env, exact, stdout, home = self._prepare(msg, prefix)
        self._begin(key, msg, prefix, env, lambda: self._launch(
            key, msg, prefix, argv, env, exact, stdout, home))

    def _prepare(self, msg, prefix):
        """Everything a start needs before its wrapper is spawned: the
        job's files, environment and wrapper argv."""
        uid, gid = msg["uid"], msg["gid"]
        if os.geteuid() != 0 and uid != os.geteuid():
            raise PermissionError("the agent is not root and cannot run "
                                  f"jobs as uid {uid}")
        _remove_files(prefix)
        self.take_over_cwd(msg, prefix)     # xce.agent.cwdttl
        self.name_box(msg)      # its container, if any (xce.agent.boxes)
        # Created new (O_EXCL, never through a link the user may have
        # planted in their directory), then given to the user.
        owned = [jobfiles.create(prefix + ".hosts",
                                 "".join(h + "\n" for h in msg["hosts"]))]
        if msg.get("jobfile"):
            owned.append(jobfiles.create(prefix + ".job", msg["jobfile"],
                                         0o700))
        if msg.get("xfiles"):       # bsub -f (xce.agent.staging)
            owned += staging.prepare(msg, prefix, jobfiles.create)
        fallback = default_output(self.output_dir, msg)
        stdout = msg.get("stdout") or fallback
        msg["stdout"] = stdout
        if os.geteuid() == 0:
            for path in owned:
                os.chown(path, uid, gid)
        env, home = job_environment(msg, prefix, owned[0])
        msg["home"] = home
        self.note_place(msg, env)   # a rootless container's user, if any
        exact = bool(msg.get("exact_peak"))     # see spawn.WRAPPER_EXACT_PEAK
        argv = jobargv.wrapper_argv(msg, prefix, env, stdout, fallback, exact)
        return argv, env, exact, stdout, home

    def _spawn_wrapper(self, key, msg, argv, env, exact, stdin_fd=None):
        """posix_spawn the job's wrapper; with *stdin_fd* (a held start's
        gate, xce.agent.held) it waits for a line there first."""
        measured = exact and spawn.MEASURED
        if measured:
            jobfiles.remove(self._peak_path(key))
        argv = jobargv.launch_argv(
            msg, argv, self._peak_path(key) if measured else None)
        return spawn.spawn(argv, spawn.without_reserved(env),
                           stdin_fd=stdin_fd)

    def _launch(self, key, msg, prefix, argv, env, exact, stdout, home,
                pid=None):
        """Spawn the job's wrapper (after its pre-exec steps, if any);
        *pid*: the wrapper of a held start, spawned already."""
        measured = exact and spawn.MEASURED
        if pid is None:
            pid = self._spawn_wrapper(key, msg, argv, env, exact)
        msg["start_time"] = self.now()
        job = Running(key, msg, prefix, pid, procs.start_ticks(pid), True,
                      measured)
        job.spawn_peak = procs.own_peak_kb()
        self.mailer.job_started(msg, home)     # bsub -B
        self.journal.append("pid", key, pid=pid, ptime=job.ptime,
                            start_time=msg["start_time"], stdout=stdout,
                            home=home, measured=job.measured)
        self._track(job)

    def _peak_path(self, key):
        return str(self.peak_dir / f"{key[0]}.{key[1]}.{key[2]}")

    def _group(self, job):
        """The job's process group (and session), once known.  Under GNU
        time it is the wrapper, which writes its pid first thing; the file
        is the user's, so the pid counts only if it leads a session and
        its parent is our time process."""
        if job.group is None:
            job.group = self._session_of_wrapper(job)
            if job.group is not None:
                # The controller shows the group as the job's PGID.
                self.outbox.append(self._started_msg(job))
                if job.cpu_retarget:        # bmod -c/-cn before now
                    self._retarget_cpu(job, job.cpu_retarget[0])
        return job.group

    def _session_of_wrapper(self, job):
        pid = procs.read_small_int(job.prefix + ".pid")
        return pid if pid and procs.leads_session_under(pid, job.pid) \
            else None

    def _track(self, job):
        self.running[job.key] = job
        if job.child:
            self.by_pid[job.pid] = job.key
        else:
            self.at(self.now() + ADOPTED_POLL, "adopted", job.key)
        self._arm_runlimit(job)
        self.outbox.append(self._started_msg(job))

    def _arm_runlimit(self, job):
        """A timer at the job's start plus its run limit.  The limit rides
        along: a timer whose limit was changed since (bmod -W) is stale."""
        limit = job.msg.get("runlimit")
        if limit:
            self.at(job.start_time + limit, "runlimit", job.key, limit)

    # -- limits changed on a running job (bmod -W/-M/-c) --------------------
    def set_limits(self, msg):
        """New run, memory and CPU limits (None: no limit) for a running job,
        journalled so that a restarted agent enforces them too.  The run
        limit still counts from the job's start; the memory limit is
        checked at the next sample."""
        key = job_key(msg)
        job = self.running.get(key)
        if job is None:
            return False
        limits = {k: msg.get(k) for k in ("runlimit", "memlimit")}
        if "cpulimit" in msg:       # protocol 12: bmod -c/-cn
            limits["rlimits"] = rlimits.with_cpulimit(
                job.msg.get("rlimits"), msg["cpulimit"])
        self.journal.append("limits", key, **limits)
        job.msg.update(limits)
        self._arm_runlimit(job)
        if "cpulimit" in msg:
            if self._group(job):
                self._retarget_cpu(job, msg["cpulimit"])
            else:
                # Its processes already run with the old limit (the
                # measuring wrapper has not said its pid yet): retarget
                # them once it has.
                job.cpu_retarget = [msg["cpulimit"]]
        log.info("job %s: limits now %s", key, limits)
        return True

    def _retarget_cpu(self, job, cpulimit):
        job.cpu_retarget = None
        rlimits.retarget_cpu(procs.sample_sessions([job.group])
                             [job.group]["pids"], cpulimit)

    def _started_msg(self, job):
        return {"op": "started", "job": job.key[0], "idx": job.key[1],
                "attempt": job.key[2], "pid": job.group or job.pid,
                "start_time": job.start_time, "stdout": job.msg["stdout"]}

    # -- signals -----------------------------------------------------------
    def signal(self, msg):
        key = job_key(msg)
        job = self.running.get(key)
        if job is None:
            return self.signal_stage(msg, key)
        sig = msg["signal"]
        if sig == "KILLSEQ":
            job.reason = msg.get("reason") or job.reason
            self._kill_sequence(job, [signal.SIGINT, signal.SIGTERM,
                                      signal.SIGKILL], msg.get("interval", 10))
        else:
            if msg.get("reason"):
                job.reason = msg["reason"]
            job.fenced = job.fenced or bool(msg.get("fence"))
            self._killpg(job, int(sig))
        return True

    def _kill_sequence(self, job, sigs, interval):
        now = self.now()
        self._killpg(job, sigs[0])
        for i, sig in enumerate(sigs[1:], 1):
            self.at(now + i * interval, "signal", job.key, int(sig))

    def _killpg(self, job, sig):
        if sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            # A stopped job must be continued to act on a terminating signal.
            self._send(job, signal.SIGCONT)
        self._send(job, sig)

    def _send(self, job, sig):
        group = self._group(job)
        if group is None:
            # Spawned but not yet in its session (a few ms): try again.
            if procs.alive(job.pid, job.ptime):
                self.at(self.now() + GROUP_RETRY, "signal", job.key, sig)
            return
        try:
            os.killpg(group, interactive.stop_signal(job.msg, sig))
        except ProcessLookupError:
            pass

    def _timer_signal(self, key, sig, now):
        job = self.running.get(key)
        if job is not None:
            self._killpg(job, sig)

    def _timer_runlimit(self, key, limit, now):
        job = self.running.get(key)
        if job is None or job.msg.get("runlimit") != limit or \
                job.reason == "TERM_RUNLIMIT":
            return          # gone, limit changed since, or already killed
        job.reason = "TERM_RUNLIMIT"
        self._kill_sequence(job, [signal.SIGUSR2, signal.SIGKILL],
                            job.msg.get("terminate_interval", 10))

    def _timer_adopted(self, key, _, now):
        job = self.running.get(key)
        if job is None:
            return
        if procs.alive(job.pid, job.ptime):
            self.at(now + ADOPTED_POLL, "adopted", key)
        else:
            self._finish(key, self._status_from_file(job), {})

    def reap(self):
        """Collect every exited child; finish the jobs among them."""
        while True:
            try:
                pid, status, ru = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            code = (os.WEXITSTATUS(status) if os.WIFEXITED(status)
                    else 128 + os.WTERMSIG(status))
            key = self.by_pid.pop(pid, None)
            if key is None:
                if self.step_exited(pid, code) or \
                        self.remover_exited(pid) or self.held_exited(pid):
                    continue    # a pre/post-exec step, a container's
                    # removal, a held start's wrapper that went
                if self.other_child is not None:
                    self.other_child(pid, status, ru)
                continue        # a report appender or an orphan we inherited
            usage = {"cpu": ru.ru_utime + ru.ru_stime}
            job = self.running.get(key)
            if job is not None and job.spawn_peak is not None and \
                    ru.ru_maxrss > job.spawn_peak:
                usage["peak"] = ru.ru_maxrss
            self._finish(key, code, usage)
        # The exit records are synced once, before they are reported.

    def _status_from_file(self, job):
        try:
            return jobfiles.read_int(job.prefix + ".status", strict=True)
        except (OSError, ValueError):
            # Killed before the wrapper could write it: a signal death.
            return 128 + signal.SIGKILL

    # -- finishing ---------------------------------------------------------
    def _finish(self, key, code, usage, reason=None, error=None,
                extra=None):
        job = self.running.pop(key, None)
        if job is not None and os.path.exists(job.prefix + ".failed"):
            reason = "TERM_CWD_NOTEXIST"
        end = self.now()
        peak = final_peak(job, usage, self._peak_path(key)) \
            if job is not None else 0
        result = {
            "stat": "DONE" if code == 0 else "EXIT", "exit_code": code,
            "reason": reason or (job.reason if job else None) or (
                rlimits.reason_of_exit(job.msg.get("rlimits"), code)
                if job else None),
            "end_time": end,
            "start_time": job.start_time if job else end,
            "cpu_time": round(max(usage.get("cpu", 0.0),
                                  job.cpu if job else 0.0), 3),
            "max_mem": peak or None,
            "avg_mem": (job.mem_sum // job.samples if job and job.samples
                        else peak or None),
            "max_procs": job.max_procs if job else None,
            "error": error,
        }
        if job is not None and os.path.exists(job.prefix + ".cwd"):
            # Its working directory was missing: it ran in /tmp (LSF's
            # default; spawn.WRAPPER).
            result["exec_cwd"] = "/tmp"
        if job is not None:
            moved = moved_output(job.prefix, self.output_dir, job.msg)
            if moved:
                result["output_fallback"] = moved
        result.update(extra or {})
        if job is not None and job.msg.get("post"):
            result["post_pending"] = True
        if job is not None and job.msg.get("xfiles"):     # bsub -f
            result["xout"], result["xerr"] = staging.collect(
                job.msg, job.prefix, result)
        self.journal.append("exit", key, result=result)
        if job is not None:
            self.remove_box(job.msg)    # gone with its client, or now
        if job is not None and not job.fenced:
            output = self.mailer.output_for(job.msg, result)
            try:
                text = append_report(job, result)
            except OSError as e:    # the report is owed, the agent more so
                log.error("job %s: no job report: %s", key, e)
                text = None
            self.mailer.job_ended(job.msg, result, text, output)
        self.outbox.append(_finished_msg(key, result))
        if job is not None and job.msg.get("post"):
            self._after_job(key, job.msg, job.prefix, code)
        elif job is not None:       # after its post-exec, if it has one
            self.note_made_cwd(job.msg, job.prefix)

    def discard_files(self, prefix):
        _remove_files(prefix)

    def acked(self, msg):
        key = job_key(msg)
        rec = self.journal.jobs.get(key)
        if rec is None or self.post_running(key):
            return      # its files go when its post-exec has ended
        self.journal.append("ack", key)
        _remove_files(rec["dir"])
        jobfiles.remove(self._peak_path(key))
        self.journal.compact()


def _finished_msg(key, result):
    return {"op": "finished", "job": key[0], "idx": key[1],
            "attempt": key[2], **result}


def _remove_files(prefix):
    staging.remove(prefix)
    jobfiles.remove_files(prefix)
