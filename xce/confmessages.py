"""The catalogue's messages about the configuration (keys CONFIG_*).

xce.yaml's keys, lsf.conf's and the converted LSF files' are checked by
xce.config and the controller, which report each problem with one of these
texts; no command needs them on its way.  ``xce.errors.text`` (xce.errbase)
takes a CONFIG_ key from here when xce.errors.MESSAGES does not have it, so
a command that shows some other message does not load this module.
"""

# key -> text
CONFIG_MESSAGES = {
    # badmin reconfig: a configuration the controller could not put in force.
    "CONFIG_NOT_APPLIED": "{path}: cannot be put in force: {error}",

    # xce.yaml as a whole (its keys are checked in xce.config).
    "CONFIG_UNREADABLE": "cannot read: {reason}",
    "CONFIG_NOT_YAML": "not valid YAML: {problem}",
    "CONFIG_NOT_MAPPING": "the file must be a mapping of sections",

    # xce.yaml's keys, each error after "file:line: KEY: ".
    "CONFIG_UNKNOWN_KEY": "unknown {what} key",
    "CONFIG_DID_YOU_MEAN": " (did you mean {hint}?)",
    "CONFIG_NO_QUEUE": "{path}: queues: at least one queue is needed",
    "CONFIG_LIMITS_NOT_LIST": "{path}: limits: must be a list of Limit "
                              "sections",
    "CONFIG_ONE_OF": "must be one of {choices}",
    "CONFIG_SLOT_RESERVE": "{value!r} is not MAX_RESERVE_TIME[n] with n a "
                           "whole number above 0",
    "CONFIG_NOT_YES_NO": "{value!r} is not Y or N",
    "CONFIG_LIMIT_PAIR": "{value}: must be one or two values above 0, the "
                         "default not above the maximum",
    "CONFIG_NOT_WHOLE": "{value!r} is not a whole number",
    "CONFIG_GROUP_SHARES": "user group {group}: {problems}",
    "CONFIG_DEFAULT_UGROUP": "{group}: not a user group (user_groups)",
    "CONFIG_DEFAULT_UGROUP_ALL": "{group}: LSF has the default user group "
    "hold all as a direct member; a user who is not a direct member submits "
    "with no group",
    # Time-based values are read for the SLOTS, JOBS and MEM of limits only
    # (xce.lang.timevalue, xce.controller.limitconf).
    "CONFIG_TIME_BASED": "a time-based value ([value time_window] ...) is "
                         "not supported by xce for this key",
    "CONFIG_NOT_POSITIVE": "{value!r} is not a whole number above 0",
    "CONFIG_NOT_NUMBER": "{value!r} is not a number",
    "CONFIG_HOST_ARCHITECTURES": "must map host models to lists of "
    "architecture strings",
    "CONFIG_ARCH_UNKNOWN_MODEL": "host model {model} is not in host_models",
    # A name in a queue's HOSTS or a limit's QUEUES that the configuration
    # does not define: LSF warns when it reads the file and leaves the
    # name out (xce.config.unknownnames).
    "CONFIG_UNKNOWN_NAME": "{owner} {key}: {name} is not a {what}; ignored",
    "CONFIG_UNKNOWN_HOST_TYPE": "host type {type} is not one of host_types "
    "(lsf.shared's HostType section)",
    "CONFIG_RESOURCES_NOT_MAPPING": "must be a mapping of resource names to "
    "their definitions",
    "CONFIG_TIME_OF_DAY": "{clock}: must be a time of day, hh:mm",
    "CONFIG_TIME_WINDOW": "bad time window: {problem}",
    "CONFIG_THRESHOLD": "bad load threshold: {problem}",
    "CONFIG_LIM_THRESHOLDS": "bad lim_thresholds: {problem}",
    "CONFIG_JOB_CONTROL": "bad job control: {problem}",
    "CONFIG_NEEDS_RESTART": "{where}: {label}: {before} -> {after}: needs a "
                            "controller restart (xce stop, then xce start); "
                            "badmin reconfig cannot change it",
    "CONFIG_NOT_SET": "(not set)",

    # Job packs (LSB_PACK_SKIP_ERROR) and CLEAN_PERIOD_DONE.
    "CONFIG_PACK_SKIP_ERROR": "xce submits every line of a pack file and "
    "reports each one that fails (LSB_PACK_SKIP_ERROR=Y); stopping at the "
    "first failing line is not supported",
    "CONFIG_CLEAN_PERIOD_DONE": "{done}: must be less than CLEAN_PERIOD "
    "({clean}); LSF ignores a value that is not",

    # Pre- and post-execution, job starters and login shells (bsub -E/-Ep/-L,
    # the queue's PRE_EXEC, POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC,
    # JOB_STARTER and PRE_POST_EXEC_USER).
    "CONFIG_EXEC_EMPTY": "{key}: the command is empty",
    "CONFIG_EXEC_USER": "PRE_POST_EXEC_USER: {value!r} is not one user name",
    "CONFIG_RETRY_ACTION": "LOCAL_MAX_PREEXEC_RETRY_ACTION: {value!r} is "
                           "neither SUSPEND nor EXIT",
    "CONFIG_FIRST_HOST": "{value}: xce does not choose a first execution "
                         "host (!); name the host without it",
    "CONFIG_PRIORITY_OVER_TIME": "{value!r} is not increment/interval, two "
                                 "whole numbers above 0 (interval in "
                                 "minutes)",

    # Requeue exit values (REQUEUE_EXIT_VALUES) and job mail.
    "CONFIG_REQUEUE": "<{value}> is not a requeue exit value list "
                      "([all] [~number ...] | [number ...] "
                      "[EXCLUDE(number ...)], numbers 0-255)",
    "CONFIG_MAILPROG": "LSB_MAILPROG <{value}> is not an absolute path",
    "CONFIG_MAILSERVER": "LSB_MAILSERVER <{value}> is not "
                         "SMTP:host[:port]",

    # Application profiles (bsub -app, DEFAULT_APPLICATION) and service
    # classes.
    "CONFIG_MAX_REQUEUE": "MAX_JOB_REQUEUE = {value}: must be a whole "
    "number of times, 0 or more",
    "CONFIG_TASK_LIMIT": "{key} = {value}: must be [minimum [default]] "
    "maximum tasks, whole numbers with 1 <= minimum <= default <= maximum",
    "CONFIG_APP_LEFT_OUT": "not supported by xce: {why}",
    # DEFAULT_JOB_CWD, JOB_CWD (xce.config.cwdconf)
    "CONFIG_CWD_EMPTY": "must be a directory, absolute or relative to the "
    "submission directory",
    "CONFIG_CWD_CONTROL": "the directory contains a NUL character or a "
    "line break",
    "CONFIG_CWD_TOO_LONG": "the directory is over {limit} characters",
    "CONFIG_SLOTS_PER_PROCESSOR": "SLOTS_PER_PROCESSOR counts the "
    "processors of each host: the limit needs PER_HOST",
    "CONFIG_LIMIT_APP": "{name}: no such application profile in "
    "applications",
    "CONFIG_LIMIT_RESOURCE": "{name}: no such numeric resource in "
    "resources",
    "CONFIG_JOB_SIZE_LIST": "{value}: must be default_size [size ...], "
    "whole numbers of tasks from 1",
    "CONFIG_APP_ONE_VALUE": "{key} takes one value in an application profile",
    "CONFIG_APP_YES_NO": "{key} must be Y or N",
    "CONFIG_EXIT_VALUES": "{value}: must be exit values, whole numbers 0 "
                          "to 255",
    "CONFIG_ENV_VARS": "{value}: must be name='value'[,name1='value1']...",
    "CONFIG_CONTAINER_SYNTAX": "{value}: must be "
    "runtime[image(name) options(run options)]",
    "CONFIG_CONTAINER_RUNTIME": "runtime {runtime} is not "
    "supported by xce (docker, podman, singularity or apptainer)",
    "CONFIG_CONTAINER_IMAGE": "{value}: image(name) is missing",
    "CONFIG_CONTAINER_ROOTFS": "docker cannot run a root file "
    "system directory ({image}); name an image",
    "CONFIG_CONTAINER_KEYWORD": "keyword {keyword}() is not "
    "supported by xce (image and options are)",
    "CONFIG_CONTAINER_STARTER": "keyword starter() is not supported by "
    "xce: the runtime runs as the job's user, who needs access to its "
    "engine",
    "CONFIG_CONTAINER_SCRIPT": "options script {value} is not "
    "supported by xce; write the options themselves",
    "CONFIG_CONTAINER_RESERVED": "option {option} is reserved; "
    "xce sets it for the job",

    # Projects (bsub -P, bmod -P, xce.yaml projects:).
    "CONFIG_PROJECTS_NOT_MAP": "{path}: projects: must be a mapping of "
                               "project names",
    "CONFIG_PROJECT_NAME": "bad project name: a name, or a path such as "
                           "/physics/cms (letters, digits, _ . + -), at "
                           "most 511 characters",
    "CONFIG_PROJECT_DEFAULT_TWICE": "{who} is already in the DEFAULT_FOR of "
                                    "project {other}",
    "CONFIG_PROJECT_DEFAULT_MEMBER": "{who} is not a member of this project",

    # GPUs (bsub -gpu, GPU_REQ, LSB_GPU_REQ; xce.lang.gpureq, xce.model.gpus).
    "CONFIG_GPU_SYNTAX": "expected Y, N or extend",
    "CONFIG_GPU_OFF": "{key} needs LSB_GPU_NEW_SYNTAX=Y or extend",
}
