"""Standard Workload Format traces (the Parallel Workloads Archive's).

Header and comment lines start with ``;``.  A job line has 18
whitespace-separated numbers; -1 means unknown.  Following the scheduling
literature: processors = max(allocated (5), requested (8)); the run
limit is the user's estimate (9), or the run time when unknown; a job
never runs past it.  Lines that are not 18 numbers, and jobs with no
usable submit time, run time or processor count, are skipped and
counted (Trace.bad names their line numbers).
"""

from dataclasses import dataclass, field

from xce.errors import text

FIELDS = 18
# The group of a job whose SWF group field is -1 (unknown).
NO_GROUP = "g_"


@dataclass
class TraceJob:
    number: int
    submit: float           # seconds from the trace's start
    run: float              # what it really ran
    procs: int
    estimate: float         # the run limit, seconds
    user: str
    group: str              # SWF's (g3): bsub -G where the config has it
    queue: int              # -1: none given
    line: int
    spec: dict = None       # a recorded job's own submission (history)
    failed: bool = False    # SWF status 0: it ended in failure (EXIT)


@dataclass
class Trace:
    jobs: list = field(default_factory=list)
    bad: list = field(default_factory=list)     # (line number, why)
    max_procs: int = None                       # the header's MaxProcs


def read(path):
    """The jobs of the trace at *path*, in submit order."""
    trace = Trace()
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text:
                continue
            if text.startswith(";"):
                _header(trace, text)
                continue
            job, why = parse_line(text, number)
            if job is None:
                trace.bad.append((number, why))
            else:
                trace.jobs.append(job)
    # The archive's traces are in submit order; a hand-made one may not be.
    trace.jobs.sort(key=lambda j: (j.submit, j.number))
    return trace


# SWF's status field: 1 completed, 0 failed, 5 cancelled, -1 unknown.
SWF_FAILED = 0


def _header(trace, text):
    key, _, value = text.lstrip(";").partition(":")
    if key.strip() == "MaxProcs":
        try:
            trace.max_procs = int(value.split()[0])
        except (ValueError, IndexError):
            pass


def parse_line(text, number):
    """(TraceJob, None), or (None, why the line is skipped)."""
    words = text.split()
    if len(words) != FIELDS:
        return None, f"{len(words)} fields, not {FIELDS}"
    try:
        values = [float(w) for w in words]
    except ValueError:
        return None, "a field is not a number"
    submit, run = values[1], values[3]
    procs = int(max(values[4], values[7]))
    if submit < 0 or run < 0 or procs < 1:
        return None, "no submit time, run time or processor count"
    estimate = values[8] if values[8] > 0 else run
    return TraceJob(int(values[0]), submit, run, procs, estimate,
                    _name("u", values[11]), _name("g", values[12]),
                    int(values[14]), number,
                    failed=values[10] == SWF_FAILED), None


def _name(prefix, value):
    """SWF users and groups are numbers: u17, g3 (unknown: u_, g_)."""
    return f"{prefix}{int(value)}" if value >= 0 else f"{prefix}_"


def bad_summary(bad, shown=10):
    """The warning for skipped lines, naming the first *shown* of them."""
    if not bad:
        return None
    lines = ", ".join(str(n) for n, _ in bad[:shown])
    more = f" and {len(bad) - shown} more" if len(bad) > shown else ""
    return text("SIM_SKIPPED", count=len(bad), lines=lines, more=more,
                why=bad[0][1])
