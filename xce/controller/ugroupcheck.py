"""bsub -G at submission: the user group a job is associated with, or
the groups it is excluded from (-G "~group ..."), checked against the
configuration, and an exclusion that leaves the job no account in its
fairshare queue refused (xce.scheduler.share_order acts on it)."""

from xce.config.lsf import hostnames
from xce.controller import limitconf
from xce.errors import text
from xce.model import ugroupsel


def check(ctl, spec, user, Rejected):
    """-G names what the configuration has (LSF refuses the job
    otherwise; *Rejected* is raised).  A value with tildes (from an esub's LSB_SUB_USER_GROUP
    or a raw request) is read as bsub reads it."""
    group = spec.get("user_group")
    if group and ("~" in group or len(group.split()) > 1):
        try:
            group, excluded = ugroupsel.parse(group)
        except ugroupsel.BadGroupOption as e:
            raise Rejected(text(e.key, str(e)))
        spec.pop("user_group")
        if excluded:
            spec["user_group_exclude"] = list(excluded) + list(
                spec.get("user_group_exclude") or ())
        if group:
            spec["user_group"] = group
    excluded = spec.get("user_group_exclude")
    if group and excluded:
        raise Rejected(text("UGROUP_MIXED", ugroupsel.shown(
            {"user_group_exclude": excluded}) + " " + group))
    if group:
        if group not in ctl.cfg.user_groups:
            raise Rejected(text("BAD_UGROUP", group))
        if not direct_member(ctl.cfg.user_groups[group], user) and \
                not ctl.is_admin(user):
            raise Rejected(text("UGROUP_MEMBER", group))
    for name in excluded or ():
        _check_excluded(ctl.cfg, name, user, Rejected)
    if excluded:
        spec["user_group_exclude"] = list(dict.fromkeys(excluded))


def _check_excluded(cfg, name, user, Rejected):
    """A group excluded with -G "~name": a user group the user belongs
    to, directly or through a subgroup (a middle node of a share tree is
    a group the user is in through one below it).  LSF documents no rule;
    a name that would exclude nothing is refused rather than ignored."""
    if not name or name not in cfg.user_groups:
        raise Rejected(text("BAD_UGROUP", "~" + str(name)))
    if user not in hostnames.expand([name], cfg.user_groups):
        raise Rejected(text("UGROUP_MEMBER", "~" + name))


def check_queue(cfg, q, spec, user, Rejected):
    """In a fairshare queue, the excluded groups must leave the user an
    account (fairshare.Policy.candidates); elsewhere they change nothing
    the scheduler does.  A reconfiguration can still take the last one
    away: the job then waits (share_order, R_NO_SHARE_ACCOUNT)."""
    excluded = spec.get("user_group_exclude")
    policy = limitconf.policy(cfg, q) if excluded else None
    if policy is not None and not policy.candidates(user, excluded):
        raise Rejected(text("UGROUP_EXCLUDED_ALL", queue=q.name))


def direct_member(members, user):
    """Whether *user* is a direct member of a user group whose members
    (lsb.users GROUP_MEMBER) are *members*: named there, or the group
    holds `all` and does not exclude the user (~user).  A member of a
    subgroup only is not: LSF's bsub -G takes a group the user is a
    direct member of."""
    return ugroupsel.names_user(members, user)
