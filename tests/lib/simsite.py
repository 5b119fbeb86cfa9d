"""The simulated cluster of xce sim unit tests: an xce.yaml whose cluster
is ``sim`` with its spool beside the configuration's directory (every
such test's first line), and what a test adds to it, loaded as xce sim
loads a site (``--hosts`` as given) into the VirtualCluster a replay
runs on."""

from xce.sim import site
from xce.sim.cluster import VirtualCluster

from tests.lib.builders import site as write_site

SIM_CLUSTER = "cluster: {name: sim, spool: ../spool}\n"


def sim_cluster(tmp_path, yaml_text, hosts="1x1"):
    """The VirtualCluster of SIM_CLUSTER followed by *yaml_text* (its
    parameters, queues, groups...), configured in tmp_path/etc."""
    etc = tmp_path / "etc"
    etc.mkdir(parents=True)
    write_site(etc, SIM_CLUSTER + yaml_text)
    return VirtualCluster(site.load(etc, hosts))
