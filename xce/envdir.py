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


from xce import oslite
from xce.errbase import XceError, text

LSF_CONF = "lsf.conf"
# lsf.conf key, written by the controller, naming the spool directory.
SPOOL_KEY = "XCE_SPOOL_DIR"


# The system location; a module attribute so tests can point it elsewhere.
SYSTEM_DIRS = ("/etc/xce",)
LSF_SYSTEM_CONF = "/etc/lsf.conf"
CONFIG_FILE = "xce.yaml"


def _path(name):
    # pathlib loads re, fnmatch and urllib.parse, which cost a command that
    # only reads lsf.conf and spools a request more than all its own work:
    # this module works on strings and makes Paths when asked for them.
    from pathlib import Path
    return Path(name)


def envdir():
    return _path(envdir_name())


def envdir_name():
    """The environment directory (see envdir) as a string."""
    for var in ("XCE_ENVDIR", "LSF_ENVDIR"):
        value = oslite.getenv(var)
        if value:
            return oslite.realpath(value)
    here = oslite.dirname(oslite.realpath(__file__))
    checkout = oslite.join(oslite.dirname(here), "etc")
    if oslite.isfile(oslite.join(checkout, CONFIG_FILE)):
        return checkout             # a checkout: its embedded cluster
    return system_envdir_name()


def system_envdir():
    """``/etc/xce`` when it holds a cluster, else the directory
    ``/etc/lsf.conf`` names (LSF's own fallback), else ``/etc/xce``, which
    the "Cannot find the cluster" message then names."""
    return _path(system_envdir_name())


def system_envdir_name():
    for directory in SYSTEM_DIRS:
        if oslite.isfile(oslite.join(directory, LSF_CONF)) or \
                oslite.isfile(oslite.join(directory, CONFIG_FILE)):
            return oslite.fspath(directory)
    if oslite.isfile(LSF_SYSTEM_CONF):
        named = read_lsf_conf(LSF_SYSTEM_CONF).get("LSF_ENVDIR")
        return named or oslite.dirname(oslite.fspath(LSF_SYSTEM_CONF))
    return oslite.fspath(SYSTEM_DIRS[0])


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


def _no_spool(conf):
    """Why lsf.conf at CONF named no spool: it is missing, the user may not
    read it (a directory only root may enter), or it names none."""
    try:
        open(conf, "rb").close()
    except FileNotFoundError:
        return text("NO_CLUSTER_CONF", conf=conf)
    except OSError as e:
        return text("NO_CLUSTER_UNREADABLE", conf=conf, reason=e.strerror)
    return text("NO_CLUSTER_SPOOL", conf=conf, key=SPOOL_KEY)


class Site:
    """The paths and settings a command needs, read once per process.

    ``envdir``, ``spool`` and ``store_path`` are Paths; ``envdir_name``,
    ``spool_dir`` and ``store_file`` the same as strings, for the commands'
    own paths, which need no pathlib."""

    def __init__(self, env_dir=None):
        self.envdir_name = oslite.fspath(env_dir) if env_dir else envdir_name()
        self.conf = read_lsf_conf(oslite.join(self.envdir_name, LSF_CONF))
        spool = self.conf.get(SPOOL_KEY) or oslite.getenv(SPOOL_KEY)
        if not spool:
            raise XceError(_no_spool(oslite.join(self.envdir_name, LSF_CONF)))
        self.spool_dir = spool

    @property
    def envdir(self):
        return _path(self.envdir_name)

    @property
    def spool(self):
        return _path(self.spool_dir)

    @property
    def store_path(self):
        return self.spool / "store" / "xce.db"

    @property
    def store_file(self):
        return oslite.join(self.spool_dir, "store", "xce.db")

    def setting(self, key, default=None):
        return oslite.getenv(key) or self.conf.get(key, default)
