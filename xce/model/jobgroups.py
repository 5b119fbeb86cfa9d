"""Job groups (bgadd, bsub -g): path rules and the hierarchical job limit.

Pure and stdlib-only: the controller, the scheduler, the simulator and the
commands share it.  A group is an absolute path; "/" is the root, which
has no limit.  A group's JOB_LIMIT (bgadd -L) caps the started jobs (RUN,
SSUSP, USUSP) of the group and all its subgroups, so a job may start only
when every group on its path has room.
"""

import re

ROOT = "/"
MAX_LIMIT = 2147483647
# LSF 10.1: letters, digits, '_', '-' and '.' in each component.
_PATH = re.compile(r"(/[A-Za-z0-9_.-]+)+")


def valid(path):
    """True for an absolute group path other than the root."""
    return bool(path) and _PATH.fullmatch(path.rstrip("/") or "x") is not None


def normal(path):
    """The path without a trailing slash (the root stays "/")."""
    return path.rstrip("/") or ROOT


def chain(path):
    """The groups a job in *path* belongs to, top first: /a/b -> /a, /a/b."""
    parts = normal(path).strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1)] \
        if parts != [""] else []


def is_under(path, top):
    """True if *path* is *top* or one of its subgroups."""
    top = normal(top)
    return top == ROOT or path == top or path.startswith(top + "/")


def room(limits, running):
    """{group: jobs it may still start} for the groups with a limit.

    limits: {group: JOB_LIMIT or None}; running: {group of a job: started
    jobs directly in it}.  A job counts against its group and every
    ancestor."""
    left = {g: n for g, n in limits.items() if n is not None}
    if not left:
        return {}
    for group, n in running.items():
        for g in chain(group):
            if g in left:
                left[g] -= n
    return left


def substitute(template, user, queue, project, app=""):
    """DEFAULT_JOBGROUP's %u %q %p %a %% (LSF 10.1's simple ones)."""
    out, i = [], 0
    values = {"u": user, "q": queue, "p": project or "default", "a": app,
              "%": "%"}
    while i < len(template):
        c = template[i]
        if c == "%" and i + 1 < len(template) and template[i + 1] in values:
            out.append(values[template[i + 1]] or "")
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)
