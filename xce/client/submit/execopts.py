"""bsub's execution options: -E and -Ep (job-based pre- and post-execution
commands), -L (the login shell that initialises the job's environment),
-Q (requeue exit values) and -u/-B/-N (mail); bmod checks the same values
with the same functions.

The commands are kept as typed: the agent runs each with /bin/sh -c on the
job's first host, with the job's user, environment and working directory
(bsub(1)).  What the queue adds (PRE_EXEC, HOST_PRE_EXEC, JOB_STARTER...)
is joined to them at dispatch, in one place (xce.controller.execplan).
"""

from xce.client.submit.options import SubmitError
from xce.errbase import text


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


def requeue_and_mail(opts):
    """The spec keys of -Q (checked here, kept as written) and -u/-B/-N;
    SubmitError for a bad value."""
    spec = {}
    if opts.get("requeue_exit") is not None:
        from xce.model import requeue
        try:
            found = requeue.parse(opts["requeue_exit"])
        except requeue.BadRequeueValues:
            found = None
        if not found:
            raise SubmitError(text("BAD_REQUEUE", value=opts["requeue_exit"]))
        spec["requeue_exit"] = requeue.normalised(found)
    if opts.get("mail_user") is not None:
        user = opts["mail_user"].strip()
        if not user or any(c.isspace() or c in "<>,;\"" for c in user):
            raise SubmitError(text("BAD_MAIL_USER", value=opts["mail_user"]))
        spec["mail_user"] = user
    for key in ("mail_begin", "mail_notify"):
        if opts.get(key):
            spec[key] = True
    return spec
