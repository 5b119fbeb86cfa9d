"""bhosts -R: a host row of the store seen as the scheduler sees it."""

import pytest

from xce.client.cluster.host_select import matching, resources
from xce.errors import XceError


def _host(name, **kw):
    row = {"name": name, "type": "X86_64", "model": "m1", "mxj": 4,
           "ncpus": 8, "maxmem": 16 * 1024 * 1024, "maxswp": 0,
           "conf": {"resources": ["bigmem", "os=rhel8"]},
           "load": {"r15s": 0.5, "ut": 0.25}}
    row.update(kw)
    return row


def test_resources_in_the_unit_for_limits():
    res = resources(_host("a"), "MB")
    assert res["maxmem"] == res["mem"] == 16 * 1024
    assert res["swp"] == 0 and res["bigmem"] is True and res["os"] == "rhel8"
    assert res["r15s"] == 0.5 and res["hname"] == "a"
    assert resources(_host("a"), "GB")["mem"] == 16


def test_matching_hosts():
    hosts = [_host("a"), _host("b", conf={}, ncpus=2, maxmem=None)]
    assert [h["name"] for h in matching(hosts, "select[bigmem]")] == ["a"]
    assert [h["name"] for h in matching(hosts, "ncpus > 4", "MB")] == ["a"]
    assert [h["name"] for h in matching(
        hosts, "select[mem > 1024]", "MB")] == ["a"]
    assert len(matching(hosts, "order[r15s]")) == 2
    assert matching(hosts, "select[type == local]") == hosts


def test_bad_syntax():
    with pytest.raises(XceError) as e:
        matching([_host("a")], "select[(")
    assert str(e.value) == "Bad resource requirement syntax"
