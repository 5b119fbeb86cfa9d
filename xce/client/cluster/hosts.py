"""bhosts' layouts: the default table, -w, and the -l blocks.

Widths follow LSF 10.1 (reference section 4.2): name 18, STATUS 11
(14 with -w and -l), JL/U 5, the counts 6, one blank after each.  The
default view says ``closed`` for every closed state; -w and -l say which.
"""

from xce.client.cluster.host_load import external_indices
from xce.client.cluster.queues import LOAD_HEADER, threshold_rows
from xce.client.text.cells import cell, lcell, line, num, rcell
from xce.client.text.units import load_value
from xce.lang import timewindow
from xce.model import states

_COUNTS = (rcell("MAX", 6), rcell("NJOBS", 6), rcell("RUN", 6),
           rcell("SSUSP", 6), rcell("USUSP", 6), rcell("RSV", 6))
HEADER = line(cell("HOST_NAME", 18), cell("STATUS", 11), rcell("JL/U", 5),
              *_COUNTS)
WIDE_HEADER = line(cell("HOST_NAME", 18), cell("STATUS", 14),
                   rcell("JL/U", 5), *_COUNTS)
LONG_HEADER = line(cell("STATUS", 14), rcell("CPUF", 6), rcell("JL/U", 5),
                   *_COUNTS, "DISPATCH_WINDOW")
# The load indices bhosts -l shows, and the width of each column.
# (name, width, format of a value, what the Reserved row shows)
_LOAD = (("r15s", 6, "{:.1f}", "0.0"), ("r1m", 6, "{:.1f}", "0.0"),
         ("r15m", 6, "{:.1f}", "0.0"), ("ut", 6, "{:.0%}", "0%"),
         ("pg", 6, "{:.1f}", "0.0"), ("io", 6, "{:.0f}", "0"),
         ("ls", 5, "{:.0f}", "0"), ("it", 6, "{:.0f}", "0"),
         ("tmp", 6, "mem", "0M"), ("swp", 6, "mem", "0M"),
         ("mem", 6, "mem", "0M"))


def host_view(host, counts):
    """The numbers a bhosts row shows, and the precise status."""
    per = counts.get(host["name"], {})
    run = per.get("RUN", 0) + per.get("UNKWN", 0)
    ssusp, ususp = per.get("SSUSP", 0), per.get("USUSP", 0)
    njobs = run + ssusp + ususp
    state = host["status"]
    # A host with every slot taken is closed_Full (LSF's HOST_STAT_FULL).
    if state == states.HOST_OK and host["mxj"] and njobs >= host["mxj"]:
        state = states.HOST_CLOSED_FULL
    return {"status": state, "max": host["mxj"],
            "jl_u": (host["conf"] or {}).get("jl_u"), "njobs": njobs,
            "run": run, "ssusp": ssusp, "ususp": ususp,
            "rsv": per.get("RSV", 0)}


def short_status(state):
    return states.HOST_CLOSED if states.host_closed(state) else state


def _numbers(v):
    return (num(v["jl_u"], 5) + num(v["max"], 6) +
            f"{v['njobs']:>6} {v['run']:>6} {v['ssusp']:>6} "
            f"{v['ususp']:>6} {v['rsv']:>6}")


def short_line(host, counts, wide=False):
    v = host_view(host, counts)
    if wide:
        return lcell(host["name"], 18) + lcell(v["status"], 14) + _numbers(v)
    return (cell(host["name"], 18) + lcell(short_status(v["status"]), 11) +
            _numbers(v))


def short_table(hosts, counts, wide=False):
    head = WIDE_HEADER if wide else HEADER
    return "\n".join([head] + [short_line(h, counts, wide) for h in hosts])


def long_blocks(hosts, counts, extra=None, exit_rates=None, reserved=None):
    """extra(host) -> more lines of the load section (site resources);
    exit_rates: host -> its job exit rate now (jobs per minute);
    reserved: host -> {resource: what running jobs' rusage[] holds}."""
    return "\n".join(_long_block(h, counts, extra, exit_rates or {},
                                 (reserved or {}).get(h["name"], {}))
                     for h in hosts)


def _cpuf(host):
    """The host's CPU factor, as the controller publishes it (its model's,
    1.0 without one)."""
    return float((host.get("conf") or {}).get("cpuf") or 1.0)


def _long_block(host, counts, extra=None, exit_rates=None, reserved=None):
    v = host_view(host, counts)
    conf = host["conf"] or {}
    # LSF: the window one blank after the RSV count, or "-" under the
    # column's end.
    window = timewindow.show(conf.get("dispatch_window"))
    row = (lcell(v["status"], 14) + f"{_cpuf(host):>6.2f} " + _numbers(v) +
           (f" {window}" if window else f"{'-':>7}"))
    out = [f"HOST  {host['name']}", LONG_HEADER, row]
    if conf.get("comment") and v["status"] == states.HOST_CLOSED_ADM:
        out.append(f' ADMIN ACTION COMMENT: "{conf["comment"]}"')
    out.append("")
    why = (host["conf"] or {}).get("reason")
    if why and v["status"] in states.HOST_DOWN:
        # Not an LSF line: why the controller cannot reach the host's agent.
        out += [f" LINK FAILURE: {why}", ""]
    if v["status"] not in states.HOST_DOWN:
        out += [" CURRENT LOAD USED FOR SCHEDULING:"] + \
            _load_rows(host.get("load") or {}, v, reserved or {}) + \
            (extra(host) if extra else []) + [""]
    out += [" LOAD THRESHOLD USED FOR SCHEDULING:", LOAD_HEADER] + \
        threshold_rows(conf.get("thresholds")) + [""]
    if conf.get("exit_rate") is not None:
        rate = (exit_rates or {}).get(host["name"], 0.0)
        out += [" THRESHOLD AND LOAD USED FOR EXCEPTIONS:",
                " " * 12 + "JOB_EXIT_RATE",
                f" {'Threshold':<11}{float(conf['exit_rate']):>13.2f}",
                f" {'Load':<11}{rate:>13.2f}", ""]
    return "\n".join(x.rstrip() for x in out) + "\n"


def _load_rows(load, v, held):
    """Total (current load, ``-`` when the agent reported none) and
    Reserved (what the running jobs' rusage[] holds there, *held*)."""
    names = " " * 12 + "".join(f"{n:>{w}}" for n, w, _, _ in _LOAD)
    total = " " + f"{'Total':<11}" + "".join(
        f"{load_value(load.get(n), f):>{w}}" for n, w, f, _ in _LOAD)
    reserved = " " + f"{'Reserved':<11}" + "".join(
        f"{load_value(held[n], f) if held.get(n) else r:>{w}}"
        for n, w, f, r in _LOAD)
    # LSF 10.1 adds a slots column: the free slots, and those pending
    # jobs hold (SLOT_RESERVE).
    free = (v["max"] - v["njobs"] - v["rsv"]) if v["max"] else "-"
    return [names + f"{'slots':>7}", total + f"{free:>7}",
            reserved + f"{v['rsv'] or '-':>7}", ""] + _external_rows(load)


def _external_rows(load):
    """LSF's second block of the load: the numeric resources the host's
    elims report (lsload -l's extra columns); nothing is reserved of
    them."""
    cols = external_indices([{"load": load}])
    if not cols:
        return []
    ext = load.get("ext") or {}
    return [" " * 12 + "".join(f"{n:>{w}}" for n, w, _ in cols),
            " " + f"{'Total':<11}" + "".join(
                f"{load_value(ext.get(n), f):>{w}}" for n, w, f in cols),
            " " + f"{'Reserved':<11}" + "".join(
                f"{'0.0':>{w}}" for n, w, _ in cols), ""]
