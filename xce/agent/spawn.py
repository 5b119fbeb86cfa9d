"""Start a job: a small shell wrapper, spawned with posix_spawn in its own session.

The wrapper runs as the job's owner (setpriv when the agent is root), so the
job's cwd and its -i/-o/-e files are opened with the owner's rights, never
root's.  It records the job's exit status beside the job's files, which lets a
restarted agent learn how a job it no longer parents has ended.
"""

import os
import re
import select
import shlex
import signal
import sys
import time

SETPRIV = "/usr/bin/setpriv"
SHELL = "/bin/sh"
TIME = "/usr/bin/time"          # GNU time
SETSID = "/usr/bin/setsid"

# The wrapper's own shell variables and functions are all named xce_...:
# names starting xce_ are reserved for it (xce-agent(8)).  A variable
# the shell inherits is exported, and assigning it changes what a child
# sees, so the agent takes the job's own xce_ variables out of the
# wrapper's environment (without_reserved) and gives them back as shell
# text (restore_text) that the wrapper runs in the job's process just
# before its command; the wrapper's variables, fresh and not exported,
# reach neither the job nor its eexec.  cd sets and exports OLDPWD: the
# job's own (or none) is put back.  Without such text (the usual
# case) the command runs as a plain one, which dash starts with vfork: a
# subshell's fork costs about 0.4 ms of CPU more.
#
# A held start's wrapper (xce.agent.held) is spawned before its job may
# run, with its stdin a pipe from the agent: it waits there for the
# agent's line (the controller's go) and ends, having done nothing, if
# the pipe closes without one.  Other wrappers read /dev/null's end at
# once and go on.
#
# Positional parameters: 1 the job's file prefix (in its user's directory), 2 cwd, 3 stdin, 4 stdout, 5 stdout mode,
# 6 stderr ("" = merged into stdout), 7 stderr mode, 8 the command line of
# a command-line job ("" for a script job: run $xce_d.job), 9 the fallback
# output file, 10 the restore text, then the job's own arguments.
# "command exec" keeps the
# shell alive when a redirection fails, so the failure is reported.  A
# directory given as -o/-e gets <jobid>.out/err.
#
# An -o/-e file the user cannot open is LSF's "system has trouble writing
# to it": LSF then mails the output, and xce's mail is the fallback file
# (where output goes without -o).  The shell's complaint, then the name,
# go to $xce_d.oerr/$xce_d.eerr for the agent's job report (missing or
# empty: opened).  The file is opened on fd 3 first (xce_fd3): a failed
# open leaves stdout/stderr as they were.  The first try is quiet and
# only a failed one is made again for its complaint, so that a job whose
# files open creates no note file on its way to its first instruction.
# bsub -outdir's directory ($LSB_OUTDIR) is made first, with the user's
# rights and mode 700, as LSF makes it; so is a -cwd with a dynamic
# pattern (the agent sets XCE_CWD_CREATE; $xce_d.made says the wrapper
# made its last directory, for JOB_CWD_TTL).  A working directory the job
# cannot enter is LSF's: the job runs in /tmp ($xce_d.cwd says so), or,
# with LSB_EXIT_IF_CWD_NOTEXIST=Y in its environment, exits with 2 and
# $xce_d.failed (TERM_CWD_NOTEXIST).  bsub -f files are copied in
# before the job and out after it by $xce_d.xfer (agent.staging).  An
# eexec's LSB_EEXEC_ENVFILE line naming an xce_ variable joins the
# restore text, so that it too reaches the job and leaves the wrapper's
# variables alone.
WRAPPER = r"""
read -r xce_g || [ -c /dev/stdin ] || exit 126
xce_d=$1
echo $$ >"$xce_d.pid"
[ -n "$LSB_OUTDIR" ] && mkdir -p -m 700 "$LSB_OUTDIR" 2>/dev/null
xce_op=${OLDPWD-}; xce_os=${OLDPWD+1}
[ -n "${XCE_CWD_CREATE-}" ] && [ ! -d "$2" ] && mkdir -p -m 700 "$2" 2>/dev/null && : >"$xce_d.made"
unset XCE_CWD_CREATE
if ! cd "$2" 2>/dev/null; then
  case ${LSB_EXIT_IF_CWD_NOTEXIST-} in
  [Yy]) echo cwd >"$xce_d.failed"; echo 2 >"$xce_d.status"; exit 2;; esac
  if cd /tmp; then echo /tmp >"$xce_d.cwd"
  else echo cwd >"$xce_d.failed"; echo 2 >"$xce_d.status"; exit 2; fi
fi
[ -n "$xce_os" ] && OLDPWD=$xce_op || unset OLDPWD
command exec <"$3" 2>/dev/null || exec </dev/null
xce_o=$4; [ -d "$xce_o" ] && xce_o="$xce_o/$LSB_JOBID.out"
xce_e=$6; [ -n "$xce_e" ] && [ -d "$xce_e" ] && xce_e="$xce_e/$LSB_JOBID.err"
xce_f=$9
xce_fd3() {
  if [ "$2" = w ]; then command exec 3>"$1"; else command exec 3>>"$1"; fi
}
if xce_fd3 "$xce_o" "$5" 2>/dev/null || xce_fd3 "$xce_o" "$5" 2>"$xce_d.oerr"
then exec >&3 3>&-
else printf '%s\n' "$xce_o" >>"$xce_d.oerr"; command exec >>"$xce_f" || exec >/dev/null
fi
if [ -z "$xce_e" ]; then exec 2>&1
elif xce_fd3 "$xce_e" "$7" 2>/dev/null || xce_fd3 "$xce_e" "$7" 2>"$xce_d.eerr"
then exec 2>&3 3>&-
else printf '%s\n' "$xce_e" >>"$xce_d.eerr"; command exec 2>>"$xce_f" || exec 2>/dev/null
fi
unset -f xce_fd3
xce_c=$8
shift 9
xce_keep=$1
shift
trap : INT TERM HUP USR1 USR2 QUIT XCPU
if [ -f "$xce_d.xfer" ]; then
  . "$xce_d.xfer"
  if ! xce_in; then echo 1 >"$xce_d.status"; exit 1; fi
fi
if [ -n "$XCE_EEXEC" ] && [ -x "$XCE_EEXEC" ]; then
  xce_x=$XCE_EEXEC; unset XCE_EEXEC; export LSB_EEXEC_ENVFILE="$xce_d.eexecenv"
  rm -f "$LSB_EEXEC_ENVFILE"
  (set -- "$xce_x"; eval "$xce_keep"; LS_EXEC_T=START exec "$1") </dev/null
  xce_rc=$?
  if [ $xce_rc != 0 ]; then echo $xce_rc >"$xce_d.status"; exit $xce_rc; fi
  if [ -f "$LSB_EEXEC_ENVFILE" ]; then
    while IFS= read -r xce_l; do
      [ -z "$xce_l" ] && continue
      case ${xce_l%%=*} in ''|[0-9]*|*[!A-Za-z0-9_]*) ;; *) case $xce_l in
        xce_*=*) xce_keep="$xce_keep
export $(printf '%s\n' "$xce_l" | sed "s/'/'\\\\''/g; s/=/='/; s/\$/'/")"
          continue;;
        *=*) export "$xce_l"; continue;; esac;; esac
      printf 'eexec: LSB_EEXEC_ENVFILE line "%s" is not NAME=value; not set\n' "$xce_l" >&2
    done <"$LSB_EEXEC_ENVFILE"
    rm -f "$LSB_EEXEC_ENVFILE"
  fi
  unset LSB_EEXEC_ENVFILE
fi
unset XCE_EEXEC
if [ -n "$xce_c" ]; then set -- /bin/sh -c "$xce_c"; else set -- "$xce_d.job" "$@"; fi
if [ -z "$xce_keep" ]; then "$@"; else (eval "$xce_keep"; exec "$@"); fi
xce_rc=$?
[ -f "$xce_d.xfer" ] && xce_out
echo $xce_rc >"$xce_d.status"
@PEAK@
exit $xce_rc
"""

# The job's peak memory.  The agent cannot take it from the wrapper's
# ru_maxrss: a child spawned vfork-style starts with the agent's own peak
# (see procs.own_peak_kb), so a job smaller than the agent that ends
# between two /proc samples would have no figure.  Where GNU time is
# installed it runs above the wrapper (measured_argv): forked by a small
# process, the wrapper's rusage is the job's own, and time writes it to a
# file of the agent's, for about a millisecond per job.  Elsewhere, at its
# end the wrapper becomes a tiny Python that writes its children's peak
# (RUSAGE_CHILDREN survives exec) to $xce_d.peak, for about 8 ms per job.
_PEAK_CODE = ("import resource,sys\n"
              "try:\n"
              " open(sys.argv[1],'w').write('%d\\n'%resource.getrusage("
              "resource.RUSAGE_CHILDREN).ru_maxrss)\n"
              "except Exception:\n"
              " pass\n"
              "sys.exit(int(sys.argv[2]))")


def _pythons():
    """Interpreters to try, as the job's user: the system's, then the
    agent's own resolved out of a virtualenv."""
    found = []
    for path in ("/usr/bin/python3", os.path.realpath(sys.executable)):
        if path not in found and os.access(path, os.X_OK):
            found.append(path)
    return found


MEASURED = os.access(TIME, os.X_OK) and os.access(SETSID, os.X_OK)


NICE = "/usr/bin/nice"


def nice_argv(value):
    """The words that run a job at the queue's NICE value ([] for 0).
    nice(1) goes first, before the privilege drop, so that root's agent
    can also give a negative value, as LSF's sbatchd does."""
    return [NICE, "-n", str(int(value))] if value else []


def measured_argv(argv, peak_path):
    """*argv* under GNU time, which writes its peak RSS (KB) to
    *peak_path* and exits with its status.  The job gets a session of its
    own (setsid), so that signals to the job's process group leave time
    alone; the wrapper names that session's leader in its .pid file."""
    return [TIME, "-q", "-f", "%M", "-o", peak_path, SETSID, *argv]


def _with_peak(script):
    code = shlex.quote(_PEAK_CODE)
    tries = "".join(
        f'[ -x {shlex.quote(py)} ] && exec {shlex.quote(py)} -S -E -c '
        f'{code} "$xce_d.peak" "$xce_rc" 2>/dev/null\n' for py in _pythons())
    return script.replace("@PEAK@\n", "" if MEASURED else tries)


# The exact peak costs two more programs per job (time and setsid: about
# 2.4 ms of CPU, more than the wrapper itself), which halves what a
# 2-slot host can turn over in short jobs; LSF itself shows a short job's
# memory only if a sample caught it.  So it is asked for per job (the
# controller's XCE_EXACT_JOB_PEAK parameter); other jobs get the plain
# wrapper, their /proc samples, and the wrapper's ru_maxrss where it is
# above the agent's own peak.
WRAPPER_EXACT_PEAK = _with_peak(WRAPPER)
WRAPPER = WRAPPER.replace("@PEAK@\n", "")

# Signals a job must see with their default action, whatever the agent did.
DEFAULT_SIGNALS = [signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT,
                   signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP,
                   signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU,
                   signal.SIGCHLD, signal.SIGUSR1, signal.SIGUSR2]


def as_user_argv(uid, gid, argv):
    """Prefix *argv* with a privilege drop when the agent is root."""
    if os.geteuid() == 0 and uid != 0:
        return [SETPRIV, f"--reuid={uid}", f"--regid={gid}", "--init-groups",
                "--", *argv]
    return list(argv)


def wrapper_argv(uid, gid, jobdir, cwd, stdin, stdout, stdout_mode,
                 stderr, stderr_mode, command="", args=(), exact_peak=False,
                 fallback="/dev/null", restore=""):
    """*fallback*: the file for output whose -o/-e file cannot be opened;
    *restore*: restore_text of the job's environment."""
    script = WRAPPER_EXACT_PEAK if exact_peak else WRAPPER
    return as_user_argv(uid, gid, [
        SHELL, "-c", script, "xce-job", jobdir, cwd, stdin or "/dev/null",
        stdout, stdout_mode, stderr or "", stderr_mode, command, fallback,
        restore, *args])


# The names the wrappers (the job's, its steps', a blaunch task's) keep
# for their own variables: xce_ and letters, digits or _ (a name the shell
# cannot assign is no concern of theirs).
_RESERVED = re.compile(r"xce_[A-Za-z0-9_]*\Z", re.ASCII)


def restore_text(env):
    """Shell text that exports again the variables of *env* whose names
    are reserved for the wrappers ("" when there are none, as is usual)."""
    return "".join(f"export {name}={shlex.quote(value)}\n"
                   for name, value in sorted(env.items())
                   if _RESERVED.match(name))


def without_reserved(env):
    """*env* without those variables: the environment a wrapper runs
    with, so that its own variables are not exported."""
    return {name: value for name, value in env.items()
            if not _RESERVED.match(name)}


def spawn(argv, env, stdin_path="/dev/null", stdin_fd=None):
    """posix_spawn in a new session with default signal dispositions;
    stdin from *stdin_fd* when given, else opened from *stdin_path*."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0)
               if stdin_fd is None else (os.POSIX_SPAWN_DUP2, stdin_fd, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions,
                          setsid=True, setsigmask=[],
                          setsigdef=DEFAULT_SIGNALS)


def append_as_user(uid, gid, src_path, dest_path, jobid):
    """Append *src_path* (the agent's) to *dest_path* with the user's rights."""
    script = ('xce_f=$1; [ -d "$xce_f" ] && xce_f="$xce_f/$2.out"; '
              'exec cat >>"$xce_f"')
    argv = as_user_argv(uid, gid, [SHELL, "-c", script, "xce-append",
                                   dest_path, jobid])
    return spawn(argv, {"PATH": "/usr/bin:/bin"}, stdin_path=src_path)


def capture(argv, env, timeout):
    """The standard output of a short command the agent needs an answer
    from (nvidia-smi, a container runtime's listing), or None if it
    failed or did not end within *timeout* seconds (it is killed)."""
    rd, wr = os.pipe()
    try:
        with open(os.devnull, "rb") as null:
            pid = os.posix_spawn(argv[0], argv, env, file_actions=[
                (os.POSIX_SPAWN_DUP2, null.fileno(), 0),
                (os.POSIX_SPAWN_DUP2, wr, 1),
                (os.POSIX_SPAWN_DUP2, null.fileno(), 2)])
    finally:
        os.close(wr)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([rd], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                break
            data = os.read(rd, 65536)
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(rd)
        status = os.waitpid(pid, 0)[1]
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    return b"".join(chunks).decode(errors="replace")
