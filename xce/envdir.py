"""Where a command finds its cluster: the environment directory.

``$XCE_ENVDIR``, else ``$LSF_ENVDIR``, else the installation's ``etc/``.
The controller writes an ``lsf.conf`` there (``KEY=value`` lines); commands
read it with this module alone, so no YAML parser is loaded on their path.
"""

import os
from pathlib import Path

from xce.errors import XceError

LSF_CONF = "lsf.conf"
# lsf.conf key, written by the controller, naming the spool directory.
SPOOL_KEY = "XCE_SPOOL_DIR"


def envdir():
    for var in ("XCE_ENVDIR", "LSF_ENVDIR"):
        value = os.environ.get(var)
        if value:
            return Path(value).resolve()
    return (Path(__file__).resolve().parent.parent / "etc")


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
        self.conf = read_lsf_conf(self.envdir / LSF_CONF)
        spool = self.conf.get(SPOOL_KEY) or os.environ.get(SPOOL_KEY)
        if not spool:
            raise XceError(
                f"Cannot find the cluster: {self.envdir / LSF_CONF} names no "
                f"{SPOOL_KEY} (has the controller been started?)")
        self.spool = Path(spool)

    @property
    def store_path(self):
        return self.spool / "store" / "xce.db"

    def setting(self, key, default=None):
        return os.environ.get(key) or self.conf.get(key, default)
