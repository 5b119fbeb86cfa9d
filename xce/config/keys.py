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
``text`` (free text: outer quotes dropped, blanks collapsed), ``path``
(a directory: outer quotes dropped, blanks kept), ``raw``
(kept exactly, e.g. shell commands whose quotes matter) or ``omit`` (a
not-needed key recorded in the report and in a comment at the end of
xce.yaml, not written as a value).
"""

from dataclasses import dataclass

from xce.config import lsfconfkeys
from xce.config.fixedkeys import FIXED
from xce.config.keystatus import (ACCEPTED, ENFORCED, NOT_CARRIED,
                                  NOT_NEEDED, STATUSES)

# The statuses are xce.config.keystatus's, named here for the table's users.
__all__ = ["ACCEPTED", "ENFORCED", "NOT_CARRIED", "NOT_NEEDED", "STATUSES",
           "Key", "UNKNOWN_WHY", "lookup", "known", "enforced"]


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
# How long finished jobs stay known, DONE ones apart when
# CLEAN_PERIOD_DONE is set (xce.model.cleanperiod, xce.controller.retention).
_add("params", ENFORCED, "CLEAN_PERIOD CLEAN_PERIOD_DONE "
     "JOB_TERMINATE_INTERVAL")
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
_add("queue", NOT_CARRIED, "MAX_PREEXEC_RETRY REMOTE_MAX_PREEXEC_RETRY",
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
# Y: a job associated with a user group (bsub -G, DEFAULT_USER_GROUP) is
# under that group's limits only (and those of the groups holding it);
# bsub -G "~group" leaves out the excluded groups' limits
# (xce.scheduler.ugchoice).  N: every group of the user's.
_add("params", ENFORCED, "ENFORCE_ONE_UG_LIMITS")
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
# A job's working directory without its own -cwd (xce.controller.jobdir),
# and how long one made for it is kept (xce.agent.cwdttl).
_add("params", ENFORCED, "DEFAULT_JOB_CWD", "path")
_add("params", ENFORCED, "JOB_CWD_TTL")
# Y: the owner of a job an administrator stopped may resume it; N (the
# default): only its administrators may (xce.controller.control).
_add("params", ENFORCED, "ENABLE_USER_RESUME")
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

# --- lsf.conf and lsf.cluster Parameters (xce.config.lsfconfkeys) ------
for _row in lsfconfkeys.ROWS:
    _add(*_row)

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
# startmsg); SUCCESS_EXIT_VALUES: those exits are DONE (reconcile).
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
_add("application", ENFORCED, "JOB_CWD", "path")
_add("application", ENFORCED, "JOB_CWD_TTL")
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

# Keys whose one value is what xce always does (xce.config.fixedkeys) are
# enforced; registered last, as each overrides any entry above.
for _scope, _name in FIXED:
    _TABLE[(_scope, _name)] = Key(_scope, _name, ENFORCED)


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
