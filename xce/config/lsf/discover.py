"""Find the files of an LSF configuration tree.

IBM layout: ``$LSF_ENVDIR/lsf.conf``, ``lsf.shared`` and
``lsf.cluster.<name>`` in ``LSF_CONFDIR`` (usually the same directory), and
the batch files in ``lsbatch/<name>/configdir/`` (``LSB_CONFDIR``).  OpenLava
packages and many repositories keep everything in one flat directory, and
stock trees carry autoconf (``.in``) or Chef (``.erb``) templates instead of
the installed files; all of these are accepted.
"""

import glob
import os

# Tried in this order after the plain name.
TEMPLATE_SUFFIXES = (".in", ".erb")
BATCH_FILES = ("lsb.params", "lsb.queues", "lsb.hosts", "lsb.users",
               "lsb.resources", "lsb.applications", "lsb.modules")
_CLUSTER_PREFIX = "lsf.cluster"


def find_file(dirs, name):
    """First existing *name* (or its template) in *dirs*, else None.

    A dangling link counts as present, so that reading it reports an error
    instead of the file silently missing.
    """
    for directory in dirs:
        for suffix in ("",) + TEMPLATE_SUFFIXES:
            path = os.path.join(directory, name + suffix)
            if os.path.lexists(path):
                return path
    return None


def cluster_files(dirs):
    """[(path, cluster name from the file name or None)] in *dirs*."""
    found, seen = [], set()
    for directory in dirs:
        for path in sorted(glob.glob(os.path.join(directory,
                                                  _CLUSTER_PREFIX + "*"))):
            name = _cluster_name(os.path.basename(path))
            if name is False or path in seen or os.path.isdir(path):
                continue
            seen.add(path)
            found.append((path, name))
    return found


def _cluster_name(basename):
    """Cluster name in ``lsf.cluster.<name>[.in|.erb]``; None when the file
    is a nameless template; False for files that are not cluster files."""
    rest = basename[len(_CLUSTER_PREFIX):]
    if rest in TEMPLATE_SUFFIXES:
        return None
    if not rest.startswith(".") or rest.endswith(("~", ".bak", ".orig")):
        return False
    name = rest[1:]
    for suffix in TEMPLATE_SUFFIXES:
        if name.endswith(suffix):
            name = name[:-len(suffix)]
    return name or None


def pick_cluster_file(candidates, wanted):
    """The candidate for cluster *wanted*, else the only/first one."""
    for path, name in candidates:
        if wanted and name == wanted:
            return path, name
    return candidates[0] if candidates else (None, None)


def config_dirs(root, conf):
    """Directories that may hold lsf.shared and lsf.cluster.<name>."""
    dirs = [root]
    confdir = conf.get("LSF_CONFDIR")
    if confdir and os.path.isdir(confdir):
        dirs.append(confdir)
    return _unique(dirs)


def batch_dirs(root, conf, cluster):
    """Directories that may hold the lsb.* files, most specific first."""
    dirs = []
    lsb_confdir = conf.get("LSB_CONFDIR")
    parents = [os.path.join(root, "lsbatch")]
    if lsb_confdir and os.path.isdir(lsb_confdir):
        parents.insert(0, lsb_confdir)
    for parent in parents:
        if cluster:
            dirs.append(os.path.join(parent, cluster, "configdir"))
        dirs.extend(sorted(glob.glob(os.path.join(parent, "*", "configdir"))))
    dirs.append(root)
    if lsb_confdir and os.path.isdir(lsb_confdir):
        dirs.append(lsb_confdir)
    return _unique(d for d in dirs if os.path.isdir(d))


def _unique(paths):
    seen, result = set(), []
    for path in paths:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            result.append(path)
    return result
