"""bjobs filters on what a job is filed under: -m, -P, -G, -g, -app, -sla.

The state and user filters are SQL (see jobquery); these read the job's
submission (the ``spec`` column) or its execution hosts, so they run over
the rows the SQL selected, and only when one of them is given.  Each name
is checked first against what the store knows, with LSF's message.
"""

import json

from xce.errors import XceError, text

# spec key of each filter on the submission
_SPEC_KEYS = (("project", "project"), ("user_group", "user_group"),
              ("app", "app"), ("sla", "sla"))


class Filters:
    def __init__(self, host=None, project=None, user_group=None,
                 job_group=None, app=None, sla=None):
        self.host, self.project, self.user_group = host, project, user_group
        self.job_group, self.app, self.sla = job_group, app, sla
        self.hosts = None           # -m expanded to host names

    def __bool__(self):
        return any((self.host, self.project, self.user_group,
                    self.job_group, self.app, self.sla))

    def check(self, reader):
        """Refuse a name the cluster does not have (LSF's wording)."""
        if not self:
            return
        from xce.client.info_more import expand, sections
        conf = sections(reader)
        if self.host:
            self.hosts = _hosts_of(self.host, reader, conf["host_groups"],
                                   expand)
        if self.app and self.app not in conf["applications"]:
            raise XceError(text("APP_NULL", self.app))
        if self.sla and self.sla not in conf["service_classes"]:
            raise XceError(text("SLA_NULL", self.sla))
        if self.user_group and self.user_group not in conf["user_groups"]:
            raise XceError(text("BAD_UGROUP", self.user_group))
        if self.job_group and not self.job_group.startswith("/"):
            raise XceError(text("BAD_JGROUP", self.job_group))

    def keep(self, rows):
        if not self:
            return rows
        return [r for r in rows if self._matches(r)]

    def _matches(self, row):
        if self.hosts is not None and \
                not self.hosts.intersection((row["exec_hosts"] or "").split()):
            return False
        spec = _spec(row)
        for attr, key in _SPEC_KEYS:
            wanted = getattr(self, attr)
            if wanted and (spec.get(key) or _DEFAULTS.get(key)) != wanted:
                return False
        if self.job_group:
            # A group holds its subgroups' jobs too (/a shows /a/b's).
            group = spec.get("job_group") or ""
            top = self.job_group.rstrip("/")
            if not (group == self.job_group or group.startswith(top + "/")):
                return False
        return True

    def suffix(self):
        """What LSF adds to "No ... job found" for a host filter."""
        return f" on host/group <{self.host}>" if self.host else ""


# A job submitted without -P is in the project "default", as -l shows it.
_DEFAULTS = {"project": "default"}


def _spec(row):
    try:
        return json.loads(row["spec"] or "{}")
    except ValueError:
        return {}


def _hosts_of(name, reader, host_groups, expand):
    """-m: a host, a host group (its members expanded) or the cluster."""
    names = {h["name"] for h in reader.hosts()}
    if name in names:
        return {name}
    if name in host_groups:
        return set(expand(host_groups, name))
    if name in ("all", reader.meta().get("cluster")):
        return names
    raise XceError(text("BAD_HOST", name))
