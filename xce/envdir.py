"""Where a command finds its cluster: the environment directory.

As LSF's commands do: ``$XCE_ENVDIR``, else ``$LSF_ENVDIR``; run from a
checkout, its ``etc/``; else the system location, ``/etc/xce``, or, for a
site that kept LSF's path, the directory ``/etc/lsf.conf`` names as
``LSF_ENVDIR`` (or ``/etc`` itself).  Never a path inside the Python
installation: an installed command run by cron (``env -i``) finds the
cluster of the machine.  The controller writes an ``lsf.conf`` there
(``KEY=value`` lines); commands read it with this module alone, so no YAML
parser is loaded on their path.
"""

import os
from pathlib import Path

from xce.errors import XceError, text

LSF_CONF = "lsf.conf"
# lsf.conf key, written by the controller, naming the spool directory.
SPOOL_KEY = "XCE_SPOOL_DIR"


# The system location; a module attribute so tests can point it elsewhere.
SYSTEM_DIRS = (Path("/etc/xce"),)
LSF_SYSTEM_CONF = Path("/etc/lsf.conf")
CONFIG_FILE = "xce.yaml"


def envdir():
    for var in ("XCE_ENVDIR", "LSF_ENVDIR"):
        value = os.environ.get(var)
        if value:
            return Path(value).resolve()
    checkout = Path(__file__).resolve().parent.parent / "etc"
    if (checkout / CONFIG_FILE).is_file():
        return checkout             # a checkout: its embedded cluster
    return system_envdir()


def system_envdir():
    """``/etc/xce`` when it holds a cluster, else the directory
    ``/etc/lsf.conf`` names (LSF's own fallback), else ``/etc/xce``, which
    the "Cannot find the cluster" message then names."""
    for directory in SYSTEM_DIRS:
        if (directory / LSF_CONF).is_file() or \
                (directory / CONFIG_FILE).is_file():
            return directory
    if LSF_SYSTEM_CONF.is_file():
        named = read_lsf_conf(LSF_SYSTEM_CONF).get("LSF_ENVDIR")
        return Path(named) if named else LSF_SYSTEM_CONF.parent
    return SYSTEM_DIRS[0]


def read_lsf_conf(path):
    """Parse ``KEY=value`` lines; quotes around values are removed."""
    conf = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return conf
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        conf[key.strip()] = value
    return conf


class Site:
    """The paths and settings a command needs, read once per process."""

    def __init__(self, env_dir=None):
        self.envdir = Path(env_dir) if env_dir else envdir()
        conf = self.envdir / LSF_CONF
        self.conf = read_lsf_conf(conf)
        spool = self.conf.get(SPOOL_KEY) or os.environ.get(SPOOL_KEY)
        if not spool:
            key = "NO_CLUSTER_SPOOL" if conf.exists() else "NO_CLUSTER_CONF"
            raise XceError(text(key, conf=conf, key=SPOOL_KEY))
        self.spool = Path(spool)

    @property
    def store_path(self):
        return self.spool / "store" / "xce.db"

    def setting(self, key, default=None):
        return os.environ.get(key) or self.conf.get(key, default)
