"""bqueues' layouts: the default table, -w, and the -l blocks.

Widths follow LSF 10.1 (reference section 4.1): name 15, PRIO 4,
STATUS 14, MAX/JL/U/JL/P/JL/H 4, NJOBS/PEND/RUN/SUSP 5, one blank after
each.  Counts are job slots, as LSF counts them.
"""

import time

from xce.client.text import limits, units
from xce.client.text.cells import cell, cut_front, lcell, line, num, rcell
from xce.config import queueaccept
from xce.config.model import MBD_SLEEP_TIME
from xce.lang import loadthresh, timewindow
from xce.model import states

HEADER = line(cell("QUEUE_NAME", 15), cell("PRIO", 4), cell("STATUS", 14),
              rcell("MAX", 4), rcell("JL/U", 4), rcell("JL/P", 4),
              rcell("JL/H", 4), rcell("NJOBS", 5), rcell("PEND", 5),
              rcell("RUN", 5), rcell("SUSP", 5))
LONG_HEADER = line(cell("PRIO", 4), cell("NICE", 4), cell("STATUS", 14),
                   rcell("MAX", 4), rcell("JL/U", 4), rcell("JL/P", 4),
                   rcell("JL/H", 4), rcell("NJOBS", 5), rcell("PEND", 5),
                   rcell("RUN", 5), rcell("SSUSP", 5), rcell("USUSP", 5),
                   rcell("RSV", 4))
SEPARATOR = "-" * 79
# Which job states fall in which bqueues column.
_COLUMN = {"PEND": "pend", "PSUSP": "pend", "RUN": "run", "UNKWN": "run",
           "SSUSP": "ssusp", "USUSP": "ususp"}
LOAD_HEADER = ("           r15s   r1m  r15m   ut      pg    io   ls    it"
               "    tmp    swp    mem")


def slot_counts(job_counts):
    """queue -> {pend, run, ssusp, ususp, njobs} in slots."""
    out = {}
    for (queue, stat), (_jobs, slots) in job_counts.items():
        column = _COLUMN.get(stat)
        if column is None:
            continue
        per = out.setdefault(queue, dict.fromkeys(
            ("pend", "run", "ssusp", "ususp", "njobs"), 0))
        per[column] += slots
        per["njobs"] += slots
    return out


def add_reserved(counts, reservations):
    """Put the slots pending jobs hold (Reader.reservations) in each
    queue's counts, as ``rsv`` (bqueues -l RSV)."""
    for held in reservations.values():
        per = counts.setdefault(held.get("queue"), dict.fromkeys(
            ("pend", "run", "ssusp", "ususp", "njobs"), 0))
        per["rsv"] = per.get("rsv", 0) + sum(held["hosts"].values())
    return counts


def add_reserve_time(queues, params):
    """SLOT_RESERVE's MAX_RESERVE_TIME[n] in seconds (n x MBD_SLEEP_TIME
    of the parameters in force), for bqueues -l."""
    try:
        sleep = int(params.get("MBD_SLEEP_TIME") or MBD_SLEEP_TIME)
    except ValueError:
        sleep = MBD_SLEEP_TIME
    for q in queues:
        if q["conf"].get("slot_reserve"):
            q["conf"]["slot_reserve_seconds"] = q["conf"]["slot_reserve"] * \
                sleep
    return queues


def _counts(counts, name):
    return counts.get(name) or dict.fromkeys(
        ("pend", "run", "ssusp", "ususp", "njobs"), 0)


def status(queue, long=False, now=None):
    """``Open:Active``; -l tells an admin's inactivation as ``Inact_Adm``;
    a queue out of its dispatch or run window is ``Inact_Win``."""
    if queue["active"] and not windows_open(queue["conf"], now):
        return states.queue_status(queue["open"], False,
                                   states.QUEUE_INACT_WIN)
    return states.queue_status(
        queue["open"], queue["active"],
        states.QUEUE_INACT_ADM if long else states.QUEUE_INACT)


def windows_open(conf, now=None):
    """Are the queue's DISPATCH_WINDOW and RUN_WINDOW open (the same pure
    test the controller makes; windows as the controller saved them)?"""
    now = time.time() if now is None else now
    return all(timewindow.is_open(conf.get(key), now)
               for key in ("dispatch_window", "run_window"))


# Where each index's value ends in a threshold row (volclava's
# printThresholds: each cell's width, then the blanks after its value).
_CELLS = (6, 6, 6, 5, 8, 6, 5, 6, 7, 7, 7)
_TRAIL = (2, 2, 2, 1, 1, 1, 1, 1, 2, 2, 2)


def _threshold_text(name, value):
    if value is None:
        return "-"
    if name == "ut":
        return f"{value * 100:.0f}%"
    if name in ("tmp", "swp", "mem"):
        return units.load_memory(value)     # 512M, 36G as lsload shows
    if name in ("r15s", "r1m", "r15m", "pg"):
        return f"{value:.1f}"
    return f"{value:g}"


def threshold_rows(thresholds):
    """The ``loadSched`` and ``loadStop`` rows of LSF's threshold table."""
    rows = []
    for label, which in ((" loadSched", loadthresh.SCHED),
                         (" loadStop ", loadthresh.STOP)):
        values = loadthresh.cells(thresholds or {}, which)
        rows.append(label + "".join(
            f"{_threshold_text(n, v):>{w - t}}" + " " * t
            for n, v, w, t in zip(loadthresh.INDICES, values, _CELLS,
                                  _TRAIL)))
    return rows


def _limits(conf, long=False):
    pjob = conf.get("pjob_limit")
    if pjob is not None:
        pjob = f"{pjob:.1f}" if long else f"{pjob:.0f}"
    return (num(conf.get("qjob_limit"), 4) + num(conf.get("ujob_limit"), 4) +
            num(pjob, 4) + num(conf.get("hjob_limit"), 4))


def short_line(queue, counts, wide=False):
    c = _counts(counts, queue["name"])
    prio = f"{queue['priority']:>3} "
    if wide:
        head = lcell(queue["name"], 15) + lcell(prio, 4) + \
            lcell(status(queue), 14)
    else:
        head = cell(cut_front(queue["name"], 15), 15) + cell(prio, 4) + \
            cell(status(queue), 14)
    return (head + _limits(queue["conf"]) +
            f"{c['njobs']:>5} {c['pend']:>5} {c['run']:>5} "
            f"{c['ssusp'] + c['ususp']:>5}")


def short_table(queues, counts, wide=False):
    return "\n".join([HEADER] + [short_line(q, counts, wide) for q in queues])


def long_blocks(queues, counts, shares=None, n_default=None, unit="KB"):
    """Every queue's -l block, separated by LSF's dashed line; *shares*
    gives the fairshare lines of a queue (see shares.py); *n_default*:
    how many queues of the cluster are default queues (those shown when
    not given); *unit*: LSF_UNIT_FOR_LIMITS, MEMLIMIT's unit."""
    if n_default is None:
        n_default = default_count(queues)
    blocks = [_long_block(q, counts, n_default, shares, unit)
              for q in queues]
    return "\n" + f"\n{SEPARATOR}\n\n".join(blocks)


def default_count(queues):
    return sum(1 for q in queues if q["conf"].get("default"))


def _long_block(queue, counts, n_default, shares=None, unit="KB"):
    conf = queue["conf"]
    c = _counts(counts, queue["name"])
    desc = f"  -- {conf.get('description') or ''}"
    if conf.get("default"):
        desc += ("  This is the default queue." if n_default == 1 else
                 "  This is one of the default queues.")
    nice = conf.get("nice") or 0
    stats = (f"{queue['priority']:>3}  " + f"{nice:>3}  " +
             cell(status(queue, long=True), 14) + _limits(conf, long=True) +
             f"{c['njobs']:>5} {c['pend']:>5} {c['run']:>5} "
             f"{c['ssusp']:>5} {c['ususp']:>5} {c.get('rsv', 0):>4}")
    out = [f"QUEUE: {queue['name']}", desc, "", "PARAMETERS/STATISTICS",
           LONG_HEADER, stats.rstrip()]
    out += _limit_lines(conf, unit)
    out += ["", "SCHEDULING PARAMETERS", LOAD_HEADER] + \
        threshold_rows(conf.get("thresholds"))
    out += _policy_lines(conf)
    spec = (conf.get("lsf") or {}).get("DEFAULT_HOST_SPEC")
    if str(spec or "").strip() not in ("", "-"):    # its normalising host
        out += ["", f"DEFAULT HOST SPECIFICATION:  {spec}"]
    for key in ("RUN_WINDOW", "DISPATCH_WINDOW"):
        text = timewindow.show((conf.get("lsf") or {}).get(key))
        if text:
            out += ["", f"{key}: {text}"]
    out += shares(queue) if shares else []
    out += ["", "USERS:  " + _members(conf, "users")]
    out.append("HOSTS:  " + _members(conf, "hosts"))
    out += _command_lines(conf)
    res_req = (conf.get("lsf") or {}).get("RES_REQ")
    if res_req:
        out.append(f"RES_REQ:  {' '.join(str(res_req).split())}")
    if conf.get("requeue"):               # REQUEUE_EXIT_VALUES, checked
        out.append(f"REQUEUE_EXIT_VALUES:  {conf['requeue']}")
    if str((conf.get("lsf") or {}).get("RERUNNABLE", "")).strip().lower() \
            in ("y", "yes", "true"):
        out.append("RERUNNABLE :  yes")
    if conf.get("slot_reserve_seconds"):
        out.append("Maximum slot reservation time: "
                   f"{conf['slot_reserve_seconds']} seconds")
    if conf.get("comment"):               # badmin qclose ... -C comment
        out.append(f"ADMIN ACTION COMMENT: {conf['comment']}")
    out += _control_lines(conf)
    return "\n".join(x.rstrip() for x in out) + "\n"


def _members(conf, key):
    """USERS or HOSTS as configured (groups followed by '/'), as LSF
    shows them; the members of a row saved before it kept that; all."""
    words = conf.get("shown_" + key) or conf.get(key)
    return " ".join(words) if words else "all"


def _command_lines(conf):
    """ADMINISTRATORS and the queue's pre- and post-execution commands as
    configured, after HOSTS as LSF prints them."""
    out = []
    if conf.get("admins"):
        out.append("ADMINISTRATORS:  " + " ".join(conf["admins"]))
    commands = conf.get("exec_commands") or {}
    for key in ("PRE_EXEC", "POST_EXEC", "HOST_PRE_EXEC", "HOST_POST_EXEC"):
        if commands.get(key):
            out.append(f"{key}:  {commands[key]}")
    return out


def _control_lines(conf):
    """RESUME_COND, STOP_COND, the JOB_CONTROLS block and TERMINATE_WHEN,
    in LSF's order and layout."""
    out = []
    for key in ("resume_cond", "stop_cond"):
        if conf.get(key):
            out.append(f"{key.upper()}:  {conf[key]}")
    starter = (conf.get("exec_commands") or {}).get("JOB_STARTER")
    if starter:
        out.append(f"JOB_STARTER:  {starter}")
    controls = conf.get("job_controls") or {}
    if controls:
        out += ["", "JOB_CONTROLS:"]
        out += [f"    {action + ':':<9}    [{controls[action]}]"
                for action in ("SUSPEND", "RESUME", "TERMINATE")
                if action in controls]
    if conf.get("terminate_when"):
        out += ["", "TERMINATE_WHEN = " + " ".join(conf["terminate_when"])]
    return out


def _policy_lines(conf):
    """SCHEDULING POLICIES (BACKFILL, FAIRSHARE, EXCLUSIVE, PREEMPTIVE,
    PREEMPTABLE) and the
    PREEMPTION value as configured."""
    names = ["BACKFILL"] if conf.get("backfill") else []
    names += ["FAIRSHARE"] if (conf.get("lsf") or {}).get("FAIRSHARE") \
        else []
    names += ["EXCLUSIVE"] if conf.get("exclusive") else []
    names += queueaccept.policy_names(conf)
    preemption = conf.get("preemption") or ""
    names += [w for w in ("PREEMPTIVE", "PREEMPTABLE")
              if w in preemption.upper()]
    if not names:
        return []
    out = ["", "SCHEDULING POLICIES:  " + "  ".join(names)]
    if preemption:
        out.append(f"PREEMPTION = {preemption}")
    return out


def _limit_lines(conf, unit="KB"):
    """DEFAULT LIMITS / MAXIMUM LIMITS in LSF's run-limit and memory rows."""
    # RUNLIMIT's values each with its normalising host or model.
    run = list(zip(conf.get("runlimit") or [None, None],
                   conf.get("runlimit_hosts") or [None, None]))
    mem = conf.get("memlimit") or [None, None]
    others = conf.get("rlimits") or {}
    out = []
    # One configured value means (v, v): only a separate default is shown.
    if run[0] != run[1] or mem[0] != mem[1] or \
            any(pair[0] != pair[1] for pair in others.values()):
        defaults = {k: pair[0] for k, pair in others.items()
                    if pair[0] != pair[1]}
        out += ["", "DEFAULT LIMITS:"] + _limit_rows(run[0], mem[0],
                                                     defaults, unit=unit)
        out += ["", "MAXIMUM LIMITS:"]
    # TASKLIMIT (minimum, default, maximum as configured) once, with the
    # maximum limits.
    out += _limit_rows(run[1], mem[1],
                       {k: pair[1] for k, pair in others.items()},
                       limits.configured_tasks(conf.get("lsf") or {}),
                       unit=unit)
    return out


def _limit_rows(run, mem_kb, others=None, tasks=None, unit="KB"):
    """CPULIMIT, RUNLIMIT, TASKLIMIT, MEMLIMIT and the row of the other
    limits; *run* and the CPU limit of *others* (spec key -> value) are
    (minutes, normalising host or None)."""
    others = dict(others or {})
    cpu = others.pop("cpulimit", None)
    out = limits.cpu_lines(*cpu) if cpu else []
    if run[0] is not None:
        out += limits.time_lines("RUNLIMIT", *run)
    out += limits.task_lines(tasks)
    if mem_kb is not None:
        out += ["", " MEMLIMIT", " " + units.in_limit_unit(mem_kb, unit)]
    return out + limits.row_lines(others, unit=unit)
