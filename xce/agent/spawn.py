"""Start a job: a small shell wrapper, spawned with posix_spawn in its own session.

The wrapper runs as the job's owner (setpriv when the agent is root), so the
job's cwd and its -i/-o/-e files are opened with the owner's rights, never
root's.  It records the job's exit status beside the job's files, which lets a
restarted agent learn how a job it no longer parents has ended.
"""

import os
import select
import shlex
import signal
import sys
import time

SETPRIV = "/usr/bin/setpriv"
SHELL = "/bin/sh"
TIME = "/usr/bin/time"          # GNU time
SETSID = "/usr/bin/setsid"

# Positional parameters: 1 the job's file prefix (in its user's directory), 2 cwd, 3 stdin, 4 stdout, 5 stdout mode,
# 6 stderr ("" = merged into stdout), 7 stderr mode, 8 the command line of
# a command-line job ("" for a script job: run $d.job), 9 the fallback
# output file, then the job's own arguments.  "command exec" keeps the
# shell alive when a redirection fails, so the failure is reported.  A
# directory given as -o/-e gets <jobid>.out/err.
#
# An -o/-e file the user cannot open is LSF's "system has trouble writing
# to it": LSF then mails the output, and xce's mail is the fallback file
# (where output goes without -o).  The shell's complaint, then the name,
# go to $d.oerr/$d.eerr for the agent's job report (missing or empty:
# opened).  The file is opened on fd 3 first (xce_fd3): a failed open
# leaves stdout/stderr as they were.  The first try is quiet and only a
# failed one is made again for its complaint, so that a job whose files
# open creates no note file on its way to its first instruction.  bsub
# -outdir's directory ($LSB_OUTDIR) is made first, with the user's rights
# and mode 700, as LSF makes it.  bsub -f files are copied in before the
# job and out after it by $d.xfer (agent.staging).
WRAPPER = r'''
d=$1
echo $$ >"$d.pid"
[ -n "$LSB_OUTDIR" ] && mkdir -p -m 700 "$LSB_OUTDIR" 2>/dev/null
if ! cd "$2" 2>/dev/null; then echo cwd >"$d.failed"; exit 1; fi
command exec <"$3" 2>/dev/null || exec </dev/null
o=$4; [ -d "$o" ] && o="$o/$LSB_JOBID.out"
e=$6; [ -n "$e" ] && [ -d "$e" ] && e="$e/$LSB_JOBID.err"
f=$9
xce_fd3() {
  if [ "$2" = w ]; then command exec 3>"$1"; else command exec 3>>"$1"; fi
}
if xce_fd3 "$o" "$5" 2>/dev/null || xce_fd3 "$o" "$5" 2>"$d.oerr"
then exec >&3 3>&-
else printf '%s\n' "$o" >>"$d.oerr"; command exec >>"$f" || exec >/dev/null
fi
if [ -z "$e" ]; then exec 2>&1
elif xce_fd3 "$e" "$7" 2>/dev/null || xce_fd3 "$e" "$7" 2>"$d.eerr"
then exec 2>&3 3>&-
else printf '%s\n' "$e" >>"$d.eerr"; command exec 2>>"$f" || exec 2>/dev/null
fi
unset -f xce_fd3
c=$8
shift 9
trap : INT TERM HUP USR1 USR2 QUIT XCPU
if [ -f "$d.xfer" ]; then
  . "$d.xfer"
  if ! xce_in; then echo 1 >"$d.status"; exit 1; fi
fi
if [ -n "$XCE_EEXEC" ] && [ -x "$XCE_EEXEC" ]; then
  x=$XCE_EEXEC; unset XCE_EEXEC; export LSB_EEXEC_ENVFILE="$d.eexecenv"
  rm -f "$LSB_EEXEC_ENVFILE"
  LS_EXEC_T=START "$x" </dev/null; rc=$?
  if [ $rc != 0 ]; then echo $rc >"$d.status"; exit $rc; fi
  if [ -f "$LSB_EEXEC_ENVFILE" ]; then
    while IFS= read -r l; do
      [ -z "$l" ] && continue
      case ${l%%=*} in ''|[0-9]*|*[!A-Za-z0-9_]*) ;; *) case $l in *=*) export "$l"; continue;; esac;; esac
      printf 'eexec: LSB_EEXEC_ENVFILE line "%s" is not NAME=value; not set\n' "$l" >&2
    done <"$LSB_EEXEC_ENVFILE"
    rm -f "$LSB_EEXEC_ENVFILE"
  fi
  unset LSB_EEXEC_ENVFILE
fi
unset XCE_EEXEC
if [ -n "$c" ]; then /bin/sh -c "$c"; else "$d.job" "$@"; fi
rc=$?
[ -f "$d.xfer" ] && xce_out
echo $rc >"$d.status"
@PEAK@
exit $rc
'''

# The job's peak memory.  The agent cannot take it from the wrapper's
# ru_maxrss: a child spawned vfork-style starts with the agent's own peak
# (see procs.own_peak_kb), so a job smaller than the agent that ends
# between two /proc samples would have no figure.  Where GNU time is
# installed it runs above the wrapper (measured_argv): forked by a small
# process, the wrapper's rusage is the job's own, and time writes it to a
# file of the agent's, for about a millisecond per job.  Elsewhere, at its
# end the wrapper becomes a tiny Python that writes its children's peak
# (RUSAGE_CHILDREN survives exec) to $d.peak, for about 8 ms per job.
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
        f'{code} "$d.peak" "$rc" 2>/dev/null\n' for py in _pythons())
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
                 fallback="/dev/null"):
    """*fallback*: the file for output whose -o/-e file cannot be opened."""
    script = WRAPPER_EXACT_PEAK if exact_peak else WRAPPER
    return as_user_argv(uid, gid, [
        SHELL, "-c", script, "xce-job", jobdir, cwd, stdin or "/dev/null",
        stdout, stdout_mode, stderr or "", stderr_mode, command, fallback,
        *args])


def spawn(argv, env, stdin_path="/dev/null"):
    """posix_spawn in a new session with default signal dispositions."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions,
                          setsid=True, setsigmask=[],
                          setsigdef=DEFAULT_SIGNALS)


def append_as_user(uid, gid, src_path, dest_path, jobid):
    """Append *src_path* (the agent's) to *dest_path* with the user's rights."""
    script = 'f=$1; [ -d "$f" ] && f="$f/$2.out"; exec cat >>"$f"'
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
