"""Projects: who may charge work to which project, and which project a
job without -P gets.  Pure data, stdlib only (the controller checks a
submission with it; the scheduler's quotas use ``ancestors``).

A project is a plain name (``chem``) or a path (``/physics/cms/run3``):
the path's prefixes are its parents, and a parent's quota counts the
work of its whole subtree.  Membership is not inherited down the tree:
a member of ``/physics`` may not submit to ``/physics/cms`` unless that
project names them too, and one user may be a member of several
projects.  With no ``projects:`` section the cluster is open: any user
may name any project.
"""

import re
from dataclasses import dataclass, field

# One path segment, or a plain name: what a directory name may hold,
# without blanks, quotes or shell characters.
_SEGMENT = r"[A-Za-z0-9_][A-Za-z0-9_.+-]*"
NAME_RE = re.compile(rf"(/{_SEGMENT})+|{_SEGMENT}")
NAME_MAX = 511      # LSF's limit on a project name
QUOTA_KEYS = ("SLOTS", "JOBS", "MEM")
KEYS = ("DESCRIPTION", "MEMBERS", "DEFAULT_FOR", "MANAGERS") + QUOTA_KEYS
CLUSTER_DEFAULT = "default"


def valid_name(name):
    return len(name) <= NAME_MAX and NAME_RE.fullmatch(name) is not None


def ancestors(name):
    """The project and the projects above it, nearest first:
    ``/a/b/c`` -> ``/a/b/c``, ``/a/b``, ``/a``; a plain name is alone."""
    out = [name]
    while name.startswith("/") and name.count("/") > 1:
        name = name.rsplit("/", 1)[0]
        out.append(name)
    return out


@dataclass
class Project:
    name: str
    members: frozenset = None       # users and user groups; None: anyone
    default_for: tuple = ()         # users and user groups
    managers: frozenset = frozenset()   # users, groups expanded
    quota: dict = field(default_factory=dict)   # SLOTS/JOBS/MEM -> text


@dataclass
class Projects:
    """The configured projects, in the order the configuration lists
    them; ``cluster_default`` is DEFAULT_PROJECT (``default`` unset)."""
    table: dict = field(default_factory=dict)   # name -> Project
    cluster_default: str = CLUSTER_DEFAULT

    @property
    def defined(self):
        return bool(self.table)

    def refusal(self, user, name, groups_of):
        """None when *user* may charge a job to project *name*, else the
        catalogue key of the reason.  *groups_of(user)* is the set of the
        user groups the user belongs to (nested groups expanded)."""
        if not self.defined:
            return None
        project = self.table.get(name)
        if project is None:
            # The cluster default stays usable for everyone unless the
            # site defines it with its own members.
            return None if name == self.cluster_default else "BAD_PROJECT"
        if project.members is None or "all" in project.members:
            return None
        if user in project.members or project.members & groups_of(user):
            return None
        return "PROJECT_MEMBER"

    def managers_of(self, name):
        """The users who control the jobs of project *name*: the MANAGERS
        of it and of every project above it (its subtree is theirs)."""
        out = set()
        for up in ancestors(name or self.cluster_default):
            project = self.table.get(up)
            if project is not None:
                out |= project.managers
        return out

    def default_of(self, user, groups_of):
        """The project of a job submitted without -P and without
        LSB_DEFAULTPROJECT: the first project naming the user in its
        DEFAULT_FOR, else the first naming one of the user's groups,
        else the cluster default."""
        groups = None
        for project in self.table.values():
            if user in project.default_for:
                return project.name
        for project in self.table.values():
            if groups is None:
                groups = groups_of(user)
            if groups & set(project.default_for):
                return project.name
        return self.cluster_default
