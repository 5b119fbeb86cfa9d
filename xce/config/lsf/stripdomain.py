"""lsf.conf LSF_STRIP_DOMAIN: LSF shows and matches host names without
the listed domain suffixes (``.example.com:.lab.example.com``).

The migrator names each host without its suffix, its ``address`` keeping
the full name that SSH reaches, and writes the short name wherever the
configuration names the host (host groups, queues, limits, resource
locations, DEFAULT_HOST_SPEC), so xce's commands show the names LSF
showed.  Shell commands (shape ``raw``) are left as written.  A short
name that is already another host's is not taken: that host keeps its
full name, with a warning.
"""

import dataclasses
import re

from xce.config import keys

# xce.yaml section -> the key table scope of its owners' keys.
_SECTIONS = (("queues", "queue"), ("resources", "resource"))


def suffixes(value):
    """The domain suffixes of LSF_STRIP_DOMAIN, each with its leading dot."""
    return ["." + s.strip(".") for s in str(value).replace(":", " ").split()
            if s.strip(".")]


def short_names(names, ends):
    """{full name: short name} of the *names* ending in one of *ends*."""
    out = {}
    for name in names:
        for end in ends:
            if len(name) > len(end) and name.lower().endswith(end.lower()):
                out[name] = name[:-len(end)]
                break
    return out


def full_names(conf_file, hosts):
    """{short name: full name} of the *hosts* LSF_STRIP_DOMAIN shortens,
    so that a row naming a host as LSF shows it (lsb.hosts) finds it;
    a short name that is already another host's is left out."""
    conf = conf_file.sections[0] if conf_file else None
    item = conf.items.get("LSF_STRIP_DOMAIN") if conf else None
    if item is None:
        return {}
    return {short: full for full, short in
            short_names(hosts, suffixes(item.value)).items()
            if short not in hosts}


def apply(mig, conf_file):
    conf = conf_file.sections[0] if conf_file else None
    item = conf.items.get("LSF_STRIP_DOMAIN") if conf else None
    hosts = mig.tree.get("hosts")
    if item is None or not isinstance(hosts, dict):
        return
    renames = _renames(mig, item, hosts)
    if not renames:
        return
    pattern = re.compile(r"(?<![\w.-])(" + "|".join(
        re.escape(n) for n in sorted(renames, key=len, reverse=True)) +
        r")(?![\w.-])")

    def sub(value):
        if isinstance(value, str):
            return pattern.sub(lambda m: renames[m.group(1)], value)
        if isinstance(value, list):
            return [sub(v) for v in value]
        return value
    mig.tree["hosts"] = {renames.get(n, n): props
                         for n, props in hosts.items()}
    _move_paths(mig, renames)
    groups = mig.tree.get("host_groups") or {}
    for name in groups:
        groups[name] = sub(groups[name])
    for section, scope in _SECTIONS:
        for props in (mig.tree.get(section) or {}).values():
            if isinstance(props, dict):
                _sub_keys(props, scope, sub)
    for props in mig.tree.get("limits") or []:
        if isinstance(props, dict):
            _sub_keys(props, "limit", sub)
    params = mig.tree.get("parameters") or {}
    if "DEFAULT_HOST_SPEC" in params:
        params["DEFAULT_HOST_SPEC"] = sub(params["DEFAULT_HOST_SPEC"])


def _renames(mig, item, hosts):
    renames = short_names(hosts, suffixes(item.value))
    taken = set(hosts) - set(renames)
    for full, short in list(renames.items()):
        if short in taken:
            mig.warn(item.origin, f"host {full} keeps its full name: {short} "
                     "is another host's")
            del renames[full]
        else:
            taken.add(short)
    return renames


def _sub_keys(props, scope, sub):
    for key, value in props.items():
        if keys.lookup(scope, str(key)).shape != "raw":
            props[key] = sub(value)


def _move_paths(mig, renames):
    """The report's entries and origins follow the hosts' new names."""
    def moved(path):
        if path and len(path) > 1 and path[0] == "hosts" and \
                path[1] in renames:
            return ("hosts", renames[path[1]]) + tuple(path[2:])
        return path
    mig.origins = {moved(p): o for p, o in mig.origins.items()}
    mig.entries = [dataclasses.replace(e, path=moved(e.path))
                   if e.path is not None else e for e in mig.entries]
