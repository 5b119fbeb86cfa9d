"""The command line that starts a job: its wrapper (xce.agent.spawn) with
the job's command under JOB_STARTER/-L, the interactive relay (bsub -I),
the site's eexec, and in front of it the job's process limits, its queue's
NICE and GNU time measuring its peak."""

from xce.agent import interactive, rlimits, spawn
from xce.agent.prepost import wrapped_command


def wrapper_argv(msg, prefix, env, stdout, fallback, exact):
    """The wrapper's argv for the job of *msg*; *env* (the job's) gets the
    site's eexec, or loses one it names itself.  The wrapper runs with
    spawn.without_reserved(env); its argv gives back the rest."""
    # The site's eexec (LSF_SERVERDIR/eexec), run by the wrapper as the
    # job's user before the job; never a path from the job's own env.
    env.pop("XCE_EEXEC", None)
    if isinstance(msg.get("eexec"), str) and msg["eexec"].startswith("/"):
        env["XCE_EEXEC"] = msg["eexec"]
    # A -cwd with a dynamic pattern is created by the wrapper, as LSF
    # creates it; never on the job's own say.
    env.pop("XCE_CWD_CREATE", None)
    if msg.get("cwd_create"):
        env["XCE_CWD_CREATE"] = "1"
    # JOB_STARTER and -L make a command line of a script job too.
    wrapped = wrapped_command(msg, prefix, env)
    if interactive.wanted(msg):     # bsub -I/-Ip/-Is: under the relay
        wrapped = interactive.relay_command(msg, env, prefix, wrapped)
    return spawn.wrapper_argv(msg["uid"], msg["gid"], prefix, msg["cwd"],
                              msg.get("stdin"), stdout,
                              msg.get("stdout_mode", "a"),
                              msg.get("stderr"),
                              msg.get("stderr_mode", "a"),
                              wrapped or ("" if msg.get("jobfile") else
                                          msg["command"]),
                              () if wrapped else msg.get("args") or (),
                              exact_peak=exact, fallback=fallback,
                              restore=spawn.restore_text(env))


def launch_argv(msg, argv, peak_path=None):
    """*argv* under the job's per-process limits (from its first
    instruction, xce.agent.rlimits) and its queue's NICE, and measured by
    GNU time into *peak_path* when one is given."""
    argv = rlimits.prlimit_argv(msg.get("rlimits")) + argv
    argv = spawn.nice_argv(msg.get("nice")) + argv
    if peak_path:
        argv = spawn.measured_argv(argv, peak_path)
    return argv
