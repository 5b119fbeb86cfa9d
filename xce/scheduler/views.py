"""What the scheduler is given and what it gives back: views of hosts,
queues and pending jobs, the decisions of a pass, and LSF's pend reason
texts.  Plain data; the callers (controller, explain, tests) build them."""

from dataclasses import dataclass, field

# Pend reasons (LSF's texts).  Host-level ones are shown with host counts.
R_NEW = "New job is waiting for scheduling"
R_QUEUE_INACTIVE = "The queue is inactivated by the administrator"
R_QUEUE_WINDOW = "The queue is inactivated by its time windows"
# A job whose run limit would take it past the close of its queue's open
# RUN_WINDOW is not dispatched (LSF's reason).
R_WINDOW_WILL_CLOSE = "Job will not finish before queue's run window is " \
    "closed"
R_QUEUE_LIMIT = "The queue has reached its job slot limit"
R_USER_QUEUE_LIMIT = "User has reached the per-user job slot limit of the queue"
# Some of the queue's (or the user's there) slots are left, fewer than the
# parallel job's.
R_QUEUE_PJOB_LIMIT = "The queue has not enough job slots for the parallel job"
R_USER_QUEUE_PJOB_LIMIT = ("Not enough per-user job slots of the queue for "
                           "the parallel job")
R_HELD = "The job was suspended by the user while pending"
R_DEPEND = "Job dependency condition not satisfied"
R_DEPEND_NEVER = "Dependency condition invalid or never satisfied"
R_ARRAY_LIMIT = "The job array has reached its running element limit"
R_JGROUP_LIMIT = "The job group has reached its job limit"
# bsub -G "~group ...": every account of the user in the queue's share
# tree passes through an excluded group (LSF documents no text).
R_NO_SHARE_ACCOUNT = ("The job's excluded user groups (bsub -G) leave it "
                      "no fairshare account in the queue")
R_SPAN = "Not enough hosts to meet the job's spanning requirement"
# span[hosts=1]: a host with free slots, but fewer than the job needs
# (LSF's host-based PEND_JOB_NO_SPAN).
R_NO_SPAN = "Not enough processors to meet the job's spanning requirement"
# The same when the span[] is the queue's RES_REQ's (PEND_QUE_SPREAD_TASK,
# PEND_QUE_NO_SPAN).
R_QUE_SPAN = "Not enough hosts to meet the queue's spanning requirement"
R_QUE_NO_SPAN = ("Not enough processors to meet the queue's spanning "
                 "requirement")
# HOSTLIMIT_PER_JOB: the job would fit now, but only on more hosts than
# the queue lets one job use.
R_HOST_LIMIT = ("The number of hosts the job needs exceeds the queue's "
                "per-job host limit")
R_HOST_FULL = "Not enough job slot(s)"
R_HOST_CLOSED = "Closed by LSF administrator"
R_HOST_WINDOW = "Dispatch windows closed"
R_HOST_LOAD = "Load threshold reached"
# JOB_ACCEPT_INTERVAL: the host got a job less than the interval ago.
R_HOST_ACCEPT = "Just started a job recently"
R_HOST_UNAVAIL = "Unable to reach slave batch server"
R_HOST_QUEUE = "Not usable to the queue"
R_HOST_QUEUE_LIMIT = "Queue's per-host job slot limit reached"
R_HOST_PJOB_LIMIT = "Queue's per-CPU job slot limit reached"
R_HOST_USER_LIMIT = "Host's per-user job slot limit reached"
# lsb.users JL/P of a user (or each member of group@, or default), and of
# a user group as a whole.
R_USER_CPU_LIMIT = "User's per-CPU job slot limit reached"
R_UGROUP_CPU_LIMIT = "User group's per-CPU job slot limit reached"
R_RESREQ = "Job's resource requirements not satisfied"
R_QUEUE_RESREQ = "Queue's resource requirements not satisfied"
# A container job on a host without its runtime (xce.controller.
# containercheck); LSF has no such text: its sites mark such hosts with a
# boolean resource and the job's select[] fails.
R_CONTAINER = "The host does not have the container runtime {runtime}"
R_RESERVE_MEM = "Job requirements for reserving resource (mem) not satisfied"
# bsub -b: the job waits for its begin time (see jobtimes.py).
R_BEGIN_TIME = "The job has a specified start time"
# Gang groups (xce gang; LSF has none): the whole gang waits.  Formats
# with the group's path, how many members are ready or fit, and its size.
R_GANG_WAITING = ("Gang group <{path}>: {ready} of {size} members ready "
                  "to be dispatched; waiting for all")
R_GANG_SHORT = ("Gang group <{path}>: only {placed} of {size} members can "
                "be placed; waiting for all")

# Resources that change as jobs are placed within a pass; a select[] that
# reads one is evaluated per job, any other once per pass.
DYNAMIC_RESOURCES = frozenset({"mem", "swp", "tmp", "slots"})


@dataclass
class HostView:
    name: str
    status: str                 # ok, closed_Adm, unavail, unreach
    max_slots: int
    used: int = 0
    user_used: dict = field(default_factory=dict)   # user -> slots
    jl_u: int = None
    # What select[] and order[] see: hname, type, model, ncpus, maxmem,
    # mem, configured resources.  "mem" and "slots" are kept current.
    resources: dict = field(default_factory=dict)
    mem_total: float = None     # maxmem in LSF_UNIT_FOR_LIMITS; None: unknown
    mem_reserved: float = 0.0   # rusage[mem] of the jobs running there
    # rusage[] of swp, tmp and site resources: name -> (total, held); see
    # rusage_held.py.
    held: dict = field(default_factory=dict)
    # GPU devices (gpus.Device, with what running jobs hold), or None;
    # GpuReq -> why the host cannot hold it, found within this pass
    # ((GpuReq, user) where a standalone claim holds some: gpu_claimed).
    gpus: list = None
    gpu_short: dict = None
    gpu_claimed: bool = False
    # The load indices the host's agent last reported (raw, as lsload
    # shows them), for load thresholds; the index beyond the host's own
    # loadSched when its status is closed_Busy.
    load: dict = field(default_factory=dict)
    busy: str = None
    # Shared resources this host sees: name -> rusage_held.Shared, one
    # object for all the hosts of an instance.
    shared: dict = field(default_factory=dict)
    # Its model's CPU factor: a normalised run limit or estimate takes
    # seconds / cpu_factor here (jobtimes.on_host).
    cpu_factor: float = 1.0
    # The container runtimes its agent found (docker, podman, apptainer).
    runtimes: frozenset = frozenset()
    # When it was last given a job (epoch seconds; None: not lately), for
    # JOB_ACCEPT_INTERVAL; a pass sets it as it places jobs.
    accepted_at: float = None


@dataclass
class QueueView:
    name: str
    priority: int
    active: bool = True
    hosts: list = None          # None: all hosts
    qjob_limit: int = None
    ujob_limit: int = None
    hjob_limit: int = None
    pjob_limit: float = None    # slots per CPU of a host
    used: int = 0
    user_used: dict = field(default_factory=dict)
    host_used: dict = field(default_factory=dict)   # host -> slots
    select: object = None       # the queue's RES_REQ select (resreq.Select)
    # FAIRSHARE: a fairshare.Policy, and the share accounts' use of the
    # queue (fairshare.Usage by (user, bsub -G group or None), or by
    # user) worked out by the caller.
    fairshare: object = None
    fair_usage: dict = field(default_factory=dict)
    # SLOT_RESERVE: seconds a reservation lasts (None: the queue's jobs do
    # not reserve); BACKFILL=Y.  See backfill.py.
    reserve_time: float = None
    backfill: bool = False
    # HOSTLIMIT_PER_JOB: the most hosts one job may use (None: no limit).
    host_limit: int = None
    # Out of its DISPATCH_WINDOW or RUN_WINDOW: it dispatches nothing.
    window_closed: bool = False
    # Its load thresholds, index -> (loadSched, loadStop), or None.
    thresholds: dict = None
    # When its open RUN_WINDOW closes (epoch seconds; None: it does not),
    # and the CPU factor of the fastest host, which a job's normalised
    # run limit is taken on to see whether it can finish before then.
    window_closes: float = None
    window_factor: float = 1.0
    # JOB_ACCEPT_INTERVAL in seconds: after a host is given a job, none of
    # this queue's goes there until that long after (0: no wait).
    accept_interval: float = 0
    # The fairshare slots of its started jobs by (user, -G group); None:
    # by user, user_used (see above).
    fair_slots: dict = None
    # HOSTS with +N preference levels: an asked.AskedHosts whose levels
    # order its jobs' hosts (a job's own -m levels come first); None:
    # no preference.
    prefer: object = None


@dataclass
class PendingJob:
    key: tuple                  # (jobid, idx)
    queue: str
    user: str
    nslots: int                 # -n min
    seq: int
    # Its -sp priority as an order key (higher first): with
    # JOB_PRIORITY_OVER_TIME, one that stays right as time passes
    # (xce.model.userprio.rank), not the value bjobs shows.
    user_priority: int = 0
    held: bool = False
    max_slots: int = None       # -n max; None: nslots
    # The job's own select, and order/span/rusage merged with the queue's
    # RES_REQ (resreq.ResReq).  Jobs with equal requirements should share
    # one object: failures are remembered per object within a pass.
    resreq: object = None
    mem_per_task: bool = False  # RESOURCE_RESERVE_PER_TASK=Y
    local_type: str = None      # what `type == local` means for this job
    array_limit: int = None     # %N of the job's array (key[0] is the array)
    job_group: str = None       # bsub -g; its groups' JOB_LIMITs apply
    depend: object = None       # None: none or satisfied; "wait"; "never"
    project: str = "default"
    app: str = ""               # bsub -app or DEFAULT_APPLICATION; "": none
    # Why the job's project, its profile or its queue no longer admits it
    # (the configuration changed after submission): the job pends with
    # this text.  None: they do.
    refused: str = None
    exclusive: bool = False     # bsub -x
    # -W or the queue's RUNLIMIT, normalised seconds: on a host of CPU
    # factor 1.0 (jobtimes.on_host gives a host's); abs_runlimit: they
    # and the estimate are wall-clock (ABS_RUNLIMIT=Y).
    runlimit: float = None
    abs_runlimit: bool = False
    # bsub -m: an asked.AskedHosts shared by the jobs with the same list.
    asked: object = None
    # bsub -b: not dispatched before this time (epoch seconds); None: now.
    begin_time: float = None
    # bsub -We, the profile's RUNTIME or the queue's ESTIMATED_RUNTIME,
    # normalised seconds as runlimit: how long the job is expected to run,
    # for reservation and backfill (jobtimes.duration).
    estimate: float = None
    # bsub -hostfile: the host of each slot, in order (hostfile.py).
    layout: tuple = None
    # bsub -gpu / GPU_REQ merged (xce.lang.gpureq.GpuReq), or None.
    gpu: object = None
    # The container runtime its profile's CONTAINER needs, or None.
    container: str = None
    # lsb.users JL/P that apply to its user: ((slots per CPU of a host,
    # None: the user's own slots | frozenset: all its group's), ...);
    # None: none.  Jobs of one user share one tuple.
    jl_p: tuple = None
    # bsub -G: the user group whose share account the job is charged to.
    user_group: str = None
    # Set by the fairshare order (share_order) for a job without a -G
    # group in the tree: the group whose account it is charged to.
    share_group: str = None
    # bsub -G "~group ...": the groups whose accounts the job is not
    # charged through (a tuple), or None.
    excluded_groups: tuple = None
    # ENFORCE_ONE_UG_LIMITS: the user groups whose limits hold the job
    # (ugchoice.GroupChoice), or None: every group of its user.
    limit_groups: object = None
    # Set by the fairshare order when the exclusion leaves the job no
    # account in its queue's share tree: it waits (R_NO_SHARE_ACCOUNT).
    share_none: bool = False


@dataclass
class Decisions:
    dispatch: list = field(default_factory=list)    # (key, [host per slot])
    reasons: dict = field(default_factory=dict)     # key -> [[text, hosts]]
    # key -> decision trace, only for the jobs a trace.Tracer asked for.
    traces: dict = field(default_factory=dict)
    # Slot reservations (only with a backfill.Context): key -> (since,
    # {host: slots}, predicted start or None); keys whose time ran out.
    reserved: dict = field(default_factory=dict)
    expired: list = field(default_factory=list)
    # True when the pass stopped once no job could start (reasons=False):
    # the jobs after that point were not looked at and have no reasons here.
    partial: bool = False
    # Preemption (preempt.Preemption): (running job to suspend, the job
    # it makes room for), and preempted jobs to resume.
    preempt: list = field(default_factory=list)
    resume: list = field(default_factory=list)
    # key -> which rusage `||` alternative a started job took, when not
    # the first; the controller keeps it with the job (its reservation).
    rusage_alt: dict = field(default_factory=dict)
    # key -> the devices a started GPU job got (gpus.record).
    gpus: dict = field(default_factory=dict)
