"""bsub -m "host_list": the hosts a job may run on, and which it prefers.

Each word is a host or host group name, optionally followed by ``+`` and a
preference level (``+`` alone is level 1, no ``+`` level 0), or the keyword
``others`` (every host not named, at its own level).  Higher levels are
tried first; hosts of one level keep the scheduler's usual order.  A host
that is neither named nor covered by ``others`` is not used, with LSF's
per-host reason.  Pure: the syntax is xce.lang.hostlist's; the controller
checks the names against the configuration and expands the groups.
"""

from xce.lang.hostlist import OTHERS

R_NOT_ASKED = "Not specified in job submission"
# A host the job exited on with a bsub -Q / REQUEUE_EXIT_VALUES EXCLUDE()
# value: it is never dispatched there again.
R_EXCLUDED = "The job was requeued with an EXCLUDE exit value on this host"


class AskedHosts:
    """A job's -m list with its groups expanded: host -> level, and the
    level of every other host (None: other hosts are not used).  Jobs
    with the same list share one object, so the scheduler keys its
    per-pass candidate lists and failures by its identity."""

    __slots__ = ("levels", "others", "ranked", "excluded")

    def __init__(self, levels, others=None, excluded=()):
        self.levels = dict(levels)
        self.others = others
        self.excluded = frozenset(excluded)
        used = set(self.levels.values())
        if others is not None:
            used.add(others)
        # Only a list with two levels changes the order hosts are tried in.
        self.ranked = len(used) > 1

    def allows(self, name):
        return name not in self.excluded and \
            (name in self.levels or self.others is not None)

    def why_not(self, name):
        """Why the job may not use host *name*; None when it may."""
        if name in self.excluded:
            return R_EXCLUDED
        return None if self.allows(name) else R_NOT_ASKED

    def level(self, name):
        found = self.levels.get(name)
        return self.others if found is None else found

    def __repr__(self):
        return f"AskedHosts({self.levels!r}, others={self.others!r}, " \
            f"excluded={sorted(self.excluded)!r})"


def without(found, excluded):
    """*found* (an AskedHosts, or None: any host) less the hosts in
    *excluded*."""
    if found is None:
        return AskedHosts({}, 0, excluded)
    return AskedHosts(found.levels, found.others,
                      found.excluded | frozenset(excluded))


def expand(pairs, hosts, groups):
    """An AskedHosts from parsed pairs: *hosts* is every host name,
    *groups* maps a host group to its member host names.  A name named
    twice keeps its highest level.  Unknown names are the caller's to
    refuse (see unknown())."""
    levels, others = {}, None
    for name, level in pairs:
        if name == OTHERS:
            others = level if others is None else max(others, level)
            continue
        members = groups.get(name, [name] if name in hosts else [])
        for member in members:
            if member in hosts:
                levels[member] = max(level, levels.get(member, level))
    return AskedHosts(levels, others)


def unknown(pairs, hosts, groups):
    """The position of the first name that is neither a host, a host
    group nor others; None when every name is known."""
    for pos, (name, _) in enumerate(pairs):
        if name != OTHERS and name not in hosts and name not in groups:
            return pos
    return None
