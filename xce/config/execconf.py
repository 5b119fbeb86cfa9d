"""The queue keys that wrap a job's execution, read and checked.

PRE_EXEC, POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC and JOB_STARTER are
shell command lines, kept exactly as written; PRE_POST_EXEC_USER names the
one user the queue's commands run as (root allowed, as LSF allows it);
LOCAL_MAX_PREEXEC_RETRY (counted by xce.config.ranges) and
LOCAL_MAX_PREEXEC_RETRY_ACTION say how often a failing pre-exec is tried
and what then happens to the job.  The same keys in the parameters
section are the cluster's defaults.
"""

from xce.errors import text

COMMAND_KEYS = ("PRE_EXEC", "POST_EXEC", "HOST_PRE_EXEC", "HOST_POST_EXEC",
                "JOB_STARTER")
RETRY_ACTIONS = ("SUSPEND", "EXIT")


def read_queue(q, props, check):
    """Fill *q*'s execution settings from its *props*."""
    q.exec_commands = {}
    for key in COMMAND_KEYS:
        value = props.get(key)
        if value is None:
            continue
        if not str(value).strip():
            check.error(props, key, text("CONFIG_EXEC_EMPTY", key=key))
            continue
        q.exec_commands[key] = str(value)
    q.prepost_user = _user(props, check)
    q.preexec_retry_action = retry_action(props, check)


def _user(props, check):
    value = props.get("PRE_POST_EXEC_USER")
    if value is None:
        return None
    words = str(value).split()
    if len(words) != 1:
        check.error(props, "PRE_POST_EXEC_USER",
                    text("CONFIG_EXEC_USER", value=value))
        return None
    return words[0]


def retry_action(node, check):
    """LOCAL_MAX_PREEXEC_RETRY_ACTION: SUSPEND or EXIT, None when unset."""
    value = node.get("LOCAL_MAX_PREEXEC_RETRY_ACTION")
    if value is None or str(value).strip() == "":
        return None
    word = str(value).strip().upper()
    if word not in RETRY_ACTIONS:
        check.error(node, "LOCAL_MAX_PREEXEC_RETRY_ACTION",
                    text("CONFIG_RETRY_ACTION", value=value))
        return None
    return word


def check_params(params_node, check):
    """The parameters section's LOCAL_MAX_PREEXEC_RETRY_ACTION."""
    if params_node:
        retry_action(params_node, check)
