"""Pre- and post-execution steps around a job, and its starter and login
shell (the start message's "pre", "post", "starter" and "login_shell",
worked out by the controller in xce.controller.execplan).

Each step is one process, spawned when the one before it has ended, in
its own session (so that a kill reaches what it started):
  - a job-level step (bsub -E/-Ep) runs as the job's user, in the job's
    working directory, with the job's environment, its output appended
    to the job's output files (bsub(1));
  - a queue- or host-level step runs as the user the controller names
    (the job's, PRE_POST_EXEC_USER, or root), in /tmp, with the job's
    environment but PATH=/bin:/usr/bin:/sbin:/usr/sbin and its standard
    input, output and error on /dev/null, as LSF runs them.
A user's own command only ever gets the job user's rights: the
controller gives a user name only to steps from its configuration.

A pre-exec step that fails ends the stage: the job is reported with
"pre_failed" (the controller sends it back to PEND, or suspends or ends
it past LOCAL_MAX_PREEXEC_RETRY), and the host-level post steps still
run to clean up.  Exit 99 means "do not retry" (the controller ends the
job).  Post steps all run, whatever one of them returns; the stage's
status (POST_DONE, or POST_ERR when any failed) is reported after the
job's own exit, which is reported at once, as LSF does by default.
"""

import logging
import os
import pwd
import shlex
import signal

from xce.agent import container, procs, spawn
from xce.agent.jobenv import job_environment
from xce.agent.protocol import job_key

log = logging.getLogger("xce.agent")

PATH = "/bin:/usr/bin:/sbin:/usr/sbin"      # LSF's PATH for these commands

# 1 working directory, 2 output file ("" = /dev/null), 3 error file ("" =
# with the output), 4 the command line, 5 the restore text of the step's
# environment (its variables are xce_ ones and it puts back the OLDPWD
# that cd changes, as the job wrapper does: xce.agent.spawn), 6 when
# the job's -cwd has a dynamic pattern, the file that says the step made
# its last directory (the job's .made: a job step makes the directory
# first, as the wrapper does; one that is missing runs the step in /tmp,
# where the job runs then too).  A directory given as -o/-e gets
# <jobid>.out/err, as the job's wrapper does.  A job's own step (it has an
# output file) makes bsub -outdir's directory as the wrapper does: the
# job's pre-exec runs before the wrapper and writes inside it.  The first
# line waits for the agent's line on the pipe that is the step's stdin,
# sent once the step's pid is journalled (PrePost._spawn_step); a pipe closed
# without it (the agent died) ends the step before it has done anything.
STEP = r"""
read -r xce_g || exit 1
xce_op=${OLDPWD-}; xce_os=${OLDPWD+1}
[ -n "$6" ] && [ ! -d "$1" ] && mkdir -p -m 700 "$1" 2>/dev/null && : >"$6"
cd "$1" 2>/dev/null || cd /tmp 2>/dev/null || exit 1
[ -n "$xce_os" ] && OLDPWD=$xce_op || unset OLDPWD
exec </dev/null
xce_o=$2; xce_e=$3
if [ -n "$xce_o" ]; then
  [ -n "$LSB_OUTDIR" ] && mkdir -p -m 700 "$LSB_OUTDIR" 2>/dev/null
  [ -d "$xce_o" ] && xce_o="$xce_o/$LSB_JOBID.out"
  command exec >>"$xce_o" 2>/dev/null || exec >/dev/null
else exec >/dev/null
fi
if [ -z "$xce_e" ]; then exec 2>&1
else [ -d "$xce_e" ] && xce_e="$xce_e/$LSB_JOBID.err"
  command exec 2>>"$xce_e" || exec 2>/dev/null
fi
eval "$5"
exec /bin/sh -c "$4"
"""


class Chain:
    """The steps of one stage (pre or post) of one job, one at a time."""

    def __init__(self, key, stage, steps, msg, prefix, env, then=None,
                 report=True):
        self.key, self.stage, self.msg, self.env = key, stage, msg, env
        self.prefix = prefix
        self.steps = list(steps)
        self.then = then            # pre: starts the job when all passed
        self.report = report        # post: say the status when done
        self.pid = None
        self.failed = None          # the first failing step's status
        self.acked = False          # post: the controller has the exit
        self.killed = None          # the reason of a kill, once killed


def wrapped_command(msg, prefix, env=None):
    """The job's command line under its JOB_STARTER and -L login shell,
    inside its container (xce.agent.container; *env*: the job's
    environment, passed in), or None when it has none of them (the
    wrapper then runs it as it is).

    LSF runs ``/bin/sh -c "JOB_STARTER command"``, with the job's
    command in place of %USRCMD when the starter has it."""
    starter, shell = msg.get("starter"), msg.get("login_shell")
    box = msg.get("container")
    if not starter and not shell and not box:
        return None
    if msg.get("jobfile"):
        words = [prefix + ".job", *(msg.get("args") or ())]
        cmd = " ".join(shlex.quote(w) for w in words)
    else:
        cmd = msg["command"]
    if starter:
        cmd = starter.replace("%USRCMD", cmd) if "%USRCMD" in starter \
            else f"{starter} {cmd}"
    if shell:
        cmd = f"exec {shlex.quote(shell)} -l -c {shlex.quote(cmd)}"
    if box:     # the starter and the login shell run inside it
        cmd = container.command(
            box, msg["uid"], msg["gid"], env, cmd,
            prefix + ".job" if msg.get("jobfile") else None)
    return cmd


def exit_stat(code):
    """LSB_JOBEXIT_STAT: the job's wait(2) status."""
    return code - 128 if code > 128 else code << 8


def _identity(step, msg):
    """(uid, gid) a step runs as; PermissionError when this agent cannot."""
    who = step.get("user")
    if who is None:
        return msg["uid"], msg["gid"]
    if who == "root" and os.geteuid() != 0:
        # An agent that is not root runs only its own user's jobs.
        return os.geteuid(), os.getegid()
    try:
        pw = pwd.getpwnam(who)
    except KeyError:
        raise PermissionError(f"no user {who!r} on this host")
    if os.geteuid() != 0 and pw.pw_uid != os.geteuid():
        raise PermissionError(f"the agent is not root and cannot run "
                              f"commands as {who}")
    return pw.pw_uid, pw.pw_gid


def step_argv(step, msg, env, prefix=""):
    """*env*: the step's (step_env), whose reserved names go in the
    argv (spawn.restore_text); *prefix*: the job's files'."""
    uid, gid = _identity(step, msg)
    if step["level"] == "job":
        where = (msg["cwd"], msg["stdout"], msg.get("stderr") or "")
    else:
        where = ("/tmp", "", "")
    create = prefix + ".made" \
        if step["level"] == "job" and msg.get("cwd_create") else ""
    return spawn.as_user_argv(uid, gid, [
        spawn.SHELL, "-c", STEP, "xce-step", *where, step["cmd"],
        spawn.restore_text(env), create])


# What the agent tells the job's wrapper through its environment (the
# site's eexec, the interactive relay's settings): not the steps' to see.
TO_WRAPPER = ("XCE_EEXEC", "XCE_TERM", "XCE_TERM_CMD", "XCE_CWD_CREATE")


def step_env(step, env):
    env = {k: v for k, v in env.items() if k not in TO_WRAPPER}
    if step["level"] == "job":
        return env
    return dict(env, PATH=PATH)


class PrePost:
    """The pre/post stages of JobTable (mixed in: it owns the timers,
    the outbox and the reaping)."""

    def _init_prepost(self):
        self.chains = {}        # key -> Chain running now
        self.step_pids = {}     # pid of a step -> key

    def _begin(self, key, msg, prefix, env, launch):
        """Run the job's pre-exec steps, then launch() the job."""
        if not msg.get("pre"):
            launch()
            return
        self._run(Chain(key, "pre", msg["pre"], msg, prefix, env,
                        then=launch))

    def _after_job(self, key, msg, prefix, code, report=True):
        """The job has ended with *code*: its post-exec steps.  After a
        failed pre-exec only the host-level ones run (their clean-up).
        False when there are none."""
        steps = msg.get("post") or ()
        if not report:
            steps = [s for s in steps if s["level"] == "host"]
        if not steps:
            return False
        env, _ = job_environment(msg, prefix, prefix + ".hosts")
        env["LSB_JOBEXIT_STAT"] = str(exit_stat(code))
        self._run(Chain(key, "post", steps, msg, prefix, env,
                        report=report))
        return True

    def host_steps(self, msg):
        """HOST_PRE_EXEC or HOST_POST_EXEC for a job whose first host is
        another one (protocol 13): run them, then say how they ended
        (``host_steps_done``; the first failing status, else 0).  Asked
        again while they still run (a controller restarted meanwhile):
        they go on, and their end is said once.  Asked again once they
        have ended (the controller restarted, or its link came back,
        before it had their end, which a dropped link loses): their end
        is said again, they do not run twice for one start attempt, even
        when this agent restarted meanwhile: the journal keeps their end
        (xce.agent.journal)."""
        key = (*job_key(msg), "host_" + msg["stage"])
        if key in self.chains:
            return
        ended = self.journal.host_steps
        if ended.get(key) is not None:
            log.info("job %s: %s steps asked again, ended already",
                     key[:3], key[3])
            self._say_host_steps(key, ended[key])
            return
        # Asked for a new attempt: the earlier ones' are past asking.
        for old in [k for k in ended if k[:2] == key[:2] and k[2] < key[2]]:
            self.journal.drop_host_steps(old)
        self.journal.host_steps_record(key)
        self.journal.flush()        # before they run
        start = dict(msg["start"], cwd="/")
        env, _ = job_environment(start, "", "")
        # No job file or host file here; no output file after the job.
        env = {k: v for k, v in env.items() if isinstance(v, str) and
               k not in ("LSB_JOBFILENAME", "LSB_DJOB_HOSTFILE")}
        self._run(Chain(key, "host_" + msg["stage"], msg["steps"], start,
                        None, env))

    def _run(self, chain):
        self.chains[chain.key] = chain
        self._next_step(chain)

    def _next_step(self, chain):
        while chain.steps:
            step = chain.steps.pop(0)
            try:
                env = step_env(step, chain.env)
                chain.pid = self._spawn_step(
                    (*chain.key[:3], chain.stage),
                    step_argv(step, chain.msg, env, chain.prefix), env)
            except OSError as e:
                log.error("job %s: %s step %r not started: %s", chain.key,
                          chain.stage, step["cmd"], e)
                if self._step_failed(chain, 127):
                    return
                continue
            self.step_pids[chain.pid] = chain.key
            return
        self._stage_done(chain)

    def _spawn_step(self, key4, argv, env):
        """Spawn a step, journal its pid and start time, then let it run
        (STEP's first line): a step an agent restarted after kill -9 can
        no longer wait for is always known to it, and killed."""
        rfd, wfd = os.pipe()
        try:
            pid = spawn.spawn(argv, spawn.without_reserved(env), stdin_fd=rfd)
        except OSError:
            os.close(wfd)
            raise
        finally:
            os.close(rfd)
        try:
            self.journal.step_record(key4, pid, procs.start_ticks(pid))
            self.journal.flush()
            os.write(wfd, b"\n")
        except BrokenPipeError:
            pass        # ended already; it is reaped as any step
        finally:
            os.close(wfd)
        return pid

    def kill_leftover_steps(self):
        """After a restart: the steps the agent was running when it
        stopped are no children of this one, their status is lost, and
        they are taken as failed (recover_host_steps; recovery for a job's
        own).  So none may go on working for a job sent back to the queue
        meanwhile: each still running, the same process (its start time),
        is killed with its process group."""
        for key4, (pid, ptime) in list(self.journal.steps.items()):
            if procs.alive(pid, ptime):
                log.warning("job %s: %s step %s left by a restart killed",
                            key4[:3], key4[3], pid)
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass

    def _step_failed(self, chain, code):
        """Note a failed step; True when the stage ends here."""
        if chain.failed is None:
            chain.failed = code
        if chain.stage in ("pre", "host_pre"):
            self._stage_done(chain)
            return True
        return False

    def step_exited(self, pid, code):
        """A step's process has ended (from the reap loop); False when
        *pid* was no step."""
        key = self.step_pids.pop(pid, None)
        if key is None:
            return False
        chain = self.chains.get(key)
        if chain is None or chain.pid != pid:
            return True
        chain.pid = None
        if chain.killed is not None:
            self._stage_done(chain)
        elif code != 0:
            log.info("job %s: %s step exited with %s", key, chain.stage,
                     code)
            if not self._step_failed(chain, code):
                self._next_step(chain)
        else:
            self._next_step(chain)
        return True

    def _stage_done(self, chain):
        self.chains.pop(chain.key, None)
        if chain.stage.startswith("host_"):
            self._host_steps_ended(chain.key, chain.failed or 0)
        elif chain.stage == "pre":
            if chain.killed is not None:
                self._finish(chain.key, 128 + signal.SIGKILL, {},
                             reason=chain.killed or None)
                self.note_made_cwd(chain.msg, chain.prefix)     # cwdttl
            elif chain.failed is None:
                self._then(chain)
            else:
                self._finish(chain.key, chain.failed, {},
                             extra={"pre_failed": chain.failed})
                # Its directory is due once the host steps have ended.
                if not self._after_job(chain.key, chain.msg, chain.prefix,
                                       0, report=False):
                    self.note_made_cwd(chain.msg, chain.prefix)
        else:
            ok = chain.failed is None and chain.killed is None
            # Before the acknowledgement below removes the job's files.
            self.note_made_cwd(chain.msg, chain.prefix)     # cwdttl
            if chain.report:
                # The controller acknowledges it; the job's record goes then.
                self._say_post(chain.key, "POST_DONE" if ok else "POST_ERR")
            elif chain.acked:   # its record was kept for the clean-up
                key = chain.key
                self.acked({"job": key[0], "idx": key[1], "attempt": key[2]})

    def _host_steps_ended(self, key, code):
        """Journalled before it is said (xce.agent.journal).  Once the
        post steps of an attempt have ended, its pre steps' end is past
        asking: the job has left its hosts."""
        self.journal.host_steps_record(key, code)
        if key[3] == "host_post":
            self.journal.drop_host_steps((*key[:3], "host_pre"))
        self.journal.compact()
        self._say_host_steps(key, code)

    def recover_host_steps(self):
        """After a restart: host steps the agent was running when it
        stopped cannot be finished (their status went with it).  They
        failed, as a job's own pre-exec cut short does (the job tries
        again), and that is said when the controller asks again."""
        for key, code in list(self.journal.host_steps.items()):
            if code is None:
                log.warning("job %s: %s steps interrupted by a restart",
                            key[:3], key[3])
                self.journal.host_steps_record(key, 1)

    def _say_host_steps(self, key, code):
        self.outbox.append({"op": "host_steps_done", "job": key[0],
                            "idx": key[1], "attempt": key[2],
                            "stage": key[3][5:], "code": code})

    def _say_post(self, key, state):
        self.journal.append("post", key, post_state=state)
        self.outbox.append({"op": "post", "job": key[0], "idx": key[1],
                            "attempt": key[2], "post_state": state})

    def post_running(self, key):
        """Is the job's post-exec still running?  Then the controller's
        ack of its exit is kept for when it ends."""
        chain = self.chains.get(key)
        if chain is None or chain.stage != "post":
            return False
        chain.acked = True
        return True

    def post_cut_short(self, key, rec):
        """After a restart: a post-exec the agent stopped with cannot be
        finished; it failed (POST_ERR), so that dependencies do not wait
        for ever."""
        if rec["result"].get("post_pending") and "post_state" not in rec:
            log.warning("job %s: post-exec interrupted by a restart", key)
            self._say_post(key, "POST_ERR")

    def _then(self, chain):
        try:
            chain.then()
        except OSError as e:
            log.error("job %s: cannot start: %s", chain.key, e)
            self._finish(chain.key, 127, {}, reason="TERM_UNKNOWN",
                         error=str(e))

    def signal_stage(self, msg, key):
        """A signal for a job still in its pre-exec: a terminating one
        kills the step and ends the job; others wait for the job."""
        chain = self.chains.get(key)
        if chain is None or chain.stage != "pre":
            return False
        sig = msg["signal"]
        if sig == "KILLSEQ" or int(sig) in (signal.SIGKILL, signal.SIGTERM,
                                            signal.SIGINT):
            chain.killed = msg.get("reason") or ""
            chain.steps = []
            if chain.pid is not None:
                try:
                    os.killpg(chain.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        return True
