"""The configuration a replay runs under: an envdir's xce.yaml (loaded
and checked as the controller loads it), or a directory of LSF files
migrated on the fly, with its hosts replaced by
``--hosts NxS`` when given: N hosts of S slots each (h0001, h0002, ...).
Without an envdir, ``--hosts`` is required and the cluster has one queue,
``normal``, first-come first-served."""

import re
import tempfile
from pathlib import Path

from xce.config import load as config_load
from xce.config import migrate
from xce.config.model import Config, HostConf, QueueConf
from xce.errors import text

_HOSTS = re.compile(r"([1-9][0-9]*)x([1-9][0-9]*)")


class SiteError(Exception):
    """The configuration or --hosts is unusable; str() says why."""


def parse_hosts(spec):
    """'100x1' -> (100, 1); SiteError when it is not N x S."""
    m = _HOSTS.fullmatch(spec.strip())
    if m is None:
        raise SiteError(text("SIM_BAD_HOSTS", value=spec))
    return int(m.group(1)), int(m.group(2))


def _load_envdir(envdir):
    """An envdir's xce.yaml; a directory of LSF files (lsf.conf, lsb.*)
    without one is migrated on the fly, as xce-migrate would, into a
    directory that lives as long as the replay's configuration is read."""
    try:
        if not (envdir / config_load.CONFIG_FILE).exists() and \
                envdir.is_dir():
            with tempfile.TemporaryDirectory(prefix="xce-sim-") as tmp:
                target = Path(tmp) / "etc"
                try:
                    migrate.migrate(str(envdir), str(target))
                except migrate.MigrateError as e:
                    raise SiteError(str(e))
                return config_load.load(target)
        return config_load.load(envdir)
    except config_load.ConfigError as e:
        raise SiteError("\n".join(str(x) for x in e.errors))
    except OSError as e:        # a name too long to look at, a loop, ...
        raise SiteError(f"{envdir / config_load.CONFIG_FILE}: " + text(
            "CONFIG_UNREADABLE", reason=e.strerror))


def load(envdir=None, hosts=None):
    """The Config for a replay; SiteError naming file:line when the
    configuration does not load."""
    if envdir is not None:
        cfg = _load_envdir(Path(envdir))
    elif hosts is None:
        raise SiteError(text("SIM_NO_SITE"))
    else:
        cfg = Config(path=None, cluster_name="sim")
        cfg.queues["normal"] = QueueConf(name="normal", priority=30)
        cfg.params["DEFAULT_QUEUE"] = "normal"
    if hosts is not None:
        count, slots = parse_hosts(hosts)
        width = max(4, len(str(count)))
        cfg.hosts = {}
        for i in range(1, count + 1):
            name = f"h{i:0{width}d}"
            cfg.hosts[name] = HostConf(name=name, launch="none", mxj=slots,
                                       ncpus=slots)
    if not cfg.hosts:
        raise SiteError(text("SIM_NO_HOSTS"))
    return cfg
