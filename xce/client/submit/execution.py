"""bsub's execution options: -b and -t (times), -We (run-time estimate),
-outdir, -Jd, -hostfile and -nnodes, checked and added to a submission.

What each means once the job is in the system: bsub(1); the scheduling
rules live in xce.scheduler (jobtimes, hostfile).
"""

import time

from xce import oslite
from xce.client.submit.options import SubmitError, parse_run_spec
from xce.errbase import about, text
from xce.model import numbers

# LSF keeps the first 4094 characters of a longer -Jd description (the
# request schema, xce.spool.fields, holds no more).
DESCRIPTION_MAX = 4094


def add(spec, opts, site, now=None):
    """Put the options' fields in *spec*; SubmitError with LSF's words."""
    if opts.get("begin_time") or opts.get("term_time"):
        _add_times(spec, opts, time.time() if now is None else now)
    if opts.get("estimate"):
        spec.update(_estimate(opts["estimate"]))
    if opts.get("outdir"):
        spec["outdir"] = opts["outdir"]
    if opts.get("description"):
        spec["description"] = opts["description"][:DESCRIPTION_MAX]
    if opts.get("hostfile"):
        _hostfile(spec, opts)
    if opts.get("nnodes"):
        _nnodes(spec, opts)
    if opts.get("gpu") is not None:
        spec["gpu"] = _gpu(opts["gpu"])


def _gpu(value):
    """-gpu: checked here (the controller merges it with GPU_REQ and
    LSB_GPU_REQ and checks that some host could hold it)."""
    from xce.lang import gpureq
    value = value.strip()
    try:
        gpureq.parse(value)
    except gpureq.GpuReqError as e:
        raise SubmitError(text("GPU_BAD_REQ", detail=str(e)))
    return value or "-"


def _add_times(spec, opts, now):
    # Imported here: times loads calendar, locale and re, which a bsub
    # without -b or -t has no use for (see tests/unit/test_imports.py).
    from xce.client.submit import times
    begin = times.parse(opts["begin_time"], now, "begin") \
        if opts.get("begin_time") else None
    term = times.parse(opts["term_time"], now, "term") \
        if opts.get("term_time") else None
    times.check_order(begin, term)
    if begin is not None:
        spec["begin_time"] = begin
    if term is not None:
        spec["term_time"] = term


def modified(opts, now=None):
    """bmod -b, -t, -We, -Jd, -outdir, -hostfile and -gpu: the spec keys they
    set (the controller checks the begin time against a termination time
    already set).  -hostfile sets the slots and hosts as at submission, so
    it conflicts with -n, -m and -R as bsub's does."""
    spec = {}
    add(spec, {key: opts.get(key) for key in
               ("begin_time", "term_time", "estimate", "description",
                "outdir", "hostfile", "slots", "hosts", "resreq", "gpu")},
        None, now)
    return spec


def announce(spec):
    """What bsub says on stderr after the job's id, as LSF: when the job
    will be scheduled (-b) and terminated (-t)."""
    import sys
    if spec.get("begin_time") is None and spec.get("term_time") is None:
        return
    from xce.client.submit import times
    if spec.get("begin_time") is not None:
        print(text("BEGIN_AFTER", time=times.shown(spec["begin_time"])),
              file=sys.stderr)
    if spec.get("term_time") is not None:
        print(text("TERM_BY", time=times.shown(spec["term_time"])),
              file=sys.stderr)


def _estimate(value):
    """-We [hour:]minute[/host_name | /host_model], as -W's value: a
    normalised time, like the run limit (xce.controller.rlimits)."""
    try:
        minutes, host = parse_run_spec(value)
    except SubmitError:
        raise SubmitError(about(value, "BAD_ESTIMATE")) from None
    return {"estimate": minutes, **({"estimate_host": host} if host else {})}


def _hostfile(spec, opts):
    """-hostfile: each line a host name and its slots (1 when not given),
    ``#`` comments; the job's slots are the lines' slots, in order."""
    for flag, key in (("-n", "slots"), ("-m", "hosts"), ("-R", "resreq"),
                      ("-nnodes", "nnodes")):
        if opts.get(key):
            raise SubmitError(text("HOSTFILE_CONFLICT", option=flag))
    path = oslite.abspath(opts["hostfile"])
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read(1 << 20).splitlines()
    except OSError as e:
        raise SubmitError(text("HOSTFILE_UNREADABLE",
                               reason=f"{path}: {e.strerror}"))
    layout = []
    for line in lines:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        n = numbers.whole(words[1], low=1) if len(words) == 2 else \
            1 if len(words) == 1 else None
        if n is None:
            raise SubmitError(about(line.strip(), "BAD_ARGUMENT"))
        layout += [words[0]] * n
    if not layout:
        raise SubmitError(text("HOSTFILE_EMPTY"))
    spec["hostfile"] = path
    spec["hostfile_hosts"] = layout
    spec["nslots"] = [len(layout), len(layout)]
    spec["asked_hosts"] = list(dict.fromkeys(layout))


def _nnodes(spec, opts):
    """-nnodes N: N whole hosts, one slot counted on each, exclusively."""
    if opts.get("slots"):
        raise SubmitError(text("NNODES_CONFLICT", option="-n"))
    n = numbers.whole(str(opts["nnodes"]).strip(), low=1)
    if n is None:
        raise SubmitError(text("BAD_NNODES"))
    spec["nnodes"] = n
    spec["nslots"] = [n, n]
