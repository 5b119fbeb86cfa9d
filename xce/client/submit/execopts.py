"""bsub's execution options: -E and -Ep (job-based pre- and post-execution
commands) and -L (the login shell that initialises the job's environment).

The commands are kept as typed: the agent runs each with /bin/sh -c on the
job's first host, with the job's user, environment and working directory
(bsub(1)).  What the queue adds (PRE_EXEC, HOST_PRE_EXEC, JOB_STARTER...)
is joined to them at dispatch, in one place (xce.controller.execplan).
"""

from xce.client.submit.options import SubmitError
from xce.errors import text


def exec_options(opts):
    """The spec keys of -E, -Ep and -L; SubmitError for a bad value."""
    spec = {}
    for flag, key in (("-E", "pre_exec"), ("-Ep", "post_exec")):
        value = opts.get(key)
        if value is None:
            continue
        if not value.strip():
            raise SubmitError(text("EXEC_COMMAND_EMPTY", flag=flag))
        spec[key] = value
    shell = opts.get("login_shell")
    if shell is not None:
        if not shell.startswith("/") or len(shell.split()) != 1:
            raise SubmitError(text("LOGIN_SHELL_NOT_ABSOLUTE", shell=shell))
        spec["login_shell"] = shell
    return spec
