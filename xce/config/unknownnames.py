"""Names a queue's HOSTS or a limit's QUEUES gives that the configuration
does not define (``HOSTS = apple`` with no host or host group apple), and
names a queue's or limit's USERS gives that are neither a user group of
the configuration nor a user or group of the system.

LSF warns about each when it reads the files (mbatchd start, badmin
reconfig and ckconfig) and leaves the name out; a name that is not there
matches nothing in xce either, so the value is kept and the same warning
is given: by xce-migrate, by badmin ckconfig and reconfig, at start.
Pure: takes the raw xce.yaml tree, returns ((section, owner, key),
message) pairs.
"""

import re

from xce.errors import text

# HOSTS words that are not names: LSF's keywords, and patterns (ranges,
# wildcards) that xce.config.hostnames expands.
_HOST_WORDS = {"all", "others", "none", "default"}
_PATTERN = re.compile(r"[\[\]*?@!:()]")


def _words(value):
    if value is None:
        return []
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def _host_name(word):
    """The host or group a HOSTS word names, or None for a keyword or a
    pattern: ``~h`` excludes h, ``h+2`` prefers it."""
    name = re.sub(r"\+[0-9]*$", "", word.lstrip("~"))
    if not name or name.lower() in _HOST_WORDS or _PATTERN.search(name):
        return None
    return name


def system_has(name):
    """True if *name* is a user or a group of this system."""
    import grp
    import pwd
    for lookup in (pwd.getpwnam, grp.getgrnam):
        try:
            lookup(name)
            return True
        except (KeyError, UnicodeError, ValueError):
            pass
    return False


def _users(owner, key, value, path, known):
    out = []
    for word in _words(value):
        name = word.lstrip("~").rstrip("@")
        if not name or name == "all" or _PATTERN.search(name) or \
                "\\" in name or name in known or system_has(name):
            continue
        out.append((path, text("CONFIG_UNKNOWN_NAME", owner=owner, key=key,
                               name=name, what="user or user group")))
    return out


def notices(raw):
    """Each unknown name, as ((section, owner, key), message)."""
    raw = raw if isinstance(raw, dict) else {}
    known_hosts = set(map(str, raw.get("hosts") or {})) | set(
        map(str, raw.get("host_groups") or {}))
    queues = raw.get("queues") or {}
    groups = set(map(str, raw.get("user_groups") or {}))
    out = []
    for qname, props in queues.items():
        if not isinstance(props, dict):
            continue
        out += _users(f"queue {qname}", "USERS", props.get("USERS"),
                      ("queues", qname, "USERS"), groups)
        for word in _words(props.get("HOSTS")):
            name = _host_name(word)
            if name is not None and name not in known_hosts:
                out.append((("queues", qname, "HOSTS"), text(
                    "CONFIG_UNKNOWN_NAME", owner=f"queue {qname}",
                    key="HOSTS", name=name, what="host or host group")))
    for index, limit in enumerate(raw.get("limits") or []):
        if not isinstance(limit, dict):
            continue
        label = f"limit {limit.get('NAME') or '#' + str(index + 1)}"
        for key in ("USERS", "PER_USER"):
            out += _users(label, key, limit.get(key),
                          ("limits", index, key), groups)
        for key in ("QUEUES", "PER_QUEUE"):
            for word in _words(limit.get(key)):
                name = word.lstrip("~")
                if name not in ("all",) and name not in map(str, queues):
                    out.append((("limits", index, key), text(
                        "CONFIG_UNKNOWN_NAME", owner=label, key=key,
                        name=name, what="queue")))
    return out
