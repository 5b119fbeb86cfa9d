"""The configuration a replay runs under: an envdir's xce.yaml (loaded
and checked as the controller loads it), with its hosts replaced by
``--hosts NxS`` when given: N hosts of S slots each (h0001, h0002, ...).
Without an envdir, ``--hosts`` is required and the cluster has one queue,
``normal``, first-come first-served."""

import re

from xce.config import load as config_load
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


def load(envdir=None, hosts=None):
    """The Config for a replay; SiteError naming file:line when the
    configuration does not load."""
    if envdir is not None:
        try:
            cfg = config_load.load(envdir)
        except config_load.ConfigError as e:
            raise SiteError("\n".join(str(x) for x in e.errors))
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
