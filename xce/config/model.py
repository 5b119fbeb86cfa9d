"""The configuration model the controller works from (pure data)."""

from dataclasses import dataclass, field
from pathlib import Path

from xce.model.projects import Projects

# lsb.params MBD_SLEEP_TIME when not set (LSF 10.1's default, seconds).
MBD_SLEEP_TIME = 10


@dataclass
class QueueConf:
    name: str
    priority: int = 1
    description: str = ""
    users: list = None          # None: all users (but users_excluded)
    users_excluded: list = field(default_factory=list)
    # ADMINISTRATORS: act on any job in this queue (xce.model.permissions)
    admins: list = field(default_factory=list)
    hosts: list = None          # None: all hosts
    # HOSTS' +N preference levels: host -> level for every host of the
    # queue; {}: no preference (xce.config.lsf.hostnames)
    host_levels: dict = field(default_factory=dict)
    ujob_limit: int = None      # UJOB_LIMIT: slots per user
    qjob_limit: int = None      # QJOB_LIMIT: slots in the queue
    hjob_limit: int = None      # HJOB_LIMIT: slots per host
    pjob_limit: float = None    # PJOB_LIMIT: slots per processor
    # attribute -> [(value, windows)] of a time-based PRIORITY or job-slot
    # limit (xce.config.queuetime); the attribute holds the one in force.
    timed: dict = field(default_factory=dict)
    host_limit: int = None      # HOSTLIMIT_PER_JOB: hosts one job may use
    runlimit: tuple = None      # (default, max) minutes
    # RUNLIMIT's normalising host or model of each (None: the default
    # one, xce.controller.rlimits).
    runlimit_hosts: tuple = (None, None)
    memlimit: tuple = None      # (default, max) in KB
    # CPULIMIT, FILELIMIT, ... (xce.config.queuelimits): spec key ->
    # [default, max]; the CPU limit's values are [minutes, host or None].
    rlimits: dict = field(default_factory=dict)
    exclusive: bool = False
    interactive: str = "YES"    # INTERACTIVE: YES, NO or ONLY
    nice: int = 0               # NICE: the nice value its jobs run at
    slot_reserve: int = None    # SLOT_RESERVE MAX_RESERVE_TIME[n]: n
    backfill: bool = False      # BACKFILL=Y
    estimated_runtime: float = None     # ESTIMATED_RUNTIME, minutes
    tasks: tuple = None         # TASKLIMIT (PROCLIMIT): (min, default, max)
    # JOB_SIZE_LIST: the task counts a job may ask, the first its
    # default; a profile's list is used instead (xce.controller.submit)
    job_sizes: tuple = ()
    # CONTAINER (xce.config.containerconf.Container): its jobs run in it
    # unless their profile has one (xce.controller.containercheck)
    container: object = None
    ignore_deadline: bool = False       # IGNORE_DEADLINE=Y
    preemption: str = None      # PREEMPTION as written (bqueues -l)
    # PRE_EXEC, POST_EXEC, HOST_PRE_EXEC, HOST_POST_EXEC, JOB_STARTER as
    # written; PRE_POST_EXEC_USER; LOCAL_MAX_PREEXEC_RETRY_ACTION
    # (xce.config.execconf)
    exec_commands: dict = field(default_factory=dict)
    prepost_user: str = None
    preexec_retry_action: str = None
    # REQUEUE_EXIT_VALUES, checked and in xce.model.requeue's normal form
    requeue: str = None
    # DISPATCH_WINDOW and RUN_WINDOW (xce.lang.timewindow.parse: None is
    # always open) and the load thresholds, index -> (loadSched, loadStop)
    # (xce.config.windowconf)
    dispatch_window: tuple = None
    run_window: tuple = None
    thresholds: dict = field(default_factory=dict)
    # JOB_CONTROLS: action -> signal name; TERMINATE_WHEN's situations;
    # STOP_COND and RESUME_COND as shown (select[...]), each used instead
    # of the loadStop / loadSched thresholds (xce.config.controlconf)
    job_controls: dict = field(default_factory=dict)
    terminate_when: list = field(default_factory=list)
    stop_cond: str = None
    resume_cond: str = None
    raw: dict = field(default_factory=dict)

    def allows(self, user, user_groups=None):
        """May *user* submit here (USERS, with groups already expanded)?"""
        if user in self.users_excluded:
            return False
        return self.users is None or user in self.users


@dataclass
class HostConf:
    name: str
    address: str = ""
    launch: str = "local"
    mxj: int = None             # None: one slot per CPU
    jl_u: int = None
    ncpus: int = None           # None: what the agent reports
    maxmem: int = None
    type: str = ""
    model: str = ""
    resources: list = field(default_factory=list)
    # Declared GPUs (xce.model.gpus devices); None: what the agent detects.
    gpus: list = None
    # How the controller reaches the agent (launch: ssh or none).
    port: int = 22
    user: str = None            # None: the controller's own user
    key_file: str = None        # None: the user's default keys
    known_hosts: str = None     # None: ~/.ssh/known_hosts (strict checking)
    python: str = None          # None: the controller's own interpreter
    ssh_timeout: float = 5.0    # connect, channel and dead-peer timeouts
    spool: Path = None          # the agent's spool on its host
    # lsb.hosts DISPATCH_WINDOW and load thresholds, as for queues
    dispatch_window: tuple = None
    thresholds: dict = field(default_factory=dict)
    # lsf.cluster's LIM busy thresholds, index -> value (lsload, lshosts)
    lim_thresholds: dict = field(default_factory=dict)
    raw: dict = field(default_factory=dict)


@dataclass
class Config:
    path: Path
    cluster_name: str = "xce"
    admins: list = field(default_factory=lambda: ["root"])
    spool: Path = None
    params: dict = field(default_factory=dict)
    hosts: dict = field(default_factory=dict)
    queues: dict = field(default_factory=dict)
    host_groups: dict = field(default_factory=dict)     # name -> members
    user_groups: dict = field(default_factory=dict)     # name -> members
    # user -> the GROUP_ADMIN users of the groups it is a member of
    # (xce.config.load._group_admins): they may control its jobs.
    group_admins: dict = field(default_factory=dict)
    # user group -> its GROUP_ADMIN users, `all` groups included: with
    # STRICT_UG_CONTROL they control the jobs submitted with -G to it.
    admins_by_group: dict = field(default_factory=dict)
    apps: dict = field(default_factory=dict)    # name -> appconf.AppConf
    projects: Projects = field(default_factory=Projects)
    # Every resource definition (xce.model.resources.Catalog), built by
    # xce.config.rescheck from ``resources``.
    catalog: object = None
    raw: dict = field(default_factory=dict)
    # host -> the model its agent's architecture strings matched, for a
    # host xce.yaml gives no model (xce.config.hostarch; the controller
    # fills it at each hello and configuration).
    detected_models: dict = field(default_factory=dict)

    @property
    def default_queues(self):
        value = self.params.get("DEFAULT_QUEUE")
        if value:
            return value.split() if isinstance(value, str) else list(value)
        return [next(iter(self.queues))] if self.queues else []

    def group_admins_of(self, owner, user_group=None):
        """The user group administrators who may control a job of *owner*
        submitted with -G *user_group* (None: without -G).  LSF's default:
        those of every group *owner* is in.  STRICT_UG_CONTROL=Y: a job
        with -G is that group's administrators' only."""
        if user_group and self.param_flag("STRICT_UG_CONTROL"):
            return self.admins_by_group.get(user_group, frozenset())
        return self.group_admins.get(owner, frozenset())

    def param_int(self, name, default):
        try:
            return int(self.params.get(name, default))
        except (TypeError, ValueError):
            return default

    def param_flag(self, name):
        """A Y/N parameter: Y, YES (any case) or a YAML true are on."""
        value = self.params.get(name)
        return value is True or str(value).upper() in ("Y", "YES")
