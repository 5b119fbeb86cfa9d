"""Every LSF key xce knows, with what xce does with it.

One table drives the migration report: a key is *enforced* (carried, and the
running system acts on it), *accepted* (carried into xce.yaml and validated,
but not acted on yet), *not needed* (carried and shown, but it tunes
something xce's event-driven design does not have, such as a polling
interval; the reason says what) or *not carried* (left out, with the
reason).  A key that is in no table is not carried either, as unknown to
xce.

Scopes name where a key lives: ``queue`` (lsb.queues), ``host`` (lsb.hosts
Host columns), ``cluster_host`` (lsf.cluster Host columns), ``host_group``,
``user``, ``user_group``, ``params`` (lsb.params), ``lsf.conf``, ``limit``
(lsb.resources Limit), ``application``, ``resource`` (lsf.shared Resource
columns and ResourceMap).

Each carried key also has a value shape that tells the migrator how to turn
LSF text into YAML: ``auto`` (int/float when it is one, else the text),
``list`` (blank-separated members), ``list1`` (a list only when several),
``text`` (free text: outer quotes dropped, blanks collapsed), ``raw``
(kept exactly, e.g. shell commands whose quotes matter) or ``omit`` (a
not-needed key recorded in the report and in a comment at the end of
xce.yaml, not written as a value).
"""

from dataclasses import dataclass

ENFORCED = "enforced"
ACCEPTED = "accepted"
NOT_NEEDED = "not needed"
NOT_CARRIED = "not carried"
STATUSES = (ENFORCED, ACCEPTED, NOT_NEEDED, NOT_CARRIED)


@dataclass(frozen=True)
class Key:
    scope: str
    name: str
    status: str
    shape: str = "auto"
    why: str = ""

    @property
    def carried(self):
        return self.status != NOT_CARRIED


_TABLE = {}


def _add(scope, status, names, shape="auto", why=""):
    for name in names.split():
        _TABLE[(scope, name)] = Key(scope, name, status, shape, why)


_LOAD = "r15s r1m r15m ut pg io ls it tmp swp mem"
_LIMITS = ("CPULIMIT SWAPLIMIT PROCESSLIMIT DATALIMIT STACKLIMIT FILELIMIT "
           "CORELIMIT THREADLIMIT PROCLIMIT TASKLIMIT")

# --- lsb.queues -----------------------------------------------------------
# PRIORITY and the *JOB_LIMIT keys may be time-based values, switched at
# their windows' edges (xce.config.queuetime), from lsb.queues #if time()
# branches too (xce.config.lsf.timebased).
_add("queue", ENFORCED, "PRIORITY UJOB_LIMIT HJOB_LIMIT QJOB_LIMIT "
     "PJOB_LIMIT RUNLIMIT MEMLIMIT")
# The most hosts one parallel job may use (placement never goes beyond).
_add("queue", ENFORCED, "HOSTLIMIT_PER_JOB")
_add("queue", ENFORCED, "USERS HOSTS", "list")
_add("queue", ENFORCED, "DESCRIPTION", "text")
_add("queue", ENFORCED, "ADMINISTRATORS", "list")
# The queue's RES_REQ joins each job's -R (xce.yaml(5)).
_add("queue", ENFORCED, "RES_REQ", "text")
# GPU requirements (xce.config.gpuconf, xce.lang.gpureq).
_add("queue", ENFORCED, "GPU_REQ", "text")
# Run by the agent around each job, in LSF's order, as the job's user or
# PRE_POST_EXEC_USER; a failing pre-exec sends the job back to PEND, up to
# LOCAL_MAX_PREEXEC_RETRY times (xce.controller.execplan, xce.agent.prepost).
_add("queue", ENFORCED, "PRE_EXEC POST_EXEC HOST_PRE_EXEC HOST_POST_EXEC "
     "JOB_STARTER", "raw")
_add("queue", ENFORCED, "PRE_POST_EXEC_USER LOCAL_MAX_PREEXEC_RETRY "
     "LOCAL_MAX_PREEXEC_RETRY_ACTION")
# The signals of the SUSPEND, RESUME and TERMINATE actions (system
# suspension by run window, load and preemption, bstop, bresume, bkill);
# TERMINATE_WHEN ends the job instead of suspending it; STOP_COND and
# RESUME_COND replace the queue's loadStop/loadSched thresholds
# (xce.lang.jobcontrols, xce.controller.windows).
_add("queue", ENFORCED, "JOB_CONTROLS", "raw")
_add("queue", ENFORCED, "TERMINATE_WHEN")
_add("queue", ENFORCED, "STOP_COND RESUME_COND", "text")
# bsub -c -v -S -F -D -C -p -T's queue defaults and maximums: setrlimit
# for the job's processes, or summed over them by the agent.
_QUEUE_RLIMITS = ("CPULIMIT SWAPLIMIT PROCESSLIMIT DATALIMIT STACKLIMIT "
                  "FILELIMIT CORELIMIT THREADLIMIT")
_add("queue", ENFORCED, _QUEUE_RLIMITS)
# The host or model that normalises a CPU limit given without one.
_add("queue", ENFORCED, "DEFAULT_HOST_SPEC")
# The task count a job may ask, and the count of one without -n
# (xce.controller.submit, after its profile's).
_add("queue", ENFORCED, "PROCLIMIT TASKLIMIT")
# Dispatch and run windows, and loadSched/loadStop thresholds: the queue
# is Inact_Win out of its windows, its jobs are suspended when its run
# window closes or a host's load passes a stopping threshold, resumed
# after (xce.controller.windows, xce.scheduler.suspending).
_add("queue", ENFORCED, "DISPATCH_WINDOW RUN_WINDOW " + _LOAD)
# USER_SHARES of users, groups (one account), group@ and default; the
# dynamic priority takes the lsb.params factors below.
_add("queue", ENFORCED, "FAIRSHARE")
# Slot reservation for parallel jobs (n x MBD_SLEEP_TIME seconds) and
# backfill of reserved slots by jobs with a run limit.
_add("queue", ENFORCED, "SLOT_RESERVE BACKFILL")
# The run-time estimate of the queue's jobs without bsub -We, for
# reservation and backfill (xce.scheduler.jobtimes).
_add("queue", ENFORCED, "ESTIMATED_RUNTIME")
# Y: a job's run limit is not checked against its bsub -t deadline.
_add("queue", ENFORCED, "IGNORE_DEADLINE")
# PREEMPTIVE/PREEMPTABLE: the scheduler suspends lower-priority jobs.
_add("queue", ENFORCED, "PREEMPTION")
# bsub -x is taken only by an EXCLUSIVE queue; RERUNNABLE: a job of a lost
# host is requeued (bsub -r).
_add("queue", ENFORCED, "EXCLUSIVE RERUNNABLE")
# A job exiting with one of these values goes back to PEND (bsub -Q).
_add("queue", ENFORCED, "REQUEUE_EXIT_VALUES")
# NO refuses interactive jobs (bsub -I/-Ip/-Is), ONLY batch jobs;
# bqueues -l shows NO_INTERACTIVE / ONLY_INTERACTIVE.
_add("queue", ENFORCED, "INTERACTIVE")
# Its jobs run at that nice value (agent.spawn.nice_argv); bqueues -l
# shows it in the NICE column.
_add("queue", ENFORCED, "NICE")
# After a dispatch to a host, no job of the queue goes there for this many
# MBD_SLEEP_TIME periods (xce.controller.accept; over lsb.params's).
_add("queue", ENFORCED, "JOB_ACCEPT_INTERVAL")
# New jobs are scheduled in the pass that follows their submission.
_add("queue", NOT_NEEDED, "NEW_JOB_SCHED_DELAY",
     why="mbschd's wait before it looks at a new job; xce's scheduler "
     "takes a new job in the pass its submission starts")
_add("queue", NOT_CARRIED, "FAIRSHARE_QUEUES DISPATCH_ORDER",
     why="cross-queue fairshare has no xce equivalent: each queue's "
     "FAIRSHARE ranks its own jobs")
_add("queue", NOT_CARRIED, "MAX_SLOTS_IN_POOL USE_PRIORITY_IN_POOL",
     why="queue-based fairshare slot pools have no xce equivalent")
_add("queue", NOT_CARRIED, "ROUND_ROBIN_POLICY",
     why="round-robin among users has no xce equivalent; FAIRSHARE with "
     "equal shares (USER_SHARES[[default,1]]) ranks users evenly")
_add("queue", NOT_CARRIED, "RESOURCE_RESERVE SLOT_MEMORY_RESERVE",
     why="xce reserves job slots for a pending parallel job "
     "(SLOT_RESERVE), not memory or other resources")
_CHKPNT_WHY = ("xce does not checkpoint or migrate jobs (no bchkpnt, "
               "brestart or bmig; bsub -k and -mig are refused)")
_add("queue", NOT_CARRIED, "CHKPNT MIG", why=_CHKPNT_WHY)
_add("queue", NOT_CARRIED, "RUNTIME",
     why="not a queue key of LSF 10.1 (an application profile's); a "
     "queue's run-time estimate is ESTIMATED_RUNTIME")
_add("queue", NOT_CARRIED, "JOB_IDLE JOB_OVERRUN JOB_UNDERRUN",
     why="job exceptions (eadmin's idle, overrun and underrun actions) "
     "have no xce equivalent")
_add("queue", NOT_CARRIED, "JOB_WARNING_ACTION JOB_ACTION_WARNING_TIME",
     why="xce has no job warning action (bsub -wa and -wt are refused)")
_add("queue", NOT_CARRIED, "PEND_TIME_LIMIT ELIGIBLE_PEND_TIME_LIMIT",
     why="LSF hands pending time limits to RTM, which raises the alarms, "
     "and acts on them itself in no way; xce has no RTM (bsub -ptl and "
     "-eptl are refused)")
_add("queue", NOT_CARRIED, "APS_PRIORITY QUEUE_GROUP",
     why="absolute priority scheduling has no xce equivalent; jobs are "
     "ranked by queue PRIORITY, FAIRSHARE and job priority")
_add("queue", NOT_CARRIED, "INTERRUPTIBLE_BACKFILL",
     why="interruptible backfill has no xce equivalent; xce backfills "
     "reserved slots with jobs whose run limit ends in time (BACKFILL)")
_add("queue", NOT_CARRIED, "MAX_RSCHED_TIME",
     why="MultiCluster job forwarding has no xce equivalent")
_add("queue", NOT_CARRIED, "CPU_FREQUENCY",
     why="xce does not set the CPU frequency of hosts (bsub -freq is "
     "refused)")
# JOB_SIZE_LIST: the task counts a job may ask, the first its default,
# where its profile has no list; CONTAINER: its jobs run under docker,
# podman or apptainer, where their profile has no CONTAINER
# (xce.controller.submit, xce.controller.containercheck).
_add("queue", ENFORCED, "JOB_SIZE_LIST")
_add("queue", ENFORCED, "CONTAINER", "raw")
_CHUNK_WHY = "xce dispatches every job alone; it has no chunk jobs"
_add("queue", NOT_CARRIED, "CHUNK_JOB_SIZE", why=_CHUNK_WHY)
_PREEMPT_TUNING = "MAX_JOB_PREEMPT NO_PREEMPT_RUN_TIME NO_PREEMPT_FINISH_TIME"
_PREEMPT_WHY = ("xce preempts by job slots only, with fixed rules "
                "(xce.yaml(5) PREEMPTION)")
_add("queue", NOT_CARRIED, _PREEMPT_TUNING + " NO_PREEMPT_INTERVAL "
     "PREEMPT_DELAY", why=_PREEMPT_WHY)
_add("queue", NOT_CARRIED, "SNDJOBS_TO RCVJOBS_FROM",
     why="MultiCluster job forwarding has no xce equivalent")
_add("queue", NOT_CARRIED, "RC_HOSTS RC_DEMAND_POLICY RC_ACCOUNT",
     why="resource connector (cloud hosts) has no xce equivalent")
_add("queue", NOT_CARRIED, "OWNERSHIP LOAN_DURATION",
     why="OpenLava host ownership and loaning have no xce equivalent")

# --- lsb.hosts Host and HostGroup columns ---------------------------------
_add("host", ENFORCED, "MXJ JL/U")
# closed_Wind out of its dispatch window, closed_Busy past a loadSched;
# a loadStop suspends its jobs (xce.controller.windows).
_add("host", ENFORCED, _LOAD + " DISPATCH_WINDOW")
# A host whose jobs exit faster than this (jobs per minute over
# JOB_EXIT_RATE_DURATION) is closed as LSF's default eadmin does
# (xce.model.exitrate, xce.controller.exitclose).
_add("host", ENFORCED, "EXIT_RATE")
_add("host", NOT_CARRIED, "CHKPNT MIG", why=_CHKPNT_WHY)
_add("host", NOT_CARRIED, "AFFINITY",
     why="xce does not bind jobs to CPUs")
# Queue HOSTS, limits and bhosts/bmgroup expand host groups.
_add("host_group", ENFORCED, "GROUP_MEMBER", "list")
_add("host_group", NOT_CARRIED, "CONDENSE GROUP_ADMIN GROUP_SLOT MAX_SLOTS",
     why="xce host groups hold members only")

# --- lsf.cluster Host columns (xce's own lower-case names) ----------------
# select[type==...], select[model==...] and select[resource] see them; a
# host with server 0 runs no jobs.
_add("cluster_host", ENFORCED, "model type server")
_add("cluster_host", ENFORCED, "RESOURCES", "list")
# LIM's busy thresholds (xce.yaml lim_thresholds): a host with an index
# beyond one is busy in lsload, the index starred, and lshosts -l lists
# them under LOAD_THRESHOLDS.  That is all they do to batch jobs in LSF:
# mbatchd dispatches to a LIM-busy host (only LIM's own placement for
# lsrun/lsplace, which xce does not have, avoids it); lsb.hosts and
# lsb.queues thresholds keep jobs off a loaded host.
_add("cluster_host", ENFORCED, _LOAD)
_add("cluster_host", NOT_CARRIED, "REXPRI RUNWINDOW nd",
     why="LIM/RES setting with no xce equivalent")

# --- lsf.cluster ClusterAdmins ---------------------------------------------
# They may act on every job and run badmin (cluster.admins).
_add("cluster", ENFORCED, "ADMINISTRATORS")

# --- lsb.users --------------------------------------------------------------
_add("user", ENFORCED, "MAX_JOBS")
# A submission past a pending threshold is refused (xce.controller.pendlimit).
_add("user", ENFORCED, "MAX_PEND_JOBS MAX_PEND_SLOTS")
# A user's (or group's) slots on a host, per CPU of the host
# (xce.controller.limitconf.jl_p, xce.scheduler.hostfit.room).
_add("user", ENFORCED, "JL/P")
# Queue USERS, bsub -G, limits and fairshare expand user groups.
_add("user_group", ENFORCED, "GROUP_MEMBER", "list")
# A group's administrators may control its members' jobs
# (xce.config.load._group_admins, xce.model.permissions).
_add("user_group", ENFORCED, "GROUP_ADMIN", "list")
# Y: a job submitted with -G is controlled by that group's administrators
# only, and a group of `all` may have administrators
# (xce.config.model.Config.group_admins_of).
_add("params", ENFORCED, "STRICT_UG_CONTROL")
# Hierarchical fairshare: a group named in a queue's FAIRSHARE divides its
# shares among its members by these (xce.model.fairshare.Policy).
_add("user_group", ENFORCED, "USER_SHARES", "text")
# A job submitted without -G is associated with this group
# (xce.controller.submit.default_user_group).
_add("params", ENFORCED, "DEFAULT_USER_GROUP")

# --- lsb.params -------------------------------------------------------------
_add("params", ENFORCED, "DEFAULT_QUEUE", "list1")
_add("params", ENFORCED, "CLEAN_PERIOD JOB_TERMINATE_INTERVAL")
# Automatic requeues allowed, under a queue's and a profile's own
# (xce.controller.requeue).
_add("params", ENFORCED, "MAX_JOB_REQUEUE")
_add("queue", ENFORCED, "MAX_JOB_REQUEUE")
_add("params", ENFORCED, "HIST_HOURS CPU_TIME_FACTOR RUN_TIME_FACTOR "
     "RUN_JOB_FACTOR ENABLE_HIST_RUN_TIME")
# lsb.events switching and lsb.acct archiving (xce/store/lsbrotate.py).
_add("params", ENFORCED, "MAX_JOB_NUM ACCT_ARCHIVE_SIZE ACCT_ARCHIVE_AGE "
     "ACCT_ARCHIVE_TIME MAX_ACCT_ARCHIVE_FILE")
# Job ids wrap after it; commands refuse ids above it (xce.model.jobid).
_add("params", ENFORCED, "MAX_JOBID")
# The cluster-wide pre-execution retry limit and what follows it; a queue's
# own values win (xce.controller.execplan).
_add("params", ENFORCED, "LOCAL_MAX_PREEXEC_RETRY "
     "LOCAL_MAX_PREEXEC_RETRY_ACTION")
_REMOTE_RETRY_WHY = ("LSF 10.1 applies it to jobs forwarded from a remote "
                     "cluster only (MultiCluster); xce has one cluster")
_add("params", NOT_CARRIED, "MAX_PREEXEC_RETRY REMOTE_MAX_PREEXEC_RETRY",
     why=_REMOTE_RETRY_WHY)
# The unit of SLOT_RESERVE's MAX_RESERVE_TIME (xce.controller.reserve) and
# of JOB_ACCEPT_INTERVAL; xce schedules when something changes, not every
# MBD_SLEEP_TIME seconds.
_add("params", ENFORCED, "MBD_SLEEP_TIME")
# The cluster's JOB_INCLUDE_POSTPROC, under a profile's own.
_add("params", ENFORCED, "JOB_INCLUDE_POSTPROC")
# The wait after a dispatch to a host before the next one there, in
# MBD_SLEEP_TIME periods (xce.controller.accept); a queue's own wins.
_add("params", ENFORCED, "JOB_ACCEPT_INTERVAL")
# Y: lsb.users' default row limits each user without a row of its own;
# N (the LSF dialects' default, which the migrator writes out when the
# key is absent): it also limits each user group without a row, as a
# whole (xce.config.limitcheck.user_rows).
_add("params", ENFORCED, "DEFAULT_LIMIT_IGNORE_USER_GROUP")
# Host exceptions: the EXIT_RATE of hosts without one, and the minutes the
# rate is averaged over (xce.model.exitrate).
_add("params", ENFORCED, "GLOBAL_EXIT_RATE JOB_EXIT_RATE_DURATION")
# bsub -J "a[1-N]" is refused past it (xce.controller.submit).
_add("params", ENFORCED, "MAX_JOB_ARRAY_SIZE")
# Each user's pending threshold (xce.controller.pendlimit).
_add("params", ENFORCED, "MAX_PEND_JOBS MAX_PEND_SLOTS")
# 1: a job name in bsub -w means its newest job (xce.controller.jobindex).
_add("params", ENFORCED, "JOB_DEP_LAST_SUB")
# bsub without -g: this job group (%u %q %p %a substituted), created.
_add("params", ENFORCED, "DEFAULT_JOBGROUP", "text")
_add("params", NOT_NEEDED, "SBD_SLEEP_TIME",
     why="xce's agent reports a job's start, usage and exit as they "
     "happen, not every SBD_SLEEP_TIME seconds")
_add("params", NOT_NEEDED, "JOB_SCHEDULING_INTERVAL",
     why="xce schedules as soon as a job, host or configuration changes, "
     "not at a fixed interval")
# The host or model that normalises a CPU limit given without one.
_add("params", ENFORCED, "DEFAULT_HOST_SPEC DEFAULT_APPLICATION ABS_RUNLIMIT")
# A job without -P: its user's DEFAULT_FOR project, else this one
# (xce.model.projects).
_add("params", ENFORCED, "DEFAULT_PROJECT", "text")
# bsub/bmod -sp, the default priority of a job and its escalation while
# it pends (xce.model.userprio).
_add("params", ENFORCED, "MAX_USER_PRIORITY JOB_PRIORITY_OVER_TIME")
# Y: a parallel job's rusage[] is reserved once per task, not per host
# (xce.scheduler.hostfit, xce.scheduler.rusage_held).
_add("params", ENFORCED, "RESOURCE_RESERVE_PER_TASK")
_add("params", NOT_NEEDED, "MAX_SCHED_STAY", "omit",
     why="mbatchd's time limit on one scheduling pass; xce's pass always "
     "runs to its end")
_add("params", NOT_NEEDED, "MAX_RETRY RETRY_INTERVAL", "omit",
     why="OpenLava mbatchd's retries of a dispatch its sbatchd did not "
     "take; xce's controller sends a lost start again when the agent "
     "comes back, and a host that stays lost is handled by "
     "XCE_HOST_LOST_GRACE")
_add("params", NOT_NEEDED, "COND_CHECK_TIME FRESH_PERIOD", "omit",
     why="OpenLava mbatchd polling periods (conditions, load freshness); "
     "xce schedules when a job or host changes and takes each agent's "
     "load as it is reported")
_add("params", NOT_CARRIED, "MAX_SBD_FAIL",
     why="xce counts no failed contacts: a host is unavail as soon as its "
     "agent's link is lost, and its rerunnable jobs are requeued after "
     "XCE_HOST_LOST_GRACE seconds")
_add("params", NOT_CARRIED, "SUB_TRY_INTERVAL",
     why="bsub does not wait and try again: a submission past a pending "
     "threshold (MAX_PEND_JOBS, MAX_PEND_SLOTS) is refused at once")
# A job suspended by its host's paging rate resumes only after the host
# has been idle this long too (xce.scheduler.suspending).
_add("params", ENFORCED, "PG_SUSP_IT")
_add("params", NOT_CARRIED, "JOB_SPOOL_DIR",
     why="xce has no bsub -is or -Zs (spooled input and command files)")
_add("params", NOT_CARRIED, "SLOT_RESOURCE_RESERVE",
     why="a pending parallel job reserves job slots only (SLOT_RESERVE), "
     "not the resources of its rusage[]")
_add("params", NOT_CARRIED, "COMPUTE_UNIT_TYPES",
     why="xce has no compute units (cu[] in -R, bsub -cn_cu)")
_add("params", NOT_CARRIED, "EADMIN_TRIGGER_DURATION",
     why="xce runs no eadmin: it closes a host past its exit rate itself, "
     "as soon as a job's exit takes the host past it (EXIT_RATE)")
# Who may see and do what is xce.model.permissions, LSF's defaults.
_add("params", NOT_CARRIED, "SECURE_JOB_INFO_LEVEL SECURE_INFODIR_USER_ACCESS "
     "ENABLE_JOB_INFO_BY_ADMIN_ROLE",
     why="xce shows every job's details to every user (LSF's default, "
     "level 0); see PERMISSIONS in xce.yaml(5)")
_add("params", NOT_CARRIED, "JOB_POSITION_CONTROL_BY_ADMIN "
     "PRIVILEGED_USER_FORCE_BKILL",
     why="btop, bbot and bkill -r stay open to a job's owner, as by LSF's "
     "default; see PERMISSIONS in xce.yaml(5)")
_add("params", NOT_CARRIED, "PREEMPT_FOR PREEMPTABLE_RESOURCES "
     "MAX_JOB_PREEMPT MAX_JOB_PREEMPT_RESET NO_PREEMPT_RUN_TIME "
     "NO_PREEMPT_FINISH_TIME NO_PREEMPT_INTERVAL PREEMPT_JOBTYPE "
     "PREEMPTION_WAIT_TIME",
     why="xce preempts by job slots only, with fixed rules (xce.yaml(5) "
     "PREEMPTION)")
_add("params", NOT_NEEDED, "MAX_CONCURRENT_QUERY NEWJOB_REFRESH", "omit",
     why="mbatchd query tuning; xce commands read the state store directly")
_add("lsf.conf", NOT_NEEDED, "LSB_QUERY_ENH", "omit",
     why="mbatchd query tuning; xce commands read the state store directly")
_add("params", NOT_CARRIED, "JOB_ARRAY_EVENTS_COMBINE",
     why="xce writes lsb.events records of an array's elements one by one; "
         "LSF's combined array records are not written")
_add("params", NOT_CARRIED, "ENABLE_EVENT_STREAM",
     why="xce writes no lsb.stream event stream")
_add("params", NOT_CARRIED, "RC_*",
     why="resource connector (cloud hosts) has no xce equivalent")
_add("params", NOT_CARRIED, "LSB_MANAGER MANAGER",
     why="name cluster administrators in lsf.cluster ClusterAdmins")

# --- lsf.conf (carried keys go to parameters) -----------------------------
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
_add("lsf.conf", NOT_NEEDED, "LSF_STRIP_DOMAIN", "omit",
     why="xce shows host names as xce.yaml names them: the migrator names "
     "the hosts without these domains (address keeps the full name)")
_add("lsf.conf", NOT_CARRIED, "LSF_HPC_EXTENSIONS",
     why="LSF HPC integration switches (CUMULATIVE_RUSAGE, "
     "SHORT_EVENTFILE, ...) have no xce counterpart")
# No LSF 10.1 description of this bjobs display switch could be found, so
# xce cannot honour it; bjobs keeps LSF's fixed layouts (bjobs(1)).
_add("lsf.conf", NOT_CARRIED, "LSB_BJOBS_DISPLAY_ENH",
     why="bjobs display switch whose LSF 10.1 effect is not documented "
     "where xce could confirm it; xce's bjobs keeps LSF's fixed layouts")
# bsub -pack sends at most LSB_MAX_PACK_JOBS lines per request (0: -pack
# is refused); it always goes on past a failing line, so only
# LSB_PACK_SKIP_ERROR=Y loads (xce.client.submit.pack).
_add("lsf.conf", ENFORCED, "LSB_MAX_PACK_JOBS LSB_PACK_SKIP_ERROR")
# Y: bsub -K says <<Starting on host>> when its job starts
# (xce.client.submit.wait); bjobs -p without a level uses this one.
_add("lsf.conf", ENFORCED, "LSB_SUBK_SHOW_EXEC_HOST "
     "LSB_BJOBS_PENDREASON_LEVEL")
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

# --- lsb.resources Limit ----------------------------------------------------
# SLOTS, JOBS, MEM, SWP and TMP (against rusage[]) over users, queues, hosts,
# projects and application profiles are applied by the scheduler; a limit
# that names a license project consumer is left out whole.
_add("limit", ENFORCED, "NAME SLOTS JOBS MEM")
# SWP and TMP count rusage[swp] and rusage[tmp] as MEM counts rusage[mem]
# (in LSF_UNIT_FOR_LIMITS; xce.scheduler.limits).
_add("limit", ENFORCED, "SWP TMP")
# SLOTS_PER_PROCESSOR with PER_HOST: slots per CPU of each host, as
# lsb.users JL/P (xce.scheduler.limits).
_add("limit", ENFORCED, "SLOTS_PER_PROCESSOR")
# RESOURCE = [name, count] ...: the rusage[] of a numeric resource of
# ``resources:`` (licence tokens, a host resource) the consumers may hold
# (xce.scheduler.limits).
_add("limit", ENFORCED, "RESOURCE")
_add("limit", NOT_CARRIED, "INELIGIBLE",
     why="xce does not count a job's eligible pending time apart "
     "(LSF's TRACK_ELIGIBLE_PENDINFO), which is all INELIGIBLE changes")
_add("limit", ENFORCED, "USERS PER_USER QUEUES PER_QUEUE HOSTS PER_HOST "
     "PROJECTS PER_PROJECT", "list")
# Application profiles: the jobs of those profiles (bsub -app or
# DEFAULT_APPLICATION) are counted, a job without one is not
# (xce.scheduler.limits).
_add("limit", ENFORCED, "APPS PER_APP", "list")
# A consumer xce does not track: without it the limit would cover other
# jobs, so a limit naming one is left out whole (xce.config.lsf.
# convert_batch, xce.controller.limitconf).
_add("limit", NOT_CARRIED, "LIC_PROJECTS", "list",
     why="License Scheduler projects have no xce equivalent; the limit is "
     "left out whole, as without them it would limit other jobs")

# --- lsb.applications -------------------------------------------------------
# Applied to the job by xce.config.appconf and xce.lang.appmerge.
_add("application", ENFORCED, "DESCRIPTION RES_REQ", "text")
_add("application", ENFORCED, "GPU_REQ", "text")
# ENV_VARS: set in the job's environment when it starts (xce.controller.
# dispatch); SUCCESS_EXIT_VALUES: those exits are DONE (reconcile).
_add("application", ENFORCED, "ENV_VARS SUCCESS_EXIT_VALUES", "text")
_add("application", ENFORCED, "ABS_RUNLIMIT")
_add("application", ENFORCED, "PRE_EXEC POST_EXEC HOST_PRE_EXEC "
     "HOST_POST_EXEC JOB_STARTER", "raw")
# A signal each, over the queue's JOB_CONTROLS (xce.controller.jobactions).
_add("application", ENFORCED, "SUSPEND_CONTROL RESUME_CONTROL "
     "TERMINATE_CONTROL", "raw")
# CONTAINER: its jobs run under docker, podman or apptainer on the hosts
# that have it (xce.config.containerconf, xce.agent.container).
_add("application", ENFORCED, "CONTAINER", "raw")
_add("application", ENFORCED, "RUNLIMIT MEMLIMIT CPULIMIT SWAPLIMIT "
     "PROCESSLIMIT DATALIMIT STACKLIMIT FILELIMIT CORELIMIT THREADLIMIT "
     "REQUEUE_EXIT_VALUES RERUNNABLE")
# TASKLIMIT (PROCLIMIT, its older name): the task count a job may ask,
# and the count of one without -n (xce.controller.submit).
_add("application", ENFORCED, "PROCLIMIT TASKLIMIT")
# RUNTIME: the jobs' run-time estimate where they give no bsub -We.
_add("application", ENFORCED, "RUNTIME")
# MAX_JOB_REQUEUE: automatic requeues allowed (xce.controller.requeue).
_add("application", ENFORCED, "MAX_JOB_REQUEUE")
# JOB_INCLUDE_POSTPROC=Y: the job stays RUN, its slots held, until its
# post-exec has ended (xce.controller.reconcile holds its finish).
_add("application", ENFORCED, "JOB_INCLUDE_POSTPROC")
# JOB_SIZE_LIST: the task counts a job may ask, the first its default
# (xce.controller.submit; bmod and reconfig recheck it).
_add("application", ENFORCED, "JOB_SIZE_LIST")
# How often its jobs' failing pre-exec is tried, and what follows; over
# the queue's and the cluster's (xce.controller.execplan.retry_limit).
_add("application", ENFORCED, "LOCAL_MAX_PREEXEC_RETRY "
     "LOCAL_MAX_PREEXEC_RETRY_ACTION")
_add("application", NOT_CARRIED, "MAX_PREEXEC_RETRY "
     "REMOTE_MAX_PREEXEC_RETRY", why=_REMOTE_RETRY_WHY)
# Left out (the loader refuses them too): each says why.
_add("application", NOT_CARRIED, "CHKPNT_DIR CHKPNT_PERIOD CHKPNT_METHOD "
     "CHKPNT_INITPERIOD",
     why="xce does not checkpoint jobs (no bchkpnt or brestart)")
_add("application", NOT_CARRIED, "CHUNK_JOB_SIZE", why=_CHUNK_WHY)
_add("application", NOT_CARRIED, _PREEMPT_TUNING, why=_PREEMPT_WHY)
_add("application", NOT_CARRIED, "EXEC_DRIVER",
     why="xce runs the container runtime itself, as the job's user (see "
     "CONTAINER)")
_add("application", NOT_CARRIED, "BIND_JOB",
     why="xce does not bind job processes to CPUs")
_add("application", NOT_CARRIED, "DJOB_*",
     why="xce's blaunch tasks are run and watched by its agents; LSF's "
     "distributed-job settings have no counterpart")

# --- lsf.shared Resource columns and lsf.cluster ResourceMap ---------------
# xce.model.resources: TYPE types host values and the names a -R may use,
# INCREASING the direction of order[], CONSUMABLE what rusage[] may
# reserve, RELEASE whether a suspended job gives its rusage back, INTERVAL
# makes a resource dynamic (its value comes from reports), LOCATION the
# per-host values and the shared counters (licence tokens) the scheduler
# holds once per job.  DESCRIPTION is shown by lsinfo, which is all LSF
# does with it.
_add("resource", ENFORCED, "TYPE INTERVAL INCREASING RELEASE CONSUMABLE "
     "LOCATION")
_add("resource", ENFORCED, "DESCRIPTION", "text")

# Keys whose one value is what xce always does: that value is enforced by
# being xce's behaviour, any other is refused by the loader with the
# reason (so the migrator reports it not carried).  scope, name ->
# (the values taken, in capitals, why the others are not).
FIXED = {}


def _fixed(scopes, names, values, why):
    for scope in scopes.split():
        for name in names.split():
            FIXED[(scope, name)] = (tuple(values.split()), why)
            _TABLE[(scope, name)] = Key(scope, name, ENFORCED)


_fixed("params", "PARALLEL_SCHED_BY_SLOT", "Y YES",
       "xce schedules parallel jobs by job slots (Y); by CPUs is not "
       "supported")
_fixed("params queue", "RELAX_JOB_DISPATCH_ORDER", "N NO",
       "xce keeps the strict dispatch order of each pass (N); reusing a "
       "finished job's slots for a like job out of order is not supported")
_fixed("params", "EXIT_RATE_TYPE", "JOBEXIT_NONLSF",
       "a host's exit rate counts the jobs that exit after they started, "
       "but for LSF's own reasons such as bkill, limits and preemption "
       "(JOBEXIT_NONLSF, LSF's default); counting other exits is not "
       "supported")
_fixed("lsf.conf", "LSB_MOD_ALL_JOBS", "Y YES",
       "bmod changes a started job's -c, -M, -W, -o and -e (Y); refusing "
       "every change to a started job is not supported")
_fixed("lsf.conf", "LSF_STRICT_RESREQ", "Y YES",
       "xce refuses an rusage[] of a resource that is not consumable, at "
       "submission (Y, LSF's installed value); the lenient check (N) is "
       "not supported")
_fixed("lsf.conf", "LSF_GPU_AUTOCONFIG", "Y YES",
       "xce's agents always detect their GPUs with nvidia-smi (Y); give a "
       "host's gpus: in xce.yaml to set them by hand")

_fixed("lsf.conf", "LSB_JOB_MEMLIMIT LSB_MEMLIMIT_ENFORCE", "Y YES",
       "xce's agent kills a job whose processes' resident memory together "
       "passes its -M or MEMLIMIT (Y); leaving the limit to setrlimit per "
       "process, which Linux does not enforce, is not supported")
_fixed("lsf.conf", "LSB_SUB_COMMANDNAME", "Y YES",
       "xce's esub parameter file always holds LSB_SUB_COMMAND_LINE (Y); "
       "leaving it out is not supported")
_fixed("params", "FAIRSHARE_ADJUSTMENT_FACTOR", "0 0.0",
       "its term of the fairshare priority comes from a site's "
       "libfairshareadjust plug-in, which xce cannot load; 0 (no "
       "adjustment) is what xce does")


def fixed_problem(scope, name, value):
    """Why *value* of a fixed-value key is refused, or None."""
    found = FIXED.get((scope, name))
    if found is None or value is None:
        return None
    text = str(value).strip().upper()
    if value is True:
        text = "Y"
    elif value is False:
        text = "N"
    if text in found[0] or _same_number(text, found[0]):
        return None
    return f"{found[1]}; {value} is not"


def _same_number(text, allowed):
    """A number written another way (0.00 for 0) is the same value."""
    try:
        number = float(text)
    except ValueError:
        return False
    return any(_number(a) == number for a in allowed)


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


UNKNOWN_WHY = "not a key xce knows"


def lookup(scope, name):
    """The Key for *name* in *scope*; unknown names are not carried."""
    key = _TABLE.get((scope, name)) or _TABLE.get((scope, name.upper()))
    if key is not None:
        return key
    for (table_scope, pattern), key in _TABLE.items():
        if (table_scope == scope and pattern.endswith("*")
                and name.upper().startswith(pattern[:-1])):
            return Key(scope, name, key.status, key.shape, key.why)
    return Key(scope, name, NOT_CARRIED, "auto", UNKNOWN_WHY)


def known(scope):
    """Names (patterns end in ``*``) of every key of *scope* in the table."""
    return sorted(name for (table_scope, name) in _TABLE
                  if table_scope == scope)


def enforced(scope):
    return sorted(name for (table_scope, name), key in _TABLE.items()
                  if table_scope == scope and key.status == ENFORCED)
