"""busers, bugroup, bmgroup, bapp and blimits: tables from the store.

The controller keeps the configuration sections these commands need
(``users``, ``user_groups``, ``host_groups``, ``limits``, ``applications``)
as one JSON document in the store's ``meta`` table (``config_sections``).
Widths follow openlava's busers.c/bmgroup.c (reference section 4.4).
"""

import json
import pwd

from xce.client.info import cell, lcell, line, num, rcell
from xce.errors import XceError

BUSERS_HEADER = line(cell("USER/GROUP", 18), rcell("JL/P", 5),
                     rcell("MAX", 6), rcell("NJOBS", 6), rcell("PEND", 6),
                     rcell("RUN", 6), rcell("SSUSP", 6), rcell("USUSP", 6),
                     rcell("RSV", 6))
_UNFINISHED = ("PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN")


def sections(reader):
    """The stored configuration sections, each {} (or []) when absent."""
    raw = reader.meta().get("config_sections")
    data = json.loads(raw) if raw else {}
    return {k: data.get(k) or ([] if k == "limits" else {})
            for k in ("users", "user_groups", "host_groups", "limits",
                      "applications", "service_classes")}


def group_members(groups, name):
    """Members of a user or host group: a list of words."""
    value = groups.get(name)
    if isinstance(value, dict):
        value = value.get("members") or value.get("GROUP_MEMBER")
    if value is None:
        return []
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def expand(groups, name, seen=()):
    """Every plain member of *name*, subgroups expanded."""
    out = []
    for m in group_members(groups, name):
        if m in groups and m not in seen:
            out += [x for x in expand(groups, m, seen + (name,))
                    if x not in out]
        elif m not in out:
            out.append(m)
    return out


# -- busers -------------------------------------------------------------------
def user_counts(reader):
    """user -> {stat: slots} over the unfinished jobs."""
    cur = reader.db.execute(
        "SELECT user, stat, SUM(nslots) FROM jobs WHERE stat NOT IN "
        "('DONE','EXIT') GROUP BY user, stat")
    counts = {}
    for user, stat, slots in cur:
        counts.setdefault(user, {})[stat] = slots or 0
    return counts


def _known_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except (KeyError, ValueError):      # ValueError: a NUL in the name
        return False


def busers_names(asked, me, sec, counts):
    """The rows busers prints: the caller, named users/groups, or all."""
    if not asked:
        return [me]
    if "all" in asked:
        names = set(counts) | {u for u in sec["users"] if u != "default"}
        names |= set(sec["user_groups"])
        return sorted(names)
    for name in asked:
        if name not in sec["user_groups"] and name not in sec["users"] \
                and name not in counts and not _known_user(name):
            raise XceError(f"{name}: Unknown user")
    return list(asked)


def busers_row(name, sec, counts, wide):
    conf = sec["users"].get(name) or {}
    members = expand(sec["user_groups"], name) \
        if name in sec["user_groups"] else [name]
    per = {}
    for m in members:
        for stat, n in counts.get(m, {}).items():
            per[stat] = per.get(stat, 0) + n
    pend = per.get("PEND", 0) + per.get("PSUSP", 0)
    run = per.get("RUN", 0) + per.get("UNKWN", 0)
    ssusp, ususp = per.get("SSUSP", 0), per.get("USUSP", 0)
    jlp = conf.get("JL/P")
    jlp = f"{float(jlp):>5.1f} " if jlp not in (None, "-", "") else num(None, 5)
    mx = conf.get("MAX_JOBS")
    head = (lcell if wide else cell)(name, 18)
    return line(head, jlp, num(None if mx in (None, "-", "") else mx, 6),
                f"{pend + run + ssusp + ususp:>6} {pend:>6} {run:>6} "
                f"{ssusp:>6} {ususp:>6} {0:>6}")


def busers_table(reader, asked, me, wide=False):
    sec = sections(reader)
    counts = user_counts(reader)
    names = busers_names(asked, me, sec, counts)
    return "\n".join([BUSERS_HEADER] +
                     [busers_row(n, sec, counts, wide) for n in names])


# -- bugroup / bmgroup --------------------------------------------------------
def groups_table(reader, kind, asked, recursive=False, wide=False,
                 long_format=False):
    """bugroup (kind "user") or bmgroup (kind "host")."""
    groups = sections(reader)["user_groups" if kind == "user"
                              else "host_groups"]
    if not groups:
        raise XceError(f"No {kind} group defined in the system")
    for name in asked:
        if name not in groups:
            raise XceError(f"{name}: No such user/host group")
    names = list(asked) or list(groups)
    title = "USERS" if kind == "user" else "HOSTS"
    fit = (lambda s: f"{s:<12}") if wide else (lambda s: f"{s:<12.12}")
    rows = []
    for name in names:
        members = expand(groups, name) if recursive else \
            [m + "/" if m in groups else m
             for m in group_members(groups, name)]
        shown = " ".join(members) or ("all users" if kind == "user"
                                      else "all hosts used by the batch "
                                      "system")
        if members == ["all"]:
            shown = "all users" if kind == "user" else \
                "all hosts used by the batch system"
        if long_format:
            rows.append(f"GROUP_NAME:  {name}\n{title + ':':<12} {shown}\n")
        else:
            rows.append(line(fit(name), " ", shown))
    if long_format:
        return "\n".join(rows).rstrip("\n")
    return "\n".join([f"{'GROUP_NAME':<12.12}  {title}"] + rows)


# -- bapp ---------------------------------------------------------------------
BAPP_HEADER = line(cell("APPLICATION_NAME", 18), rcell("NJOBS", 6),
                   rcell("PEND", 6), rcell("RUN", 6), rcell("SUSP", 6))


def bapp_table(reader, asked, long_format=False, wide=False):
    apps = sections(reader)["applications"]
    if not apps:
        raise XceError("No application profiles found.")
    for name in asked:
        if name not in apps:
            raise XceError(f"{name}: No such application")
    names = list(asked) or list(apps)
    counts = _app_counts(reader)
    if long_format:
        return "\n".join(_bapp_long(n, apps[n] or {}, counts.get(n, {}))
                         for n in names).rstrip("\n")
    rows = [BAPP_HEADER]
    name_cell = lcell if wide else cell      # -w: names never cut
    for name in names:
        c = counts.get(name, {})
        rows.append(line(name_cell(name, 18), *_app_numbers(c)))
    return "\n".join(rows)


def _app_numbers(c):
    pend = c.get("PEND", 0) + c.get("PSUSP", 0)
    run = c.get("RUN", 0)
    susp = c.get("USUSP", 0) + c.get("SSUSP", 0)
    return (f"{pend + run + susp:>6} ", f"{pend:>6} ", f"{run:>6} ",
            f"{susp:>6} ")


def _app_counts(reader):
    """app -> {stat: slots}; a job names its profile with ``-app``."""
    counts = {}
    cur = reader.db.execute("SELECT stat, nslots, spec FROM jobs WHERE stat "
                            "NOT IN ('DONE','EXIT')")
    for stat, slots, spec in cur:
        app = json.loads(spec or "{}").get("app")
        if app:
            per = counts.setdefault(app, {})
            per[stat] = per.get(stat, 0) + (slots or 0)
    return counts


def _bapp_long(name, conf, counts):
    out = [f"APPLICATION NAME: {name}",
           f" -- {conf.get('DESCRIPTION') or 'No description provided.'}",
           "", "STATISTICS:", "   NJOBS     PEND      RUN     SUSP",
           "".join(f"{v.strip():>9}" for v in _app_numbers(counts)), ""]
    params = {k: v for k, v in conf.items() if k != "DESCRIPTION"}
    if params:
        out += ["PARAMETERS:", ""] + [f"{k} = {v}" for k, v in params.items()]
        out.append("")
    return "\n".join(out) + "\n"


# -- blimits ------------------------------------------------------------------
LIMIT_COLUMNS = ("SLOTS", "MEM", "TMP", "SWP", "JOBS")
SCOPE_COLUMNS = (("USERS", ("USERS", "PER_USER")),
                 ("QUEUES", ("QUEUES", "PER_QUEUE")),
                 ("HOSTS", ("HOSTS", "PER_HOST")),
                 ("PROJECTS", ("PROJECTS", "PER_PROJECT")))


def blimits_text(reader, names=(), wide=False):
    """Each configured limit with its scope and its limit values.  Where
    running jobs use a limit, one row per consumer in use shows
    ``used/limit`` as the controller last counted it (``limit_usage`` in
    the meta table); an unused limit shows ``-/limit``."""
    limits = [lim for lim in sections(reader)["limits"]
              if isinstance(lim, dict)]
    if names:
        limits = [lim for lim in limits if str(lim.get("NAME")) in names]
    if not limits:
        raise XceError("No resource usage found.")
    usage = _limit_usage(reader)
    head = line(cell("NAME", 18), cell("USERS", 12), cell("QUEUES", 12),
                cell("HOSTS", 12), cell("PROJECTS", 12),
                *[rcell(c, 10) for c in LIMIT_COLUMNS])
    rows = ["", "INTERNAL RESOURCE LIMITS:", "", head]
    text_cell = lcell if wide else cell      # -w: names and scopes never cut
    for i, lim in enumerate(limits):
        name = str(lim.get("NAME") or f"limit{i + 1}")
        for used in usage.get(name) or [None]:
            scope = [_scope(lim, keys, used) for _, keys in SCOPE_COLUMNS]
            values = [_limit_cell(lim.get(c), used, c)
                      for c in LIMIT_COLUMNS]
            rows.append(line(text_cell(name, 18),
                             *[text_cell(s, 12) for s in scope],
                             *[f"{v:>10} " for v in values]))
    return "\n".join(rows)


def _limit_usage(reader):
    """limit name -> its counters in use (dicts), from the meta table."""
    try:
        found = json.loads(reader.meta().get("limit_usage") or "[]")
    except ValueError:
        found = []
    out = {}
    for row in found:
        if isinstance(row, dict):
            out.setdefault(str(row.get("name")), []).append(row)
    return out


def _scope(lim, keys, used=None):
    if used is not None:
        # A PER_ limit counts each consumer: the row names the one in use.
        mine = used.get(keys[0].lower())
        if mine not in (None, "*"):
            return str(mine)
    for key in keys:
        value = lim.get(key)
        if value not in (None, ""):
            words = value if isinstance(value, str) else \
                " ".join(str(v) for v in value)
            return words + ("/" if key.startswith("PER_") else "")
    return "-"


_USED = {"SLOTS": "slots", "JOBS": "jobs", "MEM": "mem"}


def _limit_cell(value, used=None, column=None):
    if value in (None, ""):
        return "-"
    if used is None or column not in _USED:
        return f"-/{value}"
    amount = used.get(_USED[column]) or 0
    if isinstance(amount, float):
        amount = int(amount) if amount.is_integer() else round(amount, 1)
    return f"{amount}/{value}"
