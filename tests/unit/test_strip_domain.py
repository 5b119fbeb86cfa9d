"""lsf.conf LSF_STRIP_DOMAIN: the migrator names hosts without the listed
domains, as LSF shows them, everywhere the configuration names them; the
address keeps the full name, and shell commands are left as written."""

from xce.config import keys
from xce.config.load import load
from xce.config.lsf import stripdomain

from tests.lib.builders import migrated_site

LSF = {
    "lsf.conf": "LSF_STRIP_DOMAIN=.lab.example.com:example.org\n",
    "lsf.shared": "Begin Cluster\nClusterName\nc\nEnd Cluster\n",
    "lsf.cluster.c": "Begin Host\nHOSTNAME model type server\n"
                     "n1.lab.example.com ! ! 1\nn2.example.org ! ! 1\n"
                     "n3.other.net ! ! 1\nn3.example.org ! ! 1\nEnd Host\n",
    "lsb.hosts": "Begin Host\nHOST_NAME MXJ\nn1.lab.example.com 4\n"
                 "End Host\n\nBegin HostGroup\nGROUP_NAME GROUP_MEMBER\n"
                 "big (n1.lab.example.com n2.example.org)\nEnd HostGroup\n",
    "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                  "HOSTS = n1.lab.example.com+2 n2.example.org\n"
                  "PRE_EXEC = ping -c1 n2.example.org\nEnd Queue\n",
}


def test_suffixes_take_lsfs_forms():
    assert stripdomain.suffixes(".a.com:b.org") == [".a.com", ".b.org"]
    assert stripdomain.short_names(["x.a.com", "a.com", "y.b"],
                                   [".a.com"]) == {"x.a.com": "x"}


def test_hosts_are_named_short_everywhere(tmp_path):
    result = migrated_site(tmp_path, LSF)
    hosts = result.tree["hosts"]
    assert list(hosts) == ["n1", "n2", "n3.other.net", "n3"]
    assert hosts["n1"]["address"] == "n1.lab.example.com"
    assert hosts["n1"]["MXJ"] == 4
    assert result.tree["host_groups"]["big"] == ["n1", "n2"]
    queue = result.tree["queues"]["normal"]
    assert queue["HOSTS"] in ("n1+2 n2", ["n1+2", "n2"])
    assert queue["PRE_EXEC"] == "ping -c1 n2.example.org"
    cfg = load(tmp_path / "etc")
    assert set(cfg.hosts) >= {"n1", "n2"}
    assert keys.lookup("lsf.conf", "LSF_STRIP_DOMAIN").status == \
        keys.NOT_NEEDED


def test_a_short_name_another_host_has_is_not_taken(tmp_path):
    files = dict(LSF)
    files["lsf.cluster.c"] = ("Begin Host\nHOSTNAME model type server\n"
                              "n2 ! ! 1\nn2.example.org ! ! 1\nEnd Host\n")
    files.pop("lsb.hosts")
    files["lsb.queues"] = "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n"
    result = migrated_site(tmp_path, files)
    assert list(result.tree["hosts"]) == ["n2", "n2.example.org"]
    assert "host n2.example.org keeps its full name: n2 is another " \
        "host's" in "\n".join(str(w) for w in result.diags.warnings)


def test_an_lsb_hosts_row_may_name_the_short_name(tmp_path):
    """LSF matches lsb.hosts rows after stripping the domain, so a site
    writes the short name there; the row's values reach the host (they
    were dropped as naming no host of lsf.cluster)."""
    files = dict(LSF)
    files["lsb.hosts"] = ("Begin Host\nHOST_NAME MXJ JL/U DISPATCH_WINDOW\n"
                          "n1 8 2 (8:00-18:00)\nn3 3 () ()\n"
                          "nosuch 1 () ()\nEnd Host\n")
    result = migrated_site(tmp_path, files)
    hosts = result.tree["hosts"]
    assert hosts["n1"]["MXJ"] == 8 and hosts["n1"]["JL/U"] == 2
    assert hosts["n1"]["DISPATCH_WINDOW"] == "8:00-18:00"
    # n3 is the short name of n3.example.org only (n3.other.net is not
    # in a stripped domain).
    assert hosts["n3"]["MXJ"] == 3 and "MXJ" not in hosts["n3.other.net"]
    text = "\n".join(f"{e.label}: {e.why}" for e in result.migration.entries)
    assert "host nosuch: not a host" in text
    assert "host n1: not a host" not in text
    assert set(load(tmp_path / "etc").hosts) >= {"n1", "n3"}
