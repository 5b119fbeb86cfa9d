"""The request schema: every request kind and every field, declared once.

This table is the only place that names the fields of a request (see
xce-spool(5)).  Two readers interpret it: the controller builds msgspec
structs from it and decodes and validates each spool file in one pass
(xce.spool.schema); the commands check their own request against it before
spooling it (xce.spool.check, stdlib only, so that bsub and bjobs do not
pay for importing msgspec).  Adding a field is adding one line here.

Stdlib only: a command imports it.
"""

from xce.model import stagefiles

# Bounds.  A string the kernel would refuse in an argument or environment
# string (MAX_ARG_STRLEN) is refused here too; a path is at most PATH_MAX.
ARG_MAX_STR = 128 * 1024
PATH_MAX = 4096
NAME_MAX = 4096
SCRIPT_MAX = 16 * 1024 * 1024
LIST_MAX = 100_000
ENV_MAX = 100_000
PACK_MAX = 100_000
INT32_MAX = 2**31 - 1
JOBID_MAX = INT32_MAX
ATTACHMENT_MAX = 1 << 20          # bpost -a: one MiB of text
DESCRIPTION_MAX = 4094            # bsub -Jd, as LSF
# A base64 text of STAGE_MAX bytes.
_B64_MAX = (stagefiles.STAGE_MAX + 2) // 3 * 4
GPU_REQ_MAX = 1024                # bsub -gpu
REQUEST_ID = r"^\d{20}-\d+-[0-9a-f]{8}$"
VERSION = 1


# A field's type is one small object: its *kind* (the function below that
# made it, Str, Int, ...) and the bounds that kind has.  One class for
# them all: a class costs a command more to create (about 50,000
# instructions) than all of a request kind's fields do.
class Type:
    __slots__ = ("kind", "null", "min", "max", "lo", "hi", "above",
                 "values", "item", "items", "key", "value", "name")

    def __init__(self, kind, null):
        self.kind, self.null = kind, null

    def __repr__(self):
        bounds = ", ".join(f"{a}={getattr(self, a)!r}"
                           for a in self.__slots__[1:] if hasattr(self, a))
        return f"{self.kind.__name__}({bounds})"


def Str(max, min=0, null=True):
    """A string of min..max characters; ``null``: None is allowed too."""
    t = Type(Str, null)
    t.min, t.max = min, max
    return t


def Int(lo, hi, null=True):
    """A whole number in lo..hi (JSON true/false are not numbers)."""
    t = Type(Int, null)
    t.lo, t.hi = lo, hi
    return t


def Num(above, hi, null=True):
    """A number above *above* and at most *hi*."""
    t = Type(Num, null)
    t.above, t.hi = above, hi
    return t


def Bool(null=True):
    return Type(Bool, null)


def OneOf(*values, null=True):
    """One of a few fixed strings."""
    t = Type(OneOf, null)
    t.values = values
    return t


def ListOf(item, max, min=0, null=True):
    t = Type(ListOf, null)
    t.item, t.max, t.min = item, max, min
    return t


def Tuple(*items, null=True):
    """A JSON array of exactly these items, in order."""
    t = Type(Tuple, null)
    t.items = items
    return t


def MapOf(key, value, max, null=True):
    """A JSON object with string keys, at most *max* of them."""
    t = Type(MapOf, null)
    t.key, t.value, t.max = key, value, max
    return t


def Ref(name, null=False):
    """Another declared structure, by name (SPEC, CHANGES)."""
    t = Type(Ref, null)
    t.name = name
    return t


def Anything():
    """Any JSON value: only in what the controller itself stores."""
    return Type(Anything, True)


class Field:
    """*required*: the request is refused without it.  *modifiable*: bmod
    may set or remove it (a submission field only)."""
    __slots__ = ("type", "required", "modifiable")

    def __init__(self, type, required=False, modifiable=False):
        self.type, self.required, self.modifiable = type, required, modifiable


PATH = Str(PATH_MAX)
NAME = Str(NAME_MAX)
ARG = Str(ARG_MAX_STR)
ENV = MapOf(Str(ARG_MAX_STR, null=False), Str(ARG_MAX_STR, null=False),
            ENV_MAX)
SLOTS = Int(1, INT32_MAX, null=False)
JOBID = Int(0, JOBID_MAX, null=False)
INDEX = Int(0, JOBID_MAX)
# [label as typed, job id, array index or null]
_JOB_ID = Tuple(Str(NAME_MAX, null=False), JOBID, INDEX, null=False)
JOB_IDS = ListOf(_JOB_ID, LIST_MAX, null=False)
ONE_JOB = ListOf(_JOB_ID, 1, min=1, null=False)     # btop, bbot
SOME_JOBS = ListOf(_JOB_ID, LIST_MAX, min=1, null=False)    # bmod
NAMES = ListOf(Str(NAME_MAX, null=False), LIST_MAX)

# The tables below are built when first asked for, each request kind's
# apart (``request``): a command pays for its own request's fields only
# (bkill builds no submission fields, bsub no bmod or bkill ones), and
# only the controller builds them all (REQUESTS, STRUCTS).


def _spec():
    """What a submission may carry: bsub's options and what it worked
    out."""
    return {
        "command": Field(Str(ARG_MAX_STR, min=1, null=False), required=True),
        "cwd": Field(Str(PATH_MAX, min=1, null=False), required=True),
        "nslots": Field(Tuple(SLOTS, SLOTS, null=False), required=True,
                        modifiable=True),
        "name": Field(NAME, modifiable=True),
        "queue": Field(NAME, modifiable=True),
        "queue_is_default": Field(Bool()),
        # bsub without -n: a profile's TASKLIMIT default may set nslots.
        "nslots_default": Field(Bool()),
        "stdout": Field(PATH, modifiable=True),
        "stdout_mode": Field(OneOf("a", "w"), modifiable=True),
        "stderr": Field(PATH, modifiable=True),
        "stderr_mode": Field(OneOf("a", "w"), modifiable=True),
        "stdin": Field(PATH, modifiable=True),        # bmod -i, -in
        "specified_cwd": Field(PATH, modifiable=True),    # bmod -cwd, -cwdn
        "subcwd": Field(PATH),
        "runlimit": Field(Num(0, INT32_MAX), modifiable=True),     # minutes
        "runlimit_host": Field(NAME, modifiable=True),      # -W 10/hostA
        "memlimit": Field(Int(1, 2**53), modifiable=True),          # KB
        # bsub -c -v -S -F -D -C -p -T (xce.lang.rlimits): minutes, KB, counts
        "cpulimit": Field(Num(0, INT32_MAX), modifiable=True),
        "cpulimit_host": Field(NAME, modifiable=True),
        "swaplimit": Field(Int(1, 2**53), modifiable=True),
        "stacklimit": Field(Int(1, 2**53), modifiable=True),
        "filelimit": Field(Int(1, 2**53), modifiable=True),
        "datalimit": Field(Int(1, 2**53), modifiable=True),
        "corelimit": Field(Int(0, 2**53), modifiable=True),
        "processlimit": Field(Int(1, INT32_MAX), modifiable=True),
        "threadlimit": Field(Int(1, INT32_MAX), modifiable=True),
        "env_rule": Field(ARG),
        "env": Field(ENV),
        "env_shared": Field(Bool()),        # bsub -pack: the request's env
        "resreq": Field(ListOf(Str(ARG_MAX_STR, null=False), 64),
                        modifiable=True),
        "resreq_merged": Field(ARG, modifiable=True),
        "project": Field(NAME, modifiable=True),
        "user_priority": Field(Int(0, INT32_MAX), modifiable=True),
        "hold": Field(Bool()),
        "depend": Field(ARG, modifiable=True),     # bmod -w, -wn
        "from_host": Field(NAME),
        "user_group": Field(NAME, modifiable=True),     # bmod -G, -Gn
        # bsub -G "~group ...": the groups the job is not charged through.
        "user_group_exclude": Field(NAMES, modifiable=True),
        "job_group": Field(NAME, modifiable=True),
        "default_jobgroup": Field(NAME),    # LSB_DEFAULT_JOBGROUP
        "app": Field(NAME, modifiable=True),
        "sla": Field(NAME),
        "asked_hosts": Field(ListOf(Str(NAME_MAX, null=False), LIST_MAX),
                             modifiable=True),
        "exclusive": Field(Bool(), modifiable=True),   # bmod -x, -xn
        "rerunnable": Field(Bool(), modifiable=True),   # bsub/bmod -r, -rn
        "pre_exec": Field(ARG, modifiable=True),        # bsub -E
        "post_exec": Field(ARG, modifiable=True),       # bsub -Ep
        "login_shell": Field(PATH, modifiable=True),    # bsub -L
        "requeue_exit": Field(ARG, modifiable=True),    # bsub -Q, as written
        "mail_user": Field(NAME, modifiable=True),      # bsub -u
        "mail_begin": Field(Bool(), modifiable=True),   # bsub -B
        "mail_notify": Field(Bool(), modifiable=True),  # bsub -N
        "jobfile": Field(Str(SCRIPT_MAX)),
        "args": Field(ListOf(Str(ARG_MAX_STR, null=False), LIST_MAX)),
        # bsub -b/-t (epoch seconds), -We (minutes), -outdir, -Jd, -hostfile
        # (its path and the host of each slot), -nnodes
        "begin_time": Field(Int(0, 2**40), modifiable=True),
        "term_time": Field(Int(0, 2**40), modifiable=True),
        "estimate": Field(Num(0, INT32_MAX), modifiable=True),
        "estimate_host": Field(NAME, modifiable=True),      # -We 10/hostA
        "outdir": Field(PATH, modifiable=True),
        "description": Field(Str(DESCRIPTION_MAX), modifiable=True),
        "hostfile": Field(PATH, modifiable=True),
        "hostfile_hosts": Field(ListOf(Str(NAME_MAX, null=False), LIST_MAX),
                                 modifiable=True),
        "nnodes": Field(Int(1, INT32_MAX)),
        # bsub -I/-Ip/-Is: the mode, where bsub listens, and the job's key
        # (xce.model.termwire), which the controller keeps out of the store
        "interactive": Field(OneOf("I", "Ip", "Is")),
        "interactive_addrs": Field(ListOf(Str(300, min=3, null=False), 16)),
        "interactive_key": Field(Str(64, min=64)),
        # bsub -f: [local, op, remote, base64 of a > copy's file or null];
        # the controller checks the total against STAGE_MAX
        "xfiles": Field(ListOf(Tuple(Str(PATH_MAX, min=1, null=False),
                                     OneOf(*stagefiles.OPS, null=False),
                                     Str(PATH_MAX, min=1, null=False),
                                     Str(_B64_MAX)), stagefiles.FILES_MAX),
                        modifiable=True),
        # bsub -gpu as written ("-": the configured defaults); xce.lang.gpureq
        "gpu": Field(Str(GPU_REQ_MAX), modifiable=True),     # bmod -gpu
    }


def _runtime():
    """Keys the controller adds to a stored job's spec (never from a
    request)."""
    return {
        "uid": Field(Int(0, 2**32 - 1, null=False), required=True),
        "gid": Field(Int(0, 2**32 - 1, null=False), required=True),
        "array_name": Field(NAME),
        "array_limit": Field(Int(0, INT32_MAX)),
        "array_spec": Field(Str(LIST_MAX * 24)),
        "rusage_alt": Field(Int(0, INT32_MAX)),
        # the GPUs of the current run (xce.scheduler.gpus.record)
        "gpu_alloc": Field(MapOf(Str(64, null=False), Anything(), 8)),
        "unkwn": Field(MapOf(Str(64, null=False), Anything(), 8)),
        "preempted": Field(MapOf(Str(64, null=False), Anything(), 8)),
        # -o/-e files its user could not open, and where the output went
        "output_fallback": Field(MapOf(Str(64, null=False), Anything(), 8)),
        # where the run went when its working directory was missing
        "exec_cwd": Field(PATH),
        # failed pre-execution attempts so far (LOCAL_MAX_PREEXEC_RETRY)
        "preexec_tries": Field(Int(0, INT32_MAX)),
        "preexec_retry_at": Field(Num(0, 2**53)),   # not dispatched before
        # the post-execution stage: RUN while it runs, then POST_DONE/POST_ERR
        "post": Field(OneOf("RUN", "POST_DONE", "POST_ERR")),
        "post_time": Field(Num(0, 2**53)),
        # a parallel job's other hosts that run its HOST_POST_EXEC, and each
        # host's part of the post stage as it ends
        "post_hosts": Field(ListOf(Str(NAME_MAX, null=False), LIST_MAX)),
        "post_parts": Field(MapOf(Str(NAME_MAX, null=False),
                                  OneOf("POST_DONE", "POST_ERR"), LIST_MAX)),
        # hosts it exited on with a -Q/REQUEUE_EXIT_VALUES EXCLUDE() value
        "requeue_excluded": Field(ListOf(Str(NAME_MAX, null=False), LIST_MAX)),
        # times requeued by its requeue exit values (MAX_JOB_REQUEUE)
        "auto_requeues": Field(Int(0, INT32_MAX)),
        # bsub -f copies that failed, in LSF's words (bjobs -l, bhist -l)
        "stage_errors": Field(ListOf(Str(ARG_MAX_STR, null=False), 128)),
    }


def _changes():
    """What bmod may set ("set") or remove ("unset"): the modifiable spec
    keys, and an array's running element limit (bmod -J "%N"), which the
    controller otherwise takes from the name at submission."""
    fields = {name: Field(f.type) for name, f in _get("SPEC").items()
              if f.modifiable}
    fields["array_limit"] = Field(_get("RUNTIME")["array_limit"].type)
    return fields


def _selection():
    """The jobs a request names, as bkill's arguments do."""
    return {
        "ids": Field(JOB_IDS),
        "all": Field(Bool()),
        "user": Field(NAME),
        "queue": Field(NAME),
        "name": Field(NAME),
        "host": Field(NAME),
        "job_group": Field(NAME),       # bkill/bstop/bresume -g
    }


# Every request kind the controller handles, with its fields (besides
# version, kind and id, which every request has).
_KINDS = {
    "submit": lambda: {"spec": Field(Ref("spec"), required=True)},
    "submit_many": lambda: {
        "specs": Field(ListOf(Ref("spec"), PACK_MAX, null=False),
                       required=True),
        "env": Field(ENV)},
    # bkill, bkill -s, bstop and bresume
    "control": lambda: {
        **_selection(),
        "action": Field(OneOf("kill", "signal", "stop", "resume",
                              null=False), required=True),
        "signal": Field(Int(1, 64)),
        "force": Field(Bool()),
        # bkill -d: record the killed job as DONE once it exits
        "as_done": Field(Bool()),
        # bkill -stat: only jobs in this status, skipping silently those
        # that cannot be killed
        "stat": Field(OneOf("run", "pend", "susp")),
        # bkill -b: with all, skip the jobs that cannot be killed; the
        # jobs killed end TERM_BUCKET_KILL, with no lsb.acct record
        "bulk": Field(Bool())},
    "modify": lambda: {
        "ids": Field(SOME_JOBS, required=True),
        "set": Field(Ref("changes", null=True)),
        "unset": Field(ListOf(OneOf(*_get("CHANGES"), null=False),
                              len(_get("CHANGES"))))},
    "switch": lambda: {
        **_selection(),
        "dest": Field(Str(NAME_MAX, null=False), required=True)},
    "requeue": lambda: {
        **_selection(),
        "states": Field(ListOf(OneOf("RUN", "PEND", "DONE", "EXIT",
                                     null=False), 4)),
        "hold": Field(Bool())},
    "move": lambda: {
        "ids": Field(ONE_JOB, required=True),
        "position": Field(Int(1, INT32_MAX)),
        "where": Field(OneOf("top", "bottom"))},
    "admin": lambda: {
        "op": Field(Str(64, null=False), required=True),
        "names": Field(NAMES),
        "comment": Field(ARG),
        "check": Field(Bool())},
    "post": lambda: {
        "jobid": Field(JOBID, required=True),
        "idx": Field(INDEX),
        "msg_id": Field(Int(0, INT32_MAX)),
        "text": Field(ARG),
        "attachment": Field(PATH),
        "data": Field(Str(ATTACHMENT_MAX)),
        "status": Field(Bool())},
    "explain": lambda: {
        "jobid": Field(JOBID, required=True),
        "idx": Field(INDEX)},
    # bpeek of a job whose output is on its execution host only
    "peek": lambda: {
        "jobid": Field(JOBID, required=True),
        "idx": Field(INDEX),
        "ticket": Field(Str(64)),
        "out_offset": Field(Int(0, 2**53)),
        "err_offset": Field(Int(0, 2**53))},
    # bgadd, bgdel, bgmod (xce.controller.jobgroups)
    "jobgroup": lambda: {
        "op": Field(OneOf("add", "del", "mod", null=False), required=True),
        "path": Field(Str(NAME_MAX, null=False), required=True),
        "limit": Field(Int(0, INT32_MAX)),
        # bgdel 0 / -c / -d: which groups; -u: whose
        "sweep": Field(OneOf("empty", "below", "idle")),
        "owner": Field(Str(NAME_MAX)),
        "idle": Field(Int(0, INT32_MAX))},
    # xce claim add / remove (xce.controller.claims)
    "claim": lambda: {
        "op": Field(OneOf("add", "remove", null=False), required=True),
        "claim": Field(Str(NAME_MAX)),
        "user": Field(Str(NAME_MAX)),
        "host": Field(Str(NAME_MAX)),
        "gpus": Field(ListOf(Int(0, 1023, null=False), 64, min=1)),
        # tokens of shared resources: {name: amount}
        "counters": Field(MapOf(Str(NAME_MAX, null=False),
                                Num(0, 1e15, null=False), 16)),
        "until": Field(Int(0, 2**53))},
    # xce gang set|unset (xce.controller.gangs)
    "gang": lambda: {
        "op": Field(OneOf("set", "unset", null=False), required=True),
        "path": Field(Str(NAME_MAX, null=False), required=True),
        "size": Field(Int(1, INT32_MAX)),
        "on_failure": Field(OneOf("kill", "continue"))},
    "ping": lambda: {},         # xce start: is the controller answering?
    "blaunch": lambda: {
        "job": Field(JOBID, required=True),
        "idx": Field(INDEX),
        "hosts": Field(ListOf(Str(NAME_MAX, null=False), LIST_MAX, min=1,
                              null=False), required=True),
        "argv": Field(ListOf(Str(ARG_MAX_STR, null=False), LIST_MAX, min=1,
                             null=False), required=True),
        "cwd": Field(PATH),
        "env": Field(ENV),
        "stdout": Field(PATH)},
}

_BUILDERS = {"SPEC": _spec, "RUNTIME": _runtime, "CHANGES": _changes,
             "SELECTION": _selection,
             "REQUESTS": lambda: {kind: request(kind) for kind in _KINDS},
             "STRUCTS": lambda: {name: struct(name) for name in _STRUCTS}}
_STRUCTS = {"spec": "SPEC", "changes": "CHANGES"}
_built = {}


def _get(name):
    table = _built.get(name)
    if table is None:
        table = _built[name] = _BUILDERS[name]()
    return table


def request(kind):
    """The fields of the request kind *kind* (besides version, kind and
    id), None for no such kind; built when first asked for."""
    table = _built.get(("request", kind))
    if table is None and kind in _KINDS:
        table = _built[("request", kind)] = _KINDS[kind]()
    return table


def struct(name):
    """The fields of the declared structure *name* (a Ref's)."""
    return _get(_STRUCTS[name])


def __getattr__(name):
    # SPEC, RUNTIME, CHANGES, SELECTION, REQUESTS ({kind: its fields},
    # every kind) and STRUCTS ({name: its fields}).
    if name in _BUILDERS:
        return _get(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
