"""bjobs filters on what a job is filed under: -m, -P, -G, -g, -app.

Each name is first checked against what the store knows, with LSF's
message; the filter is then one more SQL clause over the jobs table
(SQLite reads the submission's JSON and the host list itself).
"""

from xce.errbase import XceError, text
from xce.store.reader import SPEC

# spec key of each filter on the submission
_SPEC_KEYS = (("user_group", "user_group"), ("app", "app"))


class Filters:
    def __init__(self, host=None, project=None, user_group=None,
                 job_group=None, app=None):
        self.host, self.project, self.user_group = host, project, user_group
        self.job_group, self.app = job_group, app
        self.hosts = None           # -m expanded to host names

    def __bool__(self):
        return any((self.host, self.project, self.user_group,
                    self.job_group, self.app))

    def check(self, reader):
        """Refuse a name the cluster does not have (LSF's wording)."""
        if not self:
            return
        from xce.client.cluster.users import expand
        from xce.client.site import sections
        conf = sections(reader)
        if self.host:
            self.hosts = hosts_of(self.host, reader, conf["host_groups"],
                                   expand)
        if self.app and self.app not in conf["applications"]:
            raise XceError(text("APP_NULL", self.app))
        if self.user_group and self.user_group not in conf["user_groups"]:
            raise XceError(text("BAD_UGROUP", self.user_group))
        if self.job_group and not self.job_group.startswith("/"):
            raise XceError(text("BAD_JGROUP", self.job_group))

    def sql(self):
        """(clause, args) selecting the filed-under jobs in SQLite, which
        reads the submission's JSON itself: the table layouts then keep
        their few columns and no row is decoded in Python."""
        clauses, args = [], []
        if self.hosts is not None:
            # exec_hosts is one name per slot, blank-separated.
            clauses.append("(" + " OR ".join(
                ["(' ' || exec_hosts || ' ') GLOB ?"] * len(self.hosts))
                + ")" if self.hosts else "0")
            args += [f"* {_glob(h)} *" for h in sorted(self.hosts)]
        if self.project:
            clause, more = project_clause(self.project)
            clauses.append(clause)
            args += more
        for attr, key in _SPEC_KEYS:
            wanted = getattr(self, attr)
            if wanted:
                clauses.append(f"COALESCE(json_extract({SPEC}, '$.{key}'), ?)"
                               " = ?")
                args += ["", wanted]
        if self.job_group:
            # A group holds its subgroups' jobs too (/a shows /a/b's).
            clauses.append(f"(json_extract({SPEC}, '$.job_group') = ? OR "
                           f"json_extract({SPEC}, '$.job_group') GLOB ?)")
            top = self.job_group.rstrip("/")
            args += [self.job_group, _glob(top) + "/*"]
        return " AND ".join(clauses), args

    def suffix(self):
        """What LSF adds to "No ... job found" for a host filter."""
        return f" on host/group <{self.host}>" if self.host else ""


# A job submitted without -P is in the project "default", as -l shows it.
_PROJECT = f"COALESCE(json_extract({SPEC}, '$.project'), 'default')"


def project_clause(name):
    """(clause, args) of -P *name* (bjobs, bacct): the project's jobs and,
    for a path (/physics/cms), those of the projects below it, whose work
    it owns as its quota counts it (xce.model.projects)."""
    if not name.startswith("/") or name == "/":
        return f"{_PROJECT} = ?", [name]
    top = name.rstrip("/")
    return f"({_PROJECT} = ? OR {_PROJECT} GLOB ?)", [top, _glob(top) + "/*"]


def _glob(text):
    """*text* matched literally (and case-sensitively) by GLOB."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def hosts_of(name, reader, host_groups, expand):
    """-m: a host, a host group (its members expanded) or the cluster."""
    names = {h["name"] for h in reader.hosts()}
    if name in names:
        return {name}
    if name in host_groups:
        return set(expand(host_groups, name))
    if name in ("all", reader.meta().get("cluster")):
        return names
    raise XceError(text("BAD_HOST", name))
