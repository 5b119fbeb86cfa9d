"""One catalogue of errors, each with LSF's wording and exit code.

A text may name fields (``{spool}``) that ``text`` fills in; a command
raises ``XceError(text(KEY, ...))`` rather than writing the words inline
(tests/unit/test_message_catalogue.py checks it).

Commands print ``str(err)`` on stderr at one boundary and exit with
``err.exit_code``.  The controller sends the catalogue key back in replies, so
the text a user sees comes from this table whichever side found the problem.
The configuration's messages (keys CONFIG_*) are in xce.confmessages, which
``text`` loads when one is wanted.
"""

# The error classes and text() are xce.errbase's (the commands' way
# loads them without this catalogue); they are this module's too.
from xce.errbase import EXIT_FAILURE, UsageError, XceError, about, text

__all__ = ["MESSAGES", "EXIT_FAILURE", "UsageError", "XceError", "about",
           "text"]

# key -> LSF text (lsb.err wording)
MESSAGES = {
    "NO_JOB": "No matching job found",
    "JOB_FINISHED": "Job has already finished",
    "NOT_STARTED": "Job has not started yet",
    # bresume (and bkill -s CONT) of a job that is pending or running.
    "NOT_SUSPENDED": "Job is not suspended",
    "BAD_QUEUE": "No such queue",
    "QUEUE_CLOSED": "Queue has been closed",
    "QUEUE_USER": "User cannot use the queue",
    "BAD_RESREQ": "Bad resource requirement syntax",
    "BAD_RESOURCE_NAME": "{name}: Bad resource name",
    "BAD_RESOURCE_NAME_SHARED": "Bad resource name",
    # rusage[] of a resource nothing offers, or more than there is.
    "RUSAGE_NOWHERE": "{name}: no host or shared resource location offers "
    "this resource, so rusage[] of it can never be satisfied",
    "RUSAGE_NEVER": "{name}: rusage[] asks for {amount}, more than the "
    "{most} the cluster has; it can never be satisfied",
    "BAD_HOST": "Bad host name, host group name or cluster name",
    "QUEUE_HOST": "Host or host group is not used by the queue",
    "TOO_MANY_PROCS": "Too many processors requested",
    "TOO_FEW_PROCS": "Too few processors requested",
    "HOST_LIMIT": "The number of hosts requested exceeds the queue's "
                  "per-job host limit",
    "BAD_JOB_NAME": "Bad job name",
    # -cwd, LSB_JOB_CWD: the working directory (xce.model.jobcwd)
    "CWD_EMPTY": "-cwd: the working directory is empty",
    "CWD_NUL": "-cwd: the working directory contains a NUL character",
    "CWD_TOO_LONG": "-cwd: the working directory is over {limit} characters",
    "CWD_NOT_ABSOLUTE": "-cwd: submission directory <{subcwd}> not absolute",
    # the same, of DEFAULT_JOB_CWD or a profile's JOB_CWD (controller.jobdir)
    "CWD_CONF_TOO_LONG": "{key}: the working directory is over {limit} "
                         "characters under the submission directory",
    "BAD_ARGUMENT": "Bad argument",
    "BAD_TIME": "Bad time specification",
    "BAD_LIMIT": "Bad limit specification",
    "BAD_SIGNAL": "Signal not supported",
    "BAD_JOBID": "Bad jobId",
    "NO_JOBID": "No job ID available",
    "PERMISSION": "User permission denied",
    "UNKNOWN_USER": "Unknown user",
    "NO_COMMAND": "No command is specified",
    "EMPTY_JOB": "Empty job",
    "ARRAY_INDEX": "Job array index error",
    "ARRAY_TOO_LARGE": "Job array index too large",
    "HARD_LIMIT": "Cannot exceed queue's hard limit(s)",
    "QUEUE_EXCLUSIVE": "Queue does not accept EXCLUSIVE jobs",
    "QUEUE_ONLY_INTERACTIVE": "Queue only accepts interactive jobs",
    "QUEUE_NO_INTERACTIVE": "Queue does not accept interactive jobs",
    "INTERACTIVE_ARRAY": "Interactive job not supported for job arrays",
    "INTERACTIVE_PACK": "An interactive job (-I, -Ip, -Is) cannot be "
                        "submitted with -pack",
    "PEND_THRESHOLD": "Pending job threshold reached",
    "APP_NULL": "Application profile does not exist",
    "SLA_NULL": "Service class does not exist",
    "BAD_UGROUP": "Bad user group name",
    "UGROUP_MEMBER": "User not in the specified user group",
    # bsub -G "group ~group": LSF refuses the two forms together.
    "UGROUP_MIXED": "A job cannot be both associated with a user group and "
                    "excluded from user groups",
    # bsub -G "~group ...": every account of the user in the queue's
    # share tree goes through an excluded group.
    "UGROUP_EXCLUDED_ALL": "Queue <{queue}>: the excluded user groups leave "
                           "the job no fairshare account",
    "BAD_JGROUP": "Bad job group name",
    "BAD_REQUEST": "Bad request",
    "INTERNAL": "Internal error in the batch system",
    "SBD_UNREACH": "Unable to reach slave batch server",
}

# The spool, as commands see it.
MESSAGES.update({
    "REQUEST_INVALID": "Bad request: {detail}",
    "REQUEST_TOO_BIG": "Bad request: {size} bytes is more than the {limit} "
                       "a request may have",
    "SPOOL_FULL": "No space left in the spool: {spool}: the request cannot "
                  "be written",
    "SPOOL_WRITE": "Cannot write a request into the spool: {reason}",
    "SPOOL_NEVER_RUN": "The xce controller has never run on the spool "
                       "{spool}: {hint}.",
    "SPOOL_UNTRUSTED": "The spool {spool} cannot carry trusted replies: its "
                       "replies/ directory is missing or writable by other "
                       "users; restart the controller to set its modes",
    "REPLY_UNREADABLE": "Request <{request}>: the controller's reply cannot "
                        "be read",
    "BAD_TIMEOUT": "{setting}={value}: must be a number of seconds above 0, "
                   "at most 86400",
    "SPOOLED": "Request <{request}> is accepted and spooled: {why}; it takes "
               "effect when the controller processes it. Do not submit it "
               "again.",
    "NOT_ANSWERED": "the controller has not answered within {timeout:g} "
                    "seconds",
    "NOT_RUNNING": "the controller is not running",
    "INTERRUPTED": "the command was interrupted",
})

# UNIX sockets whose path is longer than a socket address holds
# (xce.unixsock): one line, in the daemon's log, bhosts -l and xce start.
MESSAGES.update({
    "SOCKET_PATH": "Cannot use the UNIX socket {path}: its path is {length} "
                   "bytes, more than the {limit} a socket address holds, "
                   "and {reason}",
    "SOCKET_PATH_NAME": "its last name alone is too long",
    "SOCKET_PATH_LINK": "its directory is a symbolic link (name the real "
                        "directory)",
    "SOCKET_PATH_NO_PROC": "/proc/self/fd cannot reach its directory (is "
                           "/proc mounted?)",
    # The controller's reason for a local agent launched again (bhosts -l).
    "AGENT_DIED": "the agent ended without listening on its socket: {why}",
    "SEE_LOG": "see {log}",
})

# Commands' own texts (LSF's where LSF has one).
MESSAGES.update({
    "REQUEST_FAILED": "Request failed",
    "JOB_ERROR": "Job <{job}>: {error}",
    "JOB_NOT_FOUND": "Job <{job}> is not found",
    "JOB_NO_MESSAGE": "Job <{job}>: No message available",
    "NO_ATTACHMENT": "Message <{message}> has no attachment",
    "ATTACHMENT_UNREADABLE": "Message <{message}>: attachment: {reason}",
    "COMMAND_FILE": "{command}: {path}: {reason}",
    "BLAUNCH_FAILED": "blaunch: {error}",
    "BLAUNCH_REQUEST_FAILED": "request failed",
    "PEEK_ARRAY": "bpeek: Cannot operate on job array",
    "PEEK_FINISHED": "Job <{job}> : Already finished.",
    "PEEK_INTERACTIVE": "Job <{job}> : Cannot bpeek an interactive job.",
    "PEEK_NOT_STARTED": "Job <{job}> : Not yet started.",
    "NO_APPS": "No application profiles found.",
    "NO_SUCH_APP": "No such application",
    "UNKNOWN_HOST_NAME": "unknown host name.",
    "NO_LIMIT_USAGE": "No resource usage found.",
    "NO_GROUPS": "No {kind} group defined in the system",
    "NO_SUCH_GROUP": "No such user/host group",
    "ILLEGAL_SIGNAL": "Illegal signal value",
    "BAD_DELIMITER": "delimiter={value}: the delimiter must be a single "
                     "character.",
    "NO_FORMAT_FIELDS": "The format string has no field names.",
    "NO_MODIFICATION": "No modification is specified",
    "BAD_RUNLIMIT": "Bad RUNLIMIT specification",
    "RUNLIMIT_TOO_BIG": "RUNLIMIT value is too big",
    "RUNLIMIT_NOT_POSITIVE": "RUNLIMIT value should be a positive integer",
    "MEMLIMIT_NOT_POSITIVE": "MEMLIMIT value should be a positive integer",
    "BAD_N": "Bad argument for option -n",
    "PROCS_NOT_POSITIVE": "The number of processors must be a positive "
                          "integer",
    "BAD_PRIORITY": "Illegal job priority",
    "PACK_OPTION": "Option not allowed in a pack file",
})

# The controller's refusals, sent back in replies.
MESSAGES.update({
    # bsub/bmod -sp: MAX_USER_PRIORITY unset, or -sp above it (LSBE_*).
    "NO_JOB_PRIORITY": "Job priority control undefined",
    "BAD_USER_PRIORITY": "Bad user priority",
    "BAD_ADMIN_OP": "unknown badmin operation",
    "BAD_REQUEST_KIND": "unknown request kind",
    "JOB_NOT_RUNNING": "Job is not running",
    "JOB_NOT_PENDING": "Job is not pending",
    "NO_LAUNCH_HOST": "No host to launch tasks on",
    "NO_LAUNCH_COMMAND": "No command to launch",
    "HOST_NOT_ALLOCATED": "Host <{host}> is not allocated to job <{job}>",
    "SSH_NO_KNOWN_HOSTS": "no known_hosts file {path} to check the host key "
                          "of {host} against: add it (ssh-keyscan {host} "
                          ">> {path}) or name another in the host's "
                          "known_hosts",
    "ATTACHMENT_TOO_LARGE": "Attached file is too large",
    "ARRAY_QUEUE_CHANGE": "Options -q and -O cannot be applied on job array",
    "NOT_ARRAY": "Not a job array",
})

# The commands' command lines and the daemons' start-up.
MESSAGES.update({
    "INVALID_COMMAND": "Invalid command <{command}>",
    "NO_LIM": "{command}: xce has no LIM or RES daemon; use badmin "
              "reconfig, or xce-agent on the host",
    "BHIST_LOGFILES": "bhist: The number of event log files must be a "
                      "positive integer.",
    "BHIST_LOGRANGE": "bhist: {range}: The range of event log files must "
                      "be min_logfile,max_logfile with 1 <= min <= max.",
    "BHIST_NO_LOG": "bhist: {path}: {reason}",
    "BHIST_LOG_STDIN": "bhist: -f -: reading the event log from standard "
                       "input is not supported by xce",
    "BHIST_T_NEEDS_T": "bhist: -T must be used with -t",
    "BHIST_NO_EVENT": "No matching job/event found",
    "NO_ELIGIBLE_HOST": "Not enough host(s) currently eligible",
    "JSON_WITHOUT_FORMAT": "bjobs: -json must be used with -o",
    "BLAUNCH_USAGE": "a host and a command must be specified",
    "BLAUNCH_INTERRUPTED": "blaunch: interrupted",
    "JOBID_NEEDED": "Job ID must be specified",
    "MOVE_JOBID_NEEDED": "Job ID must be specified.",
    "BAD_POSITION": "{position}: Position value must be a positive integer.",
    "PEEK_SELECTORS": "Command syntax error: more than one of -m , -q, -J "
                      "or jobId are specified.",
    "POST_NOTHING": "-d or -a must be specified",
    "STATUS_SELECTOR": "Specify either a job ID or -J job_name",
    "SCRIPT_NO_COMMAND": "No command is specified in the script file",
    "PACK_ALONE": "-pack: No other options or command may be given",
    "PACK_DISABLED": "-pack: Job packs are disabled (LSB_MAX_PACK_JOBS=0)",
    "WAIT_NO_CONDITION": "The wait condition (-w) must be specified.",
    "UNKNOWN_CLUSTER": "Unknown cluster name",
    "ILLEGAL_OPTION": "{prog}: illegal option -- {option}",
    "OPTION_NEEDS_ARGUMENT": "{prog}: option requires an argument -- "
                             "{option}",
    "BAD_OPTION_VALUE": "{prog}: {flag}: bad value {value!r}",
    "EMPTY_OPTION_VALUE": "{prog}: {flag}: Bad argument: the value is "
                          "empty",
    "EMPTY_ARGUMENT": "{prog}: Bad argument: the {what} is empty",
    "EXPLAIN_ONE_JOB": "xce explain: exactly one job ID is needed",
    "ALREADY_RUNNING": "{daemon}: {error}",
    "CONTROLLER_NOT_STARTED": "xce-controller did not start",
    "CONTROLLER_NOT_STARTED_LOG": "xce-controller did not start; see {log}",
    "CONTROLLER_EXITED": "xce-controller (pid {pid}) exited during start-up",
    "CONTROLLER_SILENT": "xce-controller (pid {pid}) has not answered "
                         "within {timeout:g} seconds",
    # xce start, once the controller answers (see xce(1))
    "HOST_UP": "host {host}: {status}, {slots} slots",
    "HOST_UNUSABLE": "host {host}: {status}: {why}",
    "HOSTS_NOT_UP": "warning: not every host is up yet; see bhosts",
})

# The LSF option tables of the commands (xce.cli.lsfargs).
MESSAGES.update({
    "OPTION_NOT_SUPPORTED": "{prog}: option {option} is not supported by xce",
    "OPTIONS_CONFLICT": "{prog}: {first} and {second} cannot be used "
                        "together",
    "UNDOCUMENTED": "LSF does not document {what}",
    "EXTRA_ARGUMENTS": "{prog}: too many arguments: {word}",
    "ARGUMENT_NEEDED": "{prog}: {what} must be specified",
    "SHOWCONF_DAEMON": "{prog}: showconf: {daemon!r} is not one of "
                       "{choices}",
    "SUBCOMMAND_NOT_SUPPORTED": "{prog}: {command} is not supported by xce",
    # A word of the command line that is no text (bytes that are not
    # UTF-8): no name in the store can match it, and no request may carry it.
    "ARGUMENT_NOT_TEXT": "{prog}: an argument is not valid UTF-8 text",
})

# Pre- and post-execution, job starters and login shells (bsub -E/-Ep/-L,
# the queue's PRE_EXEC, POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC,
# JOB_STARTER and PRE_POST_EXEC_USER).
MESSAGES.update({
    "EXEC_COMMAND_EMPTY": "{flag}: Bad argument: the command is empty",
    "LOGIN_SHELL_NOT_ABSOLUTE": "-L: {shell}: The login shell must be "
                                "an absolute path",
    "PREEXEC_PEND": "The job's pre-exec command exited with non-zero status",
    # LSF's PEND_JOB_START_FAIL: a start its host discarded, never run.
    "START_FAILED_PEND": "Failed in talking to server to start the job",
    "INTERACTIVE_OLD_AGENT": "the agent on {host} is too old to run "
                             "interactive jobs",
    "OLD_AGENT": "the agent on {host} speaks protocol {version}, too old "
                 "for this job's {what}",
    "CPU_OLD_AGENT": "the agent on {host} is too old to change a running "
                     "job's CPU limit",
})

# The per-process and per-job limits (bsub -c -v -S -F -D -C -p -T and
# their lsb.queues keys); {name} is LSF's name of the limit (FILELIMIT).
MESSAGES.update({
    "LIMIT_BAD_SPEC": "Bad {name} specification",
    "LIMIT_TOO_BIG": "{name} value is too big",
    "LIMIT_NOT_POSITIVE": "{name} value should be a positive integer",
    "LIMIT_ONE_VALUE": "{name} takes one value, the hard limit",
    "LIMIT_DEFAULT_ABOVE_MAX": "the default {name} is above the maximum",
    "BAD_HOST_SPEC": "Bad host specification",
})

# The state database, as commands read it.
MESSAGES.update({
    "NO_STATE": "The batch system has no state yet: the controller has "
                "never run on this spool",
    "STATE_UNREADABLE": "Cannot read the batch system state: {reason}",
})

# xce sim: the simulator's inputs and its stepper.
MESSAGES.update({
    "SIM_BAD_HOSTS": "--hosts {value}: expected NxS, e.g. 100x1 (N hosts "
                     "of S slots)",
    "SIM_NO_SITE": "give --envdir DIR or --hosts NxS",
    "SIM_NO_WORKLOAD": "xce sim: --workload FILE is needed (or --verify)",
    "SIM_NO_HOSTS": "the configuration has no hosts",
    "SIM_CONFIG": "xce sim: {error}",
    "SIM_ELIM_VERIFY": "xce sim: --elim-values does not apply to --verify "
                       "(the replay takes the hosts as the live run's "
                       "store has them)",
    "SIM_WORKLOAD": "xce sim: {path}: {reason}",
    "SIM_SKIPPED": "{count} trace line(s) skipped (lines {lines}{more}): "
                   "{why}",
    "SIM_UNGROUPED": "{count} job(s) replayed without their trace's user "
                     "group, which the configuration does not define "
                     "({groups}{more})",
    "SIM_REJECTED": "job {job} (trace line {line}, {procs} processors): "
                    "{reason}",
    "SIM_NO_PLOT": "xce sim: --plot needs matplotlib (pip install "
                   "'xce[sim]')",
    "SIM_STEP_HELP": "commands: step [n], continue, break job N|time T|"
                     "event KIND, info job N|host NAME|queue NAME, "
                     "trace on|off [job...], quit",
})

# Finding the cluster (xce.envdir): its environment directory's lsf.conf.
MESSAGES.update({
    "NO_CLUSTER_CONF": "Cannot find the cluster: {conf}: No such file or "
                       "directory (set XCE_ENVDIR or LSF_ENVDIR to the "
                       "directory of its xce.yaml)",
    "NO_CLUSTER_UNREADABLE": "Cannot read the cluster: {conf}: {reason}",
    "NO_CLUSTER_SPOOL": "Cannot find the cluster: {conf} names no {key} "
                        "(has the controller been started?)",
})


# Requeue exit values (bsub -Q, REQUEUE_EXIT_VALUES) and job mail.
MESSAGES.update({
    "BAD_REQUEUE": "{value}: Bad requeue exit value list; use "
                   "\"[all] [~number ...] | [number ...] "
                   "[EXCLUDE(number ...)]\" with numbers 0-255",
    "BAD_MAIL_USER": "{value}: Bad mail address",
})

# bsub's time, estimate, output directory and host layout options
# (-b -t -We -outdir -Jd -hostfile -nnodes).
MESSAGES.update({
    "START_AFTER_TERM": "Start time is later than termination time",
    "BEGIN_AFTER": "Job will be scheduled after {time}",
    "TERM_BY": "Job will be terminated by {time}",
    "BAD_ESTIMATE": "Bad runtime estimation specification",
    "HOSTFILE_UNREADABLE": "Cannot read the host file: {reason}",
    "HOSTFILE_EMPTY": "The host file contains no host names",
    "HOSTFILE_CONFLICT": "-hostfile cannot be used with {option}",
    "NNODES_CONFLICT": "-nnodes cannot be used with {option}",
    "BAD_NNODES": "Bad argument for option -nnodes",
    "DEADLINE_REACHED": "Job termination deadline reached",
})

# Application profiles (bsub -app, DEFAULT_APPLICATION) and service classes.
MESSAGES.update({
    "SLA_UNSUPPORTED": "Service classes (-sla) are not supported by xce",
    "JOB_SIZE_LIST": "Job size ({asked}) is not in the application "
    "profile's JOB_SIZE_LIST ({sizes})",
    "QUEUE_JOB_SIZE_LIST": "Job size ({asked}) is not in the queue's "
    "JOB_SIZE_LIST ({sizes})",
    "PEND_TASKS": "The job's task count no longer fits its application "
    "profile or queue: {why}",
    "CONTAINER_NO_HOST": "No host has the container runtime {runtime} that "
    "{owner} needs",
    "CONTAINER_NO_IMAGE": "{Owner} takes its container "
    "image from LSB_CONTAINER_IMAGE, which the job does not set",
    "PEND_APP_GONE": "The job's application profile <{app}> no longer "
    "exists; bmod -app or -appn moves the job",
})

# Projects (bsub -P, bmod -P, xce.yaml projects:).
MESSAGES.update({
    "BAD_PROJECT": "Project does not exist",
    "PROJECT_MEMBER": "User not in the specified project",
    "PROJECT_QUOTA_NEVER": "Project <{project}> allows at most {limit} "
                           "{what}; the job asks for {asked}",
    "PEND_BAD_PROJECT": "The job's project <{project}> is no longer "
                        "defined",
    "PEND_PROJECT_MEMBER": "The job's owner is no longer a member of "
                           "project <{project}>",
})

# Job groups: bgadd, bgdel, bgmod, bjgroup, bsub -g.
MESSAGES.update({
    "BAD_JGROUP_NAME": "{path}: Bad job group name",
    "JGROUP_EXISTS": "{path}: Job group already exists",
    "JGROUP_NULL": "{path}: No such job group",
    "JGROUP_PERMISSION": "{path}: User permission denied",
    "JGROUP_HAS_JOBS": "{path}: Job group has unfinished jobs; not deleted",
    "JGROUP_LIMIT_ABOVE": "{path}: The job limit exceeds a parent job "
                          "group's limit",
    "JGROUP_LIMIT_BELOW": "{path}: The job limit is lower than a subgroup's "
                          "limit",
    "JGROUP_ADDED": "Job group <{path}> was added.",
    "JGROUP_MODIFIED": "Job group <{path}> was modified.",
    "JGROUP_DELETED": "Job group <{path}> was deleted.",
    "JGROUP_ROOT_LIMIT": "The root job group has no job limit",
    "JGROUP_NONE_DELETED": "No job group was deleted.",
    # xce gang (gang groups; LSF has none)
    "GANG_SET": "Job group <{path}> is a gang of {size} members "
                "(on failure: {on_failure}).",
    "GANG_UNSET": "Job group <{path}> is no longer a gang.",
    "GANG_NOT_SET": "{path}: Job group is not a gang",
    "GANG_BAD_SIZE": "{value}: Bad gang size; a positive integer is needed",
    "GANG_NEEDS_SIZE": "{path}: A new gang needs its size (--size)",
    "GANG_BAD_POLICY": "{value}: Bad failure policy; use kill or continue",
    "GANG_ROOT": "The root job group cannot be a gang",
    # pend reason of a member requeued because another did not start
    "GANG_REQUEUED": "Gang group <{path}>: requeued because another member "
                     "did not start; waiting to start again with all",
    "JGROUP_SWEEP_ONE": "Specify one of job_group_name, 0, -c "
                        "job_group_name or -d idle_time",
})
MESSAGES.update({
    "JGROUP_MOD_ONE": "Specify one of -L limit or -Ln",
    "JGROUP_NAME_NEEDS_S": "bjgroup: a job group name is taken only with "
                           "-s: bjgroup -s {group}",
})

# esub and epsub (bsub -a, LSB_ESUB_METHOD, LSF_SERVERDIR).
MESSAGES.update({
    "ESUB_ABORTED": "Request aborted by esub",
    "ESUB_FAILED": "esub <{path}> failed ({why})",
    "ESUB_TIMEOUT": "esub <{path}> did not finish within {seconds} seconds",
    "ESUB_BAD_OUTPUT": "esub <{path}>: bad modification: {why}",
    "ESUB_BAD_NAME": "Bad application name <{name}> for esub: letters, "
                     "digits, _ and - only (esub.user is reserved)",
    "ESUB_NOT_FOUND": "No esub.{name} or epsub.{name} in LSF_SERVERDIR",
    "ESUB_PACK": "bsub -pack cannot be used where an esub or epsub is "
                 "configured",
})

# File staging (bsub -f): LSF's wording where LSF has one.
MESSAGES.update({
    "STAGE_BAD_OP": 'Invalid file operation "{op}" specification in -f '
                    '"{arg}"',
    "STAGE_BAD_LOCAL": 'Invalid local file specification in -f "{arg}"',
    "STAGE_TOO_MANY": "-f: at most {max} files for one job",
    "STAGE_UNREADABLE": "-f: {path}: {reason}",
    "STAGE_PATTERN": "-f: {path}: %J and %I cannot be in the local file of "
                     "a > copy (bsub reads it before the job has an ID)",
    "JOB_DATA_MISSING": "its environment and job script are missing from "
                        "the controller's private store",
    "STAGE_TOO_BIG": "-f: the files to copy to the execution host are "
                     "{size} bytes, more than the {limit} bytes a job may "
                     "carry",
    "STAGE_OLD_AGENT": "the agent on {host} is too old to copy -f files",
    "PEEK_OLD_AGENT": "the agent on {host} is too old to show the output "
                      "of its jobs",
    "PEEK_NO_ANSWER": "Job <{job}> : the execution host <{host}> did not "
                      "send the output within {seconds} seconds",
    "STAGE_IN_FAILED": "Unable to copy file <{local}> on submission host "
                       "<{host}> to <{remote}> on execution host: {reason}",
    "STAGE_OUT_FAILED": "Unable to copy file <{remote}> to <{local}> on "
                        "submission host <{host}>: {reason}",
})

# GPUs (bsub -gpu, GPU_REQ, LSB_GPU_REQ; xce.lang.gpureq, xce.model.gpus).
MESSAGES.update({
    "BJOBS_GPU_NEEDS_LONG": "-gpu: use only with the -l or -UF option",
    "BAD_NORMALISER": "<{spec}> is neither a host model, nor a host name, "
                      "nor a CPU factor",
    # bjobs -A summarises whole arrays: LSF takes their ids without an
    # index list then.
    "BJOBS_A_INDEX": "{word}: -A takes job array IDs without an index "
                     "list",
    "GPU_OLD_AGENT": "the agent on {host} is too old to give a job its "
                     "GPUs",
    "GPU_BAD_REQ": "Bad GPU requirement syntax: {detail}",
    "GPU_SYNTAX_OFF": "The -gpu option and GPU_REQ are not enabled "
                      "(LSB_GPU_NEW_SYNTAX=N)",
    "GPU_NO_MODEL": "No host that the job may use has GPUs that match the "
                    "GPU requirement ({req})",
    "GPU_TOO_MANY": "The GPU requirement ({req}) asks for more GPUs than "
                    "any host that the job may use has ({most})",
})

# Standalone claims (xce claim; xce.controller.claims).  LSF has no such
# command (its advance reservations, brsvadd, are time slots of hosts),
# so the wording is xce's own, in LSF's style.
MESSAGES.update({
    "CLAIM_ADDED": "Claim <{id}> is created",
    "CLAIM_REMOVED": "Claim <{id}> is removed",
    "CLAIM_NULL": "{id}: No such claim",
    "CLAIM_OF_JOB": "{id}: The claim of a job ends with the job; not removed",
    "CLAIM_BAD_HOST": "{host}: Bad host name, host group name or cluster "
                      "name",
    "CLAIM_NO_DEVICE": "Host <{host}> has no GPU {ids}",
    "CLAIM_OVERLAP": "GPU {ids} of host <{host}> is already claimed by "
                     "claim <{id}>",
    "CLAIM_BAD_USER": "{user}: Bad user name",
    "CLAIM_PAST": "--until: the time is already past",
    "CLAIM_BAD_GPUS": "--gpus: expected device ids such as 0,3",
    "CLAIM_NEEDS_HOST": "--gpus: name the host of the devices with --host",
    "CLAIM_BAD_COUNTER": "--counter: expected name=amount such as lic=2",
    "CLAIM_GPUS_OR_COUNTERS": "A claim holds --gpus of a host or --counter "
                              "tokens of shared resources: give one of them",
    "CLAIM_NOT_SHARED": "{name}: Not a shared resource; only tokens of a "
                        "shared resource (ResourceMap) can be claimed",
    "CLAIM_NOT_THERE": "{name}: Host <{host}> does not share this resource",
    "CLAIM_WHICH_INSTANCE": "{name}: Shared by several sets of hosts; name "
                            "one of the hosts of the set with --host",
    "CLAIM_TOO_MANY": "{name}: {amount} with the {kept} that other claims "
                      "keep is more than the {total} there are",
    "CLAIM_BAD_TIME": "--until: expected [[[YYYY:]MM:]DD:]hh:mm or seconds "
                      "since the epoch",
})
