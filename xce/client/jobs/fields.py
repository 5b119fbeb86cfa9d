"""The ``bjobs -o`` field table: names, recommended widths, aliases, values.

Each value function takes a :class:`Job` view and returns a string ("" when
xce has no value; the text layout prints ``-`` for it, JSON ``""``) or, for
memory fields, an amount in KB so that a ``:unit`` suffix can scale it.
Field names LSF knows but xce has no value for are still valid names.
"""

import functools

from xce.client.jobs import table
from xce.client.jobs import values as jv
from xce.client.text import units
from xce.model import ugroupsel


class Job:
    """A job row with its submission decoded once, and the clock."""

    def __init__(self, row, now, queues=None, prio=None):
        self.row = row
        self.now = now
        self.prio = prio        # userprio.Policy of the cluster, or None
        self._spec = None
        self.queue_conf = (queues or {}).get(row.get("queue"), {})

    @property
    def spec(self):
        # Decoded on first use: the submission holds the whole environment,
        # and most field lists (jobid stat ...) never need it.
        if self._spec is None:
            self._spec = jv.spec(self.row)
        return self._spec

    def get(self, key):
        value = self.row.get(key)
        return "" if value is None else str(value)


def _s(value):
    return "" if value is None else str(value)


def _exit_code(j):
    # LSF leaves it empty for a job that is not finished or exited 0.
    code = j.row.get("exit_code")
    return str(code) if jv.finished(j.row) and code else ""


def _pend_reason(j):
    if j.row.get("stat") not in ("PEND", "PSUSP"):
        return ""
    return " ".join(line.strip() for line in table.pend_reasons(j.row))


def _exec_host(j):
    return ":".join(jv.hosts(j.row)) if jv.started(j.row) else ""


def _first_host(j):
    hosts = jv.hosts(j.row)
    return hosts[0] if hosts and jv.started(j.row) else ""


def _nexec_host(j):
    return str(len(set(jv.hosts(j.row)))) if jv.started(j.row) else ""


def _alloc_slot(j):
    return " ".join(jv.counted_hosts(jv.hosts(j.row))) \
        if jv.started(j.row) else ""


def _nalloc_slot(j):
    return str(len(jv.hosts(j.row))) if jv.started(j.row) else ""


def _slots(j):
    n = j.row.get("nslots")
    return str(n) if n else ""


def _req_proc(i):
    def value(j):
        slots = j.spec.get("nslots") or [j.row.get("nslots") or 1] * 2
        return str(slots[i])
    return value


@functools.lru_cache(maxsize=4096)
def _minute(t):
    return units.short_time(t)


def _short_time(t):
    # Many jobs share a minute; formatting each stamp is most of the cost.
    return _minute(int(t) // 60 * 60) if t else ""


def _time(key):
    return lambda j: _short_time(j.row.get(key))


def _finish_time(j):
    if jv.finished(j.row):
        return _short_time(j.row.get("end_time"))
    limit = jv.runlimit_minutes(j.row, j.spec, j.queue_conf)
    if jv.started(j.row) and limit:
        # Expected end from the run limit, marked L as LSF does.
        return _short_time(j.row["start_time"] + limit * 60) + " L"
    return ""


def _time_left(j):
    limit = jv.runlimit_minutes(j.row, j.spec, j.queue_conf)
    if not limit or not jv.started(j.row) or jv.finished(j.row):
        return ""
    left = max(0, int(limit * 60 - (j.now - j.row["start_time"])))
    return f"{left // 3600}:{left % 3600 // 60:02d} L"


def _cpu_used(j):
    cpu = j.row.get("cpu_time")
    return units.hms(cpu) if cpu is not None and jv.started(j.row) else ""


def _run_time(j):
    start = j.row.get("start_time")
    if not start or not jv.hosts(j.row):
        return "0 second(s)"
    end = j.row.get("end_time") if jv.finished(j.row) else j.now
    return f"{max(0, int((end or j.now) - start))} second(s)"


def _pend_time(j):
    submit = j.row.get("submit_time") or j.now
    start = j.row.get("start_time") if jv.hosts(j.row) else None
    end = start or (j.row.get("end_time") if jv.finished(j.row) else j.now)
    return str(max(0, int((end or j.now) - submit)))


def _pids(j):
    if not jv.started(j.row) or jv.finished(j.row):
        return ""
    return ",".join((j.row.get("pids") or "").split())


def _runtimelimit(j):
    limit = jv.runlimit_minutes(j.row, j.spec, j.queue_conf)
    return f"{limit:.1f}" if limit else ""


def _home_path(key):
    def value(j):
        return jv.home_relative(j.spec.get(key), jv.home_of(j.row["user"])) \
            or ""
    return value


def _exec_home(j):
    return (jv.home_of(j.row["user"]) or "") if jv.started(j.row) else ""


def _exec_cwd(j):
    from xce.model.outdir import working_directory
    return (working_directory(j.row, j.spec) or "") if jv.started(j.row) \
        else ""


def _combined(j):
    """As bjobs -l's Combined: (job, profile and queue requirements)."""
    from xce.client.jobs.long import combined_requirement
    return combined_requirement(j.spec, j.queue_conf)


def _spec(key):
    return lambda j: _s(j.spec.get(key))


def _row(key):
    return lambda j: j.get(key)


def _mem(key):
    # Memory fields return KB (int) or None; the renderer scales them.
    return lambda j: j.row.get(key) or None


def _current_mem(j):
    # The store keeps the peak; it stands for the current use of a running job.
    return j.row.get("max_mem") if jv.started(j.row) else None


def _nothing(j):
    return ""


def _gpu_alloc(j):
    """The devices of the job's current or last run, host:id,id ..."""
    alloc = j.spec.get("gpu_alloc") if jv.started(j.row) else None
    if not alloc:
        return ""
    return " ".join(f"{h}:" + ",".join(str(i) for i in ids)
                    for h, ids in (alloc.get("hosts") or {}).items())


def _gpu_part(key):
    """num or mode of the GPU requirement a started job ran with."""
    def value(j):
        alloc = j.spec.get("gpu_alloc") if jv.started(j.row) else None
        return _s(alloc.get(key)) if alloc and key in alloc else ""
    return value


MEMORY_FIELDS = frozenset({"mem", "max_mem", "avg_mem", "memlimit", "swap",
                           "swaplimit", "corelimit", "stacklimit"})

# name: (recommended width, aliases, value function), in LSF's table order.
FIELDS = {
    "jobid": (7, ("id",), lambda j: str(j.row["jobid"])),
    "jobindex": (8, (), lambda j: str(j.row.get("idx") or 0)),
    "stat": (5, (), _row("stat")),
    "user": (7, (), _row("user")),
    "user_group": (15, ("ugroup",), lambda j: ugroupsel.shown(j.spec)),
    "queue": (10, (), _row("queue")),
    "job_name": (10, ("name",), lambda j: jobfmt_name(j.row)),
    "job_description": (17, ("description",), _spec("description")),
    "proj_name": (11, ("proj", "project"), _spec("project")),
    "application": (13, ("app",), _spec("app")),
    "service_class": (13, ("sla",), _spec("sla")),
    "job_group": (10, ("group",), _spec("job_group")),
    "job_priority": (12, ("priority",),
                     lambda j: _s(jv.priority(j.row, j.spec, j.prio, j.now))),
    "dependency": (15, (), lambda j: _s(j.spec.get("depend")
                                         or j.spec.get("dependency"))),
    "pend_reason": (11, (), _pend_reason),
    "command": (15, ("cmd",), _row("command")),
    "pre_exec_command": (16, ("pre_cmd",), _spec("pre_exec")),
    "post_exec_command": (17, ("post_cmd",), _spec("post_exec")),
    "pids": (20, (), _pids),
    "exit_code": (10, (), _exit_code),
    "exit_reason": (50, (), jv.exit_reason),
    "from_host": (11, (), _row("from_host")),
    "first_host": (11, (), _first_host),
    "exec_host": (11, (), _exec_host),
    "nexec_host": (10, (), _nexec_host),
    "alloc_slot": (20, (), _alloc_slot),
    "nalloc_slot": (11, (), _nalloc_slot),
    "nreq_slot": (10, (), _req_proc(0)),
    "slots": (5, (), _slots),
    "submit_time": (15, (), _time("submit_time")),
    "start_time": (15, (), lambda j: _time("start_time")(j)
                   if jv.hosts(j.row) else ""),
    "finish_time": (16, (), _finish_time),
    "estimated_start_time": (20, ("estart_time",), _nothing),
    "time_left": (11, (), _time_left),
    "cpu_used": (10, (), _cpu_used),
    "run_time": (15, (), _run_time),
    "pend_time": (12, (), _pend_time),
    "mem": (15, (), _current_mem),
    "max_mem": (15, (), _mem("max_mem")),
    "avg_mem": (15, (), _mem("avg_mem")),
    "swap": (15, (), lambda j: None),
    "memlimit": (10, (), lambda j: j.spec.get("memlimit") or None),
    "swaplimit": (10, (), lambda j: None),
    "runtimelimit": (12, (), _runtimelimit),
    "min_req_proc": (12, (), _req_proc(0)),
    "max_req_proc": (12, (), _req_proc(1)),
    "effective_resreq": (17, ("eresreq",), lambda j: _s(
        _combined(j) if jv.started(j.row) else "")),
    "combined_resreq": (20, ("cresreq",), lambda j: _s(_combined(j))),
    "input_file": (10, (), _spec("stdin")),
    "output_file": (11, (), _spec("stdout")),
    "error_file": (10, (), _spec("stderr")),
    "sub_cwd": (10, (), _home_path("subcwd")),
    "exec_cwd": (10, (), _exec_cwd),
    "exec_home": (10, (), _exec_home),
    "output_dir": (15, (), _spec("outdir")),
    "nthreads": (10, (), _nothing),
    "interactive": (11, (), lambda j: "Y" if j.spec.get("interactive")
                    else "N"),
    "gpu_num": (10, ("gnum",), _gpu_part("num")),
    "gpu_mode": (20, ("gmode",), _gpu_part("mode")),
    "gpu_alloc": (30, ("galloc",), _gpu_alloc),
}


def jobfmt_name(row):
    """The job's name as bjobs shows it (array elements as ``name[i]``)."""
    name = row.get("name") or ""
    idx = row.get("idx")
    if idx and "[" in name:
        name = name[:name.index("[")] + f"[{idx}]"
    return name


# alias or name (lower case) -> canonical name
NAMES = {name: name for name in FIELDS}
NAMES.update({alias: name for name, (_, aliases, _) in FIELDS.items()
              for alias in aliases})
