"""The one resource model (xce.model.resources): definitions, built-ins,
locations and host values."""

import pytest

from xce.lang.resreq import common
from xce.model import resources
from xce.model.resources import Catalog, ResourceError


def test_site_definitions_take_lsf_defaults():
    cat = Catalog.build({
        "fs": {"DESCRIPTION": "(File server)"},
        "licA": {"TYPE": "Numeric", "INTERVAL": "()", "INCREASING": "N"},
        "load2": {"TYPE": "Numeric", "INTERVAL": 60, "INCREASING": "Y",
                  "CONSUMABLE": "N"},
        "os": {"TYPE": "String", "RELEASE": "N"},
    })
    assert cat.errors == []
    fs, lic, load2, os_ = (cat.get(n) for n in ("fs", "licA", "load2", "os"))
    assert (fs.type, fs.description, fs.order) == ("Boolean", "File server",
                                                   "N/A")
    assert lic.numeric and lic.consumable and lic.bigger_is_better
    assert (lic.order, lic.dynamic, lic.interval) == ("Dec", False, None)
    assert (load2.order, load2.consumable, load2.dynamic) == ("Inc", False,
                                                              True)
    assert not os_.release and os_.type == "String"
    assert cat.consumable() >= {"licA", "mem", "swp", "tmp", "slots"}
    assert "load2" not in cat.bigger_is_better()


@pytest.mark.parametrize("props, words", [
    ({"TYPE": "Float"}, "TYPE Float is not Boolean, Numeric or String"),
    ({"TYPE": "String", "INCREASING": "Y"}, "INCREASING applies to Numeric"),
    ({"TYPE": "Boolean", "CONSUMABLE": "Y"}, "CONSUMABLE applies to Numeric"),
    ({"TYPE": "Numeric", "INTERVAL": "soon"}, "INTERVAL soon is not a whole"),
    ({"TYPE": "Numeric", "RELEASE": "maybe"}, "RELEASE must be Y or N"),
])
def test_malformed_definitions_are_named(props, words):
    cat = Catalog.build({"res1": props})
    assert len(cat.errors) == 1 and words in cat.errors[0]
    assert cat.errors[0].startswith("resource res1:")
    assert cat.get("res1") is None


def test_built_in_names_cannot_be_redefined():
    cat = Catalog.build({"mem": {"TYPE": "Numeric"}, "1abc": {}})
    assert [e.split(":")[0] for e in cat.errors] == ["resource mem",
                                                     "resource 1abc"]


def test_built_ins_agree_with_the_requirement_language():
    defs = resources.BUILT_IN
    assert common.STRING_RESOURCES == {n for n, d in defs.items()
                                       if d.type == "String"}
    assert common.BOOLEAN_RESOURCES == {n for n, d in defs.items()
                                        if d.type == "Boolean"}
    assert common.NUMERIC_RESOURCES == {n for n, d in defs.items()
                                        if d.type == "Numeric"}
    assert common.BUILTIN_CONSUMABLE == resources.BUILTIN_CONSUMABLE
    assert defs["r1m"].order == "Inc" and defs["mem"].order == "Dec"


def test_locations_all_default_and_host_sets():
    cat = Catalog.build({
        "lic": {"TYPE": "Numeric", "LOCATION": "(40@[all])"},
        "scratch": {"TYPE": "Numeric", "LOCATION": "(2@[hA hB] 4@[hC])"},
        "tmp2": {"TYPE": "Numeric", "LOCATION": "[default]"},
        "near": {"TYPE": "Numeric", "LOCATION": "(5@[all ~hC])"},
        "grp": {"TYPE": "Numeric", "LOCATION": "(1@[left])"},
    })
    found, errors = cat.instances(["hA", "hB", "hC"], {"left": ["hA", "hB"]})
    assert errors == []
    by = {(i.resource, i.hosts): (i.shared, i.value) for i in found}
    assert by[("lic", ("hA", "hB", "hC"))] == (True, 40)
    assert by[("scratch", ("hA", "hB"))] == (True, 2)
    assert by[("scratch", ("hC",))] == (True, 4)
    assert by[("tmp2", ("hA", "hB", "hC"))] == (False, None)
    assert by[("near", ("hA", "hB"))] == (True, 5)
    assert by[("grp", ("hA", "hB"))] == (True, 1)
    assert [i.location for i in cat.shared(["hA", "hB", "hC"])][:1] == \
        ["40@[all]"]


@pytest.mark.parametrize("text", ["[hA", "(4@)", "[]", "4@[all", "()", "x"])
def test_malformed_locations_are_refused(text):
    with pytest.raises(ResourceError, match="LOCATION"):
        resources.parse_location(text)
    cat = Catalog.build({"lic": {"TYPE": "Numeric", "LOCATION": text}})
    assert cat.errors and "LOCATION" in cat.errors[0]


def test_a_location_naming_no_host_and_a_bad_value():
    cat = Catalog.build({"lic": {"TYPE": "Numeric",
                                 "LOCATION": "(4@[nohost])"},
                         "lic2": {"TYPE": "Numeric",
                                  "LOCATION": "(four@[all])"}})
    _, errors = cat.instances(["hA"])
    assert any("names nohost, not a host" in e for e in errors)
    assert any("four is not a number" in e for e in errors)


def test_host_values_are_typed_by_their_definition():
    cat = Catalog.build({"fs": {}, "os": {"TYPE": "String"},
                         "lic": {"TYPE": "Numeric"},
                         "dyn": {"TYPE": "Numeric", "INTERVAL": 30}})
    values = cat.host_values(["fs", "os=8", "lic=4", "dyn",
                              "undeclared=2.5", "[resourcemap 3*lic]",
                              "[resource other]", {"bigmem": True}])
    assert values == {"fs": True, "os": "8", "lic": 3, "undeclared": 2.5,
                      "other": True, "bigmem": True}
    assert cat.host_errors("h1", ["fs=1", "lic=many", "os=x"]) == [
        "host h1: resource fs is Boolean and takes no value (1)",
        "host h1: resource lic: host value many is not a number"]


def test_the_controller_refuses_a_malformed_resource_section(tmp_path):
    from xce.config.load import ConfigError, load
    (tmp_path / "xce.yaml").write_text(
        "cluster: {name: c1}\n"
        "hosts:\n  hA: {launch: local, resources: [fs=1]}\n"
        "queues:\n  normal: {}\n"
        "resources:\n"
        "  fs: {TYPE: Boolean}\n"
        "  lic: {TYPE: Numeric, LOCATION: '(4@[nohost])'}\n"
        "  bad: {TYPE: Integer}\n")
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)
    lines = caught.value.errors
    assert any(":8: LOCATION: resource lic: LOCATION names nohost" in e
               for e in lines), lines
    assert any(":9: bad: resource bad: TYPE Integer" in e for e in lines)
    assert any(":3: resources: host hA: resource fs is Boolean" in e
               for e in lines)


def test_a_host_type_must_be_one_of_host_types(tmp_path):
    from xce.config.load import ConfigError, load
    (tmp_path / "xce.yaml").write_text(
        "cluster: {name: c1}\n"
        "hosts:\n  hA: {launch: local, type: LINUX64}\n"
        "  hB: {launch: local, type: SPARC}\n"
        "queues:\n  normal: {}\n"
        "host_types: [LINUX64, X86_64]\n")
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)
    assert len(caught.value.errors) == 1
    assert caught.value.errors[0].endswith(
        ":4: type: host type SPARC is not one of host_types (lsf.shared's "
        "HostType section)")
