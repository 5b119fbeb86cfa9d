"""The keys of lsf.conf and of lsf.cluster's Parameters section, with what
xce does with each (xce.config.keys puts them in the key table, in this
order, between lsb.params's and lsb.resources's).  Carried keys go to
xce.yaml's parameters.
"""

from xce.config.keystatus import ENFORCED, NOT_CARRIED, NOT_NEEDED

# (scope, status, names, shape, why), as xce.config.keys takes them.
ROWS = []


def _add(scope, status, names, shape="auto", why=""):
    ROWS.append((scope, status, names, shape, why))


# The cluster's default project, above DEFAULT_PROJECT (as LSF's bsub
# reads it); the environment variable of the same name is bsub -P.
_add("lsf.conf", ENFORCED, "LSB_DEFAULTPROJECT", "text")
_add("lsf.conf", ENFORCED, "LSF_UNIT_FOR_LIMITS")
# Job mail: the agents send it (xce.agent.mail; bsub(1) JOB MAIL).
_add("lsf.conf", ENFORCED, "LSB_MAILTO LSB_MAILPROG LSB_MAILSERVER")
# bjobs condenses execution hosts (4*hostA); it reads the lsf.conf the
# controller writes from xce.yaml.
_add("lsf.conf", ENFORCED, "LSB_SHORT_HOSTLIST")
# The queue of a bsub without -q when the environment has no
# LSB_DEFAULTQUEUE (bsub reads the lsf.conf written from xce.yaml).
_add("lsf.conf", ENFORCED, "LSB_DEFAULTQUEUE")
# Y: the agent checks a job's CPU limit over the job as a whole only; N:
# setrlimit per process only; unset: both (xce.controller.rlimits).
_add("lsf.conf", ENFORCED, "LSB_JOB_CPULIMIT")
_add("lsf.conf", NOT_CARRIED, "LSB_JOB_OUTPUT_LOGGING",
     why="xce's jobs write no notification messages to a log file; job "
     "mail and bjobs -l give them")
# Switches for what xce always does, whatever their value (bsub(1)).
_add("lsf.conf", NOT_CARRIED, "LSB_BSUB_PARSE_SCRIPT",
     why="xce's bsub always reads the #BSUB lines of a script named as "
     "its command, as LSF does with Y")
_add("lsf.conf", NOT_CARRIED, "LSB_STDOUT_DIRECT",
     why="xce's jobs always write their -o and -e files as the job runs "
     "(bpeek reads them), as LSF does with Y")
_add("lsf.conf", NOT_NEEDED, "LSF_STRIP_DOMAIN", "omit",
     why="xce shows host names as xce.yaml names them: the migrator names "
     "the hosts without these domains (address keeps the full name)")
_add("lsf.conf", NOT_CARRIED, "LSF_HPC_EXTENSIONS",
     why="LSF HPC integration switches (CUMULATIVE_RUSAGE, "
     "SHORT_EVENTFILE, ...) have no xce counterpart")
# bsub -pack sends at most LSB_MAX_PACK_JOBS lines per request (0: -pack
# is refused); it always goes on past a failing line, so only
# LSB_PACK_SKIP_ERROR=Y loads (xce.client.submit.pack).
_add("lsf.conf", ENFORCED, "LSB_MAX_PACK_JOBS LSB_PACK_SKIP_ERROR")
# Y: bsub -K says <<Starting on host>> when its job starts
# (xce.client.submit.wait); bjobs -p without a level uses this one.
_add("lsf.conf", ENFORCED, "LSB_SUBK_SHOW_EXEC_HOST "
     "LSB_BJOBS_PENDREASON_LEVEL")
# Y: bjobs exits 255 when it shows no job or an id asked for is unknown.
_add("lsf.conf", ENFORCED, "LSB_BJOBS_CONSISTENT_EXIT_CODE")
# -gpu, GPU_REQ and the default GPU requirement (xce.config.gpuconf).
_add("lsf.conf", ENFORCED, "LSB_GPU_NEW_SYNTAX")
_add("lsf.conf", ENFORCED, "LSB_GPU_REQ", "text")
_add("lsf.conf", NOT_CARRIED, "LSB_RESOURCE_ENFORCE",
     why="xce does not put jobs in cgroups; its agent enforces -M and -c "
     "over the job's processes summed")
# bsub runs LSF_SERVERDIR's esub/epsub (xce.client.submit.esub), the
# agent its eexec; LSB_ESUB_METHOD names the mandatory esubs.
_add("lsf.conf", ENFORCED, "LSF_SERVERDIR LSB_ESUB_METHOD")
# How the agent runs LSF_SERVERDIR's elims (xce.agent.elim).
_add("lsf.conf", ENFORCED, "LSF_ELIM_BLOCKTIME LSF_ELIM_RESTARTS "
     "LSF_ELIM_DEBUG")
# lsf.cluster's Parameters section: the elims' command line is carried to
# parameters; the rest tunes LIM, which xce does not have.
_add("lsf.cluster", ENFORCED, "ELIMARGS", "text")
# LIM's load exchange interval: how often every agent reports its load.
_add("lsf.cluster", ENFORCED, "EXINTERVAL")
_add("lsf.cluster", NOT_CARRIED, "ELIM_POLL_INTERVAL",
     why="the agent reports its elims' values with its load every "
     "EXINTERVAL (15 s), and within a second when a resource appears or "
     "goes unknown")
_add("lsf.cluster", NOT_NEEDED, "ADJUST_DURATION "
     "HOST_INACTIVITY_LIMIT MASTER_INACTIVITY_LIMIT PROBE_TIMEOUT "
     "RETRY_LIMIT", "omit",
     why="LIM timing; xce has no LIM: each agent reports its load itself "
     "and the controller marks a host unavail when its agent is lost")
_add("lsf.cluster", NOT_CARRIED, "LSF_HOST_ADDR_RANGE FLOAT_CLIENTS "
     "FLOAT_CLIENTS_ADDR_RANGE",
     why="dynamic and floating client hosts have no xce equivalent")
# Keys that set up LSF's own daemons and installation: xce has other
# daemons, so they mean nothing here.  Recorded as not needed (shape
# "omit": listed in the report and at the end of xce.yaml, not written as
# values, so the lsf.conf view never points tools at the old installation).
_add("lsf.conf", NOT_NEEDED, "LSF_ENVDIR LSF_CONFDIR LSB_CONFDIR "
     "LSF_BINDIR LSF_LIBDIR LSF_LOGDIR LSF_TOP LSF_INDEP "
     "LSF_MACHDEP LSF_MANDIR LSF_INCLUDEDIR LSF_MISC XLSF_APPDIR LSB_SHAREDIR "
     "LSF_LIVE_CONFDIR LSF_TMPDIR", "omit",
     why="path of the LSF installation; xce derives its paths from its "
     "envdir and spool")
_add("lsf.conf", NOT_NEEDED, "LSF_LIM_PORT LSF_RES_PORT LSB_MBD_PORT "
     "LSB_SBD_PORT LSB_QUERY_PORT", "omit",
     why="LSF daemon port; xce's commands talk to the controller through "
     "its spool and the controller reaches its agents over ssh")
_add("lsf.conf", NOT_NEEDED, "LSF_AUTH LSF_RSH", "omit",
     why="xce authenticates by spool file owner and reaches hosts over ssh")
_add("lsf.conf", NOT_CARRIED, "LSF_MASTER_LIST LSF_SERVER_HOSTS",
     why="xce runs one controller on the host where it is started "
     "(no master candidates to fail over to)")
_add("lsf.conf", NOT_CARRIED, "LSF_ENABLE_EGO LSF_EGO_* EGO_*",
     why="EGO has no xce equivalent")
_add("lsf.conf", NOT_NEEDED, "LSF_LOG_MASK LSB_DEBUG* LSF_DEBUG* "
     "LSF_TIME_*", "omit",
     why="log level and debug classes of LSF's daemons; xce's daemons "
     "take their level from XCE_LOG_LEVEL in their environment")
_add("lsf.conf", NOT_CARRIED, "LSB_RC_* EBROKERD_* LSF_MQ_* "
     "LSF_DYNAMIC_HOST_* LSF_HOST_ADDR_RANGE",
     why="resource connector / dynamic hosts have no xce equivalent")
_add("lsf.conf", NOT_NEEDED, "LSF_PIM_* LSF_PROCESS_TRACKING "
     "LSF_LINUX_CGROUP_ACCT LSF_RES_SYNCUP_INTERVAL LSF_DISABLE_LSRUN "
     "LSB_DISABLE_LIMLOCK_EXCL LSB_ENABLE_HPC_ALLOCATION "
     "LSF_EGO_DAEMON_CONTROL DAEMON_SHUTDOWN_DELAY", "omit",
     why="internals of LSF's daemons (PIM, RES, LIM locks); xce's agent "
     "tracks each job's processes itself")
_add("lsf.conf", NOT_NEEDED, "LSF_LINK_PATH LSF_DEFAULT_INSTALL LSB_MODE "
     "LSF_VERSION", "omit",
     why="LSF installer setting; xce writes its own lsf.conf view")
