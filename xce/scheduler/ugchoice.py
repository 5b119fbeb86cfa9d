"""lsb.params ENFORCE_ONE_UG_LIMITS: which user-group limits hold a job.

By default (N) a job is under the limits of every user group its user is
in, so the strictest of them holds it.  With Y, a job associated with a
group (bsub -G group, or DEFAULT_USER_GROUP) is under the limits placed
on that group and on the groups that hold it as a subgroup only, and a
job submitted with bsub -G "~group ..." is not under the limits of the
groups it excludes.  Limits placed on the user by name, on all users and
on other consumers (queues, projects, hosts) are not touched.

A limit is placed on a group when its users consumer (USERS, PER_USER,
an lsb.users group row) names the group; a limit naming both the user
and groups, or several groups, holds the job if the user is named or
any named group that holds the user is one the job's choice allows.
The live scheduler and ``xce sim`` both reach this through
xce.scheduler.limits.
"""

from dataclasses import dataclass

from xce.model import ugroupsel


@dataclass(frozen=True)
class GroupChoice:
    """The user groups whose limits a job is under: *allowed* (None: any
    group not excluded) minus *excluded*."""
    allowed: frozenset = None
    excluded: frozenset = frozenset()

    def allows(self, group):
        return group not in self.excluded and (
            self.allowed is None or group in self.allowed)


def choice(enforce, user_group=None, excluded=(), holders=()):
    """A job's GroupChoice, or None (every group's limits hold it):
    *enforce* is ENFORCE_ONE_UG_LIMITS in force, *user_group* the group
    the job is associated with, *excluded* its bsub -G ~groups, *holders*
    the groups that hold *user_group* as a subgroup (at any depth)."""
    if not enforce:
        return None
    if user_group:
        return GroupChoice(frozenset(holders) | {user_group})
    if excluded:
        return GroupChoice(None, frozenset(excluded))
    return None


def under(groups, direct, user, ug):
    """Whether a users consumer that names the user groups *groups*
    (((name, expanded members), ...)) and the users *direct* holds a job
    of *user* with GroupChoice *ug* (None: it does whenever it matches
    the user)."""
    if ug is None or not groups or user in direct:
        return True
    via = [name for name, members in groups
           if ugroupsel.names_user(members, user)]
    return not via or any(ug.allows(name) for name in via)

