"""A site with lsf.shared resource definitions and an lsf.cluster
ResourceMap migrates, its definitions round-trip into xce.yaml, what xce
cannot take is reported and left out, and the migrated site starts and
schedules by them (host resources in select[], licence tokens)."""

import socket
import subprocess

from ruamel.yaml import YAML

from tests.lib.xcecluster import BIN, Cluster, wait_for

SHARED = """\
Begin Cluster
ClusterName
lic
End Cluster

Begin Resource
RESOURCENAME TYPE    INTERVAL INCREASING RELEASE DESCRIPTION
fs           Boolean ()       ()         ()      (File server)
os           String  ()       ()         ()      (OS release)
lic          Numeric ()       N          Y       (Solver tokens)
load2        Numeric 30       Y          ()      (Reported load)
odd          Float   ()       ()         ()      (Not a type)
End Resource
"""
CLUSTER = """\
Begin ClusterAdmins
Administrators = root
End ClusterAdmins

Begin Host
HOSTNAME  model type server RESOURCES
{host}    !     !    1      (fs os=rhel8)
End Host

Begin ResourceMap
RESOURCENAME LOCATION
lic          (2@[all])
load2        ([default])
fs           ([nohost])
End ResourceMap
"""
QUEUES = """\
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
"""


def _site(tmp_path):
    src = tmp_path / "lsf"
    conf = src / "lsbatch" / "lic" / "configdir"
    conf.mkdir(parents=True)
    (src / "lsf.conf").write_text("LSF_UNIT_FOR_LIMITS=MB\n")
    (src / "lsf.shared").write_text(SHARED)
    (src / "lsf.cluster.lic").write_text(
        CLUSTER.format(host=socket.gethostname()))
    (conf / "lsb.queues").write_text(QUEUES)
    (conf / "lsb.params").write_text(
        "Begin Parameters\nDEFAULT_QUEUE = normal\nEnd Parameters\n")
    return src


def test_resources_migrate_round_trip_and_the_site_runs(tmp_path):
    c = Cluster(tmp_path / "site")
    r = subprocess.run([str(BIN / "xce-migrate"), "--from",
                        str(_site(tmp_path)), "--to", str(c.envdir)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    tree = YAML(typ="safe").load((c.envdir / "xce.yaml").read_text())
    res = tree["resources"]
    assert res["lic"] == {"TYPE": "Numeric", "INCREASING": "N",
                          "RELEASE": "Y", "DESCRIPTION": "Solver tokens",
                          "LOCATION": "2@[all]"}
    assert res["load2"]["INTERVAL"] in (30, "30")
    assert "odd" not in res and "LOCATION" not in res["fs"]
    assert "TYPE Float is not Boolean, Numeric or String" in r.stdout
    assert "LOCATION names nohost" in r.stdout
    c.spool = c.envdir / "spool"
    c.start(wait_hosts=False)
    try:
        wait_for(lambda: c.run("bhosts").out.count(" ok ") == 1,
                 what="the migrated host")
        job = c.submit("-R", "select[fs && os==rhel8] rusage[lic=2]",
                       "true")
        c.wait_stat(job, "DONE")
        r = c.run("bsub", "-R", "rusage[lic=3]", "true")
        assert r.rc == 255 and "more than the 2 the cluster has" in r.err
        r = c.run("bhosts", "-s", "lic")
        assert r.rc == 0 and r.out.splitlines()[1].split()[:3] == \
            ["lic", "2", "0.0"], r
        r = c.run("lsinfo", "-r")
        assert "Solver tokens" in r.out and "odd" not in r.out
    finally:
        c.stop()
