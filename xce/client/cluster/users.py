"""busers, bugroup and bmgroup: users, user groups and host groups.

The controller keeps the configuration sections these commands need
(``users``, ``user_groups``, ``host_groups``) in the store (see
``xce.client.site.sections``).  Widths follow openlava's busers.c/bmgroup.c
(reference section 4.4).
"""

import pwd

from xce.client.site import sections
from xce.client.text.cells import cell, lcell, line, num, rcell
from xce.errors import XceError, about, text

BUSERS_HEADER = line(cell("USER/GROUP", 18), rcell("JL/P", 5),
                     rcell("MAX", 6), rcell("NJOBS", 6), rcell("PEND", 6),
                     rcell("RUN", 6), rcell("SSUSP", 6), rcell("USUSP", 6),
                     rcell("RSV", 6))
_UNFINISHED = ("PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN")


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
    """user -> {stat: slots} over the unfinished jobs, and under "RSV"
    the slots reserved for the user's pending jobs (SLOT_RESERVE)."""
    counts = reader.user_counts()
    held = reader.reservations()
    if held:
        owners = {(j["jobid"], j["idx"]): j["user"] for j in reader.jobs(
            "stat = 'PEND'", columns=("jobid", "idx", "user"),
            readonly=True)}
        for key, r in held.items():
            user = owners.get(key)
            if user is not None:
                per = counts.setdefault(user, {})
                per["RSV"] = per.get("RSV", 0) + sum(r["hosts"].values())
    return counts


def _known_user(name):
    try:
        pwd.getpwnam(name)
        return True
    except (KeyError, ValueError):      # ValueError: a NUL in the name
        return False


def check_user(reader, name, has_jobs=False):
    """-u of bjobs and bqueues: a user of this system, a user group or
    user row of the configuration or, with *has_jobs*, a name that owns
    jobs the store keeps; anything else is LSF's "<name>: Unknown user"
    (its job and queue queries' bad-user error)."""
    conf = sections(reader)
    if name in conf["user_groups"] or name in conf["users"] or \
            _known_user(name):
        return
    if has_jobs and reader.jobs("user=?", (name,), ("jobid",)):
        return
    raise XceError(about(name, "UNKNOWN_USER"))


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
            raise XceError(about(name, "UNKNOWN_USER"))
    return list(asked)


def _limit(value):
    return None if value in (None, "-", "") else value


def own_limits(name, sec):
    """MAX_JOBS and JL/P (or None) that limit *name*'s own slots: its own
    row; without one (a user), the tightest of the group@ rows of its
    groups or, when none names it, the default row (lsb.users(5): default
    is for each user no row names), as the scheduler enforces."""
    users = sec["users"]
    if name in users or name in sec["user_groups"]:
        row = users.get(name) or {}
        return _limit(row.get("MAX_JOBS")), _limit(row.get("JL/P"))
    rows = [row for key, row in users.items() if key.endswith("@")
            and name in expand(sec["user_groups"], key[:-1])]
    if not rows and "default" in users:
        rows = [users["default"]]
    found = []
    for key, kind in (("MAX_JOBS", int), ("JL/P", float)):
        values = []
        for row in rows:
            try:
                values.append(kind(_limit((row or {}).get(key))))
            except (TypeError, ValueError):
                pass            # not set (or the configuration check says)
        found.append(min(values) if values else None)
    return tuple(found)


def busers_row(name, sec, counts, wide):
    mx, jlp = own_limits(name, sec)
    members = expand(sec["user_groups"], name) \
        if name in sec["user_groups"] else [name]
    per = {}
    for m in members:
        for stat, n in counts.get(m, {}).items():
            per[stat] = per.get(stat, 0) + n
    pend = per.get("PEND", 0) + per.get("PSUSP", 0)
    run = per.get("RUN", 0) + per.get("UNKWN", 0)
    ssusp, ususp = per.get("SSUSP", 0), per.get("USUSP", 0)
    rsv = per.get("RSV", 0)
    jlp = f"{float(jlp):>5.1f} " if jlp is not None else num(None, 5)
    head = (lcell if wide else cell)(name, 18)
    return line(head, jlp, num(mx, 6),
                f"{pend + run + ssusp + ususp:>6} {pend:>6} {run:>6} "
                f"{ssusp:>6} {ususp:>6} {rsv:>6}")


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
    return groups_text(groups, kind, asked, recursive, wide, long_format)


def group_admins(groups, name):
    """A user group's GROUP_ADMIN as bugroup shows it: groups expanded to
    their users, each keeping the entry's rights (``lee[full]``)."""
    value = groups.get(name)
    value = value.get("GROUP_ADMIN") if isinstance(value, dict) else None
    if not value:
        return []
    out = []
    for word in value.split() if isinstance(value, str) else map(str, value):
        who, bracket, rights = word.partition("[")
        users = expand(groups, who) if who in groups else [who]
        for user in users:
            shown = user + bracket + rights
            if shown not in out:
                out.append(shown)
    return out


def _shares_line(props):
    """bugroup -l's SHARES line: how the group divides its fairshare
    shares (USER_SHARES), when it does."""
    from xce.model import fairshare
    value = props.get("USER_SHARES") if isinstance(props, dict) else None
    try:
        pairs = fairshare.parse_group(value)
    except fairshare.FairshareError:
        return ""
    shown = " ".join(f"[{n},{s:g}]" for n, s in pairs)
    return f"{'SHARES:':<12} {shown}\n" if pairs else ""


def groups_text(groups, kind, asked, recursive=False, wide=False,
                long_format=False):
    if not groups:
        raise XceError(text("NO_GROUPS", kind=kind))
    for name in asked:
        if name not in groups:
            raise XceError(about(name, "NO_SUCH_GROUP"))
    names = list(asked) or list(groups)
    title = "USERS" if kind == "user" else "HOSTS"
    fit = (lambda s: f"{s:<12}") if wide else (lambda s: f"{s:<12.12}")
    # The GROUP_ADMIN column, as LSF 10.1's bugroup, once a group has one.
    admins = {n: group_admins(groups, n) for n in names} \
        if kind == "user" else {}
    with_admins = any(admins.values())
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
            admin = (f"GROUP_ADMIN: {' '.join(admins[name])}\n"
                     if admins.get(name) else "")
            rows.append(f"GROUP_NAME:  {name}\n{title + ':':<12} {shown}\n"
                        + _shares_line(groups.get(name)) + admin)
        else:
            rows.append((fit(name), shown, " ".join(admins.get(name, ()))))
    if long_format:
        return "\n".join(rows).rstrip("\n")
    if with_admins:
        width = max([len(title)] + [len(r[1]) for r in rows])
        return "\n".join(
            [f"{'GROUP_NAME':<12.12}  {title:<{width}}  GROUP_ADMIN"] +
            [line(n, " ", f"{u:<{width + 1}}  {a}") for n, u, a in rows])
    rows = [line(n, " ", u) for n, u, _ in rows]
    return "\n".join([f"{'GROUP_NAME':<12.12}  {title}"] + rows)
