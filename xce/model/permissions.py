"""Who may do what to a job: one table, as LSF defines it (pure).

Each action (a command, or one of its options) names the roles that may
take it on another user's job or see it.  The job's owner is always named
explicitly, because for a few actions (attachments, jobs chosen by name)
not even an administrator may stand in for the owner.

Roles:
  OWNER          the user who submitted the job
  QUEUE_ADMIN    a user in the ADMINISTRATORS of the job's queue
  GROUP_ADMIN    a user in the GROUP_ADMIN of a user group the job's
                 owner is a member of
  PROJECT_ADMIN  a user in the MANAGERS of the job's project or of a
                 project above it (xce.yaml projects:)
  CLUSTER_ADMIN  root and the cluster's admins (cluster.admins)
  ANYONE         every user

Actions are enforced by the controller (the requester is the owner of the
request's spool file); reads by the commands, which open the store
read-only.  Every user may read the store file, so what a read must keep
from other users is kept by file modes as well: attached files live apart,
readable by their owner only, and bpeek opens output files with the
caller's own rights.  xce.yaml(5), PERMISSIONS, prints this table.
"""

OWNER = "owner"
QUEUE_ADMIN = "queue admin"
GROUP_ADMIN = "user group admin"
PROJECT_ADMIN = "project manager"
CLUSTER_ADMIN = "cluster admin"
ANYONE = "anyone"

_JOB_CONTROL = (OWNER, QUEUE_ADMIN, GROUP_ADMIN, PROJECT_ADMIN,
                CLUSTER_ADMIN)
_READ = (ANYONE,)

# action -> (roles, what LSF says about it).  Reads follow LSF's default
# SECURE_JOB_INFO_LEVEL=0: every user sees every job's details.
TABLE = {
    "bkill": (_JOB_CONTROL, "kill or signal a job (bkill, bkill -s)"),
    "bstop": (_JOB_CONTROL, "suspend a job"),
    "bresume": (_JOB_CONTROL, "resume a suspended job (its owner not one "
                "an administrator stopped, unless ENABLE_USER_RESUME=Y)"),
    "bmod": (_JOB_CONTROL, "change a job's options"),
    "bswitch": (_JOB_CONTROL, "move a job to another queue "
                "(queue administrator: of the job's queue)"),
    "brequeue": (_JOB_CONTROL, "kill and requeue a job"),
    "btop": (_JOB_CONTROL, "move a pending job to the top of its queue"),
    "bbot": (_JOB_CONTROL, "move a pending job to the bottom of its queue"),
    "bpost": ((OWNER, CLUSTER_ADMIN), "post a message to a job"),
    "bpost -a": ((OWNER,), "attach a file to a job's message "
                 "(not even an administrator, for another user's job)"),
    "bstatus -d": ((OWNER, CLUSTER_ADMIN), "set a job's external status "
                   "(bpost -i 0)"),
    "bread": (_READ, "read a job's messages"),
    "bread -a": ((OWNER,), "copy a message's attached file "
                 "(not even an administrator, for another user's job)"),
    "bstatus": (_READ, "read a job's external status"),
    "bpeek": ((OWNER, CLUSTER_ADMIN), "show a running job's output so far "
              "(read with the caller's own file rights as well)"),
    "bjobs -l": (_READ, "a job's details"),
    "bhist -l": (_READ, "a job's history"),
    "bacct -l": (_READ, "a finished job's accounting"),
    "bjdepinfo": (_READ, "a job's dependencies"),
    "xce explain": ((OWNER, CLUSTER_ADMIN), "why a job pends"),
    "blaunch": ((OWNER, CLUSTER_ADMIN), "start tasks in a running job's "
                "allocation"),
}

class UnknownAction(KeyError):
    pass


def roles_of(action):
    try:
        return TABLE[action][0]
    except KeyError:
        raise UnknownAction(action) from None


def may(action, user, owner, cluster_admins=(), queue_admins=(),
        project_managers=(), group_admins=()):
    """May *user* take *action* on a job of *owner*?  *cluster_admins*:
    root is always one; *queue_admins*: those of the job's queue;
    *project_managers*: those of the job's project and the ones above;
    *group_admins*: those of the user groups *owner* is a member of."""
    roles = roles_of(action)
    if ANYONE in roles or (OWNER in roles and user == owner):
        return True
    if CLUSTER_ADMIN in roles and (user == "root" or user in cluster_admins):
        return True
    if PROJECT_ADMIN in roles and user in project_managers:
        return True
    if GROUP_ADMIN in roles and user in group_admins:
        return True
    return QUEUE_ADMIN in roles and user in queue_admins


def table_rows():
    """(action, "who may", description) for the man page and the tests."""
    return [(action, ", ".join(roles), why)
            for action, (roles, why) in TABLE.items()]
