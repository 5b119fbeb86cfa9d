"""Resource requirement strings: parsing, canonical form, evaluation, merging."""

import dataclasses
import random

import pytest

from xce.lang.resreq import (
    ResReq, ResReqError, effective, merge, merge_with_queue, parse,
)

SYNTAX = "Bad resource requirement syntax"


# ------------------------------------------------------------ canonical form
@pytest.mark.parametrize("text, canonical", [
    ("select[mem>4000]", "select[mem > 4000]"),
    ("mem>4000", "select[mem > 4000]"),
    ("  mem>4000  ", "select[mem > 4000]"),
    ("swp>15 && linux order[ut]", "select[(swp > 15) && linux] order[ut]"),
    ("type==any order[ut] same[model] rusage[mem=1]",
     "select[type == any] order[ut] rusage[mem=1.00] same[model]"),
    ("select[type==X86_64 && model==Intel_EM64T]",
     "select[(type == X86_64) && (model == Intel_EM64T)]"),
    ("select[hname!='host06-x12']", "select[hname != 'host06-x12']"),
    ('select[hname=="host06-x12"]', "select[hname == 'host06-x12']"),
    ("select[mem = 100]", "select[mem == 100]"),
    ("select[linux and not bigmem or ncpus>=8]",
     "select[(linux && !bigmem) || (ncpus >= 8)]"),
    ("select[a || b && c]", "select[a || (b && c)]"),
    ("select[(a || b) && c]", "select[(a || b) && c]"),
    ("select[a && b && c]", "select[a && b && c]"),
    ("select[!(a && b)]", "select[!(a && b)]"),
    ("select[!!a]", "select[!!a]"),
    ("select[defined(verilog)]", "select[defined(verilog)]"),
    ("select[mem*2 > maxmem/4 + 1]", "select[mem * 2 > maxmem / 4 + 1]"),
    ("select[(mem - 100) * 2 > 10]", "select[(mem - 100) * 2 > 10]"),
    ("select[mem - (100 - 2) > 10]", "select[mem - (100 - 2) > 10]"),
    ("select[r15s < 0.5]", "select[r15s < 0.5]"),
    ("select[ut<-1]", "select[ut < -1]"),
    ("select[swap > 10]", "select[swp > 10]"),
    ("select[mem>4000] rusage[mem=4000] span[hosts=1]",
     "select[mem > 4000] rusage[mem=4000.00] span[hosts=1]"),
    ("span[hosts=1] select[mem>1]", "select[mem > 1] span[hosts=1]"),
    ("select[mem>1]order[ut]", "select[mem > 1] order[ut]"),
    ("", ""),
    ("   ", ""),
])
def test_canonical_form(text, canonical):
    assert str(parse(text)) == canonical


def test_lsf_effective_form_round_trips_exactly():
    text = ("select[(mem > 4000) && (type == local)] order[r15s:pg] "
            "rusage[mem=4000.00] span[hosts=1]")
    assert str(parse(text)) == text


@pytest.mark.parametrize("text", [
    "select[(a || b) && !(c && d) || defined(e)] order[-slots:mem]",
    "select[mem * (2 + 3) > 4 - -2 && x / 2 != 3]",
    "select[type == 'odd-type' || hname == node1.example.com]",
    "rusage[mem=20:swp=50:duration=1h, license=1:duration=2:decay=1 "
    "|| mem=10]",
    "span[ptile='!'] same[type:model]",
    "select[(a > 1) == 1]",
])
def test_canonical_form_parses_back_to_the_same_requirement(text):
    once = parse(text)
    assert parse(str(once)) == once
    assert str(parse(str(once))) == str(once)


def test_parse_result_is_immutable():
    req = parse("select[mem>1] span[hosts=1]")
    with pytest.raises(dataclasses.FrozenInstanceError):
        req.span = None
    assert hash(req.span) == hash(parse("span[hosts=1]").span)


# ------------------------------------------------------- workflow tool strings
def test_nextflow_two_r_options_merge_in_mb():
    req = merge(["select[mem>=4096MB] rusage[mem=4096MB]", "span[hosts=1]"],
                unit="MB")
    assert str(req) == "select[mem >= 4096] rusage[mem=4096.00] span[hosts=1]"
    assert req.rusage.amounts() == {"mem": 4096.0}
    assert req.span.hosts == 1


def test_nextflow_with_tmp_merges_selects_and_rusage():
    req = merge(["span[hosts=1]", "select[mem>=4096MB] rusage[mem=4096MB]",
                 "select[tmp>=10GB] rusage[tmp=10GB]"], unit="MB")
    assert str(req) == ("select[(mem >= 4096) && (tmp >= 10240)] "
                        "rusage[mem=4096.00:tmp=10240.00] span[hosts=1]")


def test_nextflow_units_convert_into_default_kb():
    req = parse("select[mem>=4096MB] rusage[mem=4096MB]")
    assert str(req) == "select[mem >= 4194304] rusage[mem=4194304.00]"


def test_snakemake_rusage_and_span():
    req = merge(["rusage[mem=1000]", "span[hosts=1]"])
    assert str(req) == "rusage[mem=1000.00] span[hosts=1]"
    assert req.select is None
    assert str(effective(req)) == ("select[type == local] order[r15s:pg] "
                                   "rusage[mem=1000.00] span[hosts=1]")


def test_toil_select_and_rusage():
    req = parse("select[mem>2048] rusage[mem=2048]", unit="MB")
    assert str(req) == "select[mem > 2048] rusage[mem=2048.00]"
    assert req.matches({"mem": 4096}) and not req.matches({"mem": 2048})


def test_dask_span_only():
    assert str(parse("span[hosts=1]")) == "span[hosts=1]"


def test_effective_form_shown_by_bjobs():
    req = parse("select[mem>4000] rusage[mem=4000] span[hosts=1]")
    assert str(effective(req)) == (
        "select[(mem > 4000) && (type == local)] order[r15s:pg] "
        "rusage[mem=4000.00] span[hosts=1]")


# ------------------------------------------------------------------ units
@pytest.mark.parametrize("text, unit, value", [
    ("mem>4096MB", "MB", 4096),
    ("mem>4096M", "MB", 4096),
    ("mem>4096mb", "MB", 4096),
    ("mem>4GB", "MB", 4096),
    ("mem>4g", "MB", 4096),
    ("mem>1TB", "GB", 1024),
    ("mem>512MB", "GB", 0.5),
    ("mem>2KB", "KB", 2),
    ("mem>4096", "MB", 4096),
    ("tmp>=10GB", "MB", 10240),
    ("swp>1GB", "KB", 1048576),
    ("swap>1G", "MB", 1024),
    ("4GB < mem", "MB", 4096),
])
def test_memory_units_convert_to_unit_for_limits(text, unit, value):
    cmp = parse(text, unit=unit).select.expr
    number = cmp.right if hasattr(cmp.right, "value") else cmp.left
    assert number.value == value


def test_rusage_units_convert_to_unit_for_limits():
    req = parse("rusage[mem=2GB:swp=512MB:tmp=1]", unit="MB")
    assert req.rusage.amounts() == {"mem": 2048.0, "swp": 512.0, "tmp": 1.0}


@pytest.mark.parametrize("text", [
    "select[ncpus>4GB]",       # units only for mem, swp, tmp
    "select[mem+1GB > 2]",     # unit not beside a memory resource
    "select[4GB]",
    "select[mem>4XB]",         # not a unit
    "rusage[license=1GB]",
    "rusage[mem=4QB]",
])
def test_misplaced_or_unknown_units_are_syntax_errors(text):
    with pytest.raises(ResReqError) as err:
        parse(text, unit="MB")
    assert err.value.message == SYNTAX


# ------------------------------------------------------------- evaluation
HOST = {"ncpus": 8, "maxmem": 64000, "mem": 30000, "swp": 0, "type": "X86_64",
        "model": "Intel_EM64T", "hname": "host06-x12", "r15s": 0.2,
        "linux": True, "bigmem": False, "slots": 4, "os": "rhel8"}


@pytest.mark.parametrize("text, expected", [
    ("mem>4000", True),
    ("mem>30000", False),
    ("mem>=30000", True),
    ("mem=30000", True),
    ("mem!=30000", False),
    ("ncpus<8 || mem>1", True),
    ("ncpus<8 && mem>1", False),
    ("linux", True),
    ("bigmem", False),
    ("!bigmem && linux", True),
    ("not linux", False),
    ("swp", False),                       # numeric 0 standing alone
    ("ncpus", True),
    ("type==X86_64", True),
    ("type!=X86_64", False),
    ("type=='X86_64'", True),
    ("model==Intel_EM64T && type==X86_64", True),
    ("hname=='host06-x12'", True),
    ("hname==host07", False),
    ("type==any", True),
    ("model==any", True),
    ("type!=any", False),
    ("defined(linux)", True),
    ("defined(verilog)", False),
    ("!defined(verilog)", True),
    ("verilog", False),                   # unknown resource: false
    ("verilog > 1", False),
    ("!verilog", True),
    ("mem*2 > maxmem - 10000", True),
    ("mem/slots == 7500", True),
    ("mem/0 > 1", False),                 # division by zero: false
    ("(ncpus > 4) + (mem > 1) == 2", True),
    ("r15s < 0.5 && r15s > 0.1", True),
    ("os > 5", False),                    # string against number: false
    ("os == rhel8", True),                # undeclared string resource
    ("rhel8 == os", True),
    ("os != rhel8", False),
    ("os == rhel9", False),
])
def test_select_matches(text, expected):
    assert parse(text).matches(HOST) is expected


def test_type_local_resolves_to_submission_host_type():
    sel = parse("mem>1 && type==local").select
    assert sel.matches(HOST, local_type="X86_64")
    assert not sel.matches(HOST, local_type="LINUXPPC64")
    assert sel.matches(HOST)  # no submission type known: no restriction
    assert not parse("type!=local").select.matches(HOST, "X86_64")
    assert not sel.matches({"mem": 5}, local_type="X86_64")  # no type


def test_type_local_default_restricts_effective_requirement():
    req = effective(parse("rusage[mem=1]"))
    assert req.matches(HOST, local_type="X86_64")
    assert not req.matches(HOST, local_type="PPC")


def test_no_select_matches_every_host():
    assert parse("span[hosts=1]").matches({})
    assert ResReq().matches({})


def test_select_names_lists_what_it_reads():
    sel = parse("mem>1 && (linux || defined(gpu)) && type==X86_64").select
    assert sel.names == {"mem", "linux", "gpu", "type"}


# -------------------------------------------------- known resource names
def test_unknown_resource_rejected_when_known_names_given():
    with pytest.raises(ResReqError) as err:
        parse("select[mem>1 && fpga]", known={"gpu"})
    assert err.value.message == "fpga: Bad resource name"
    assert err.value.kind == "resource"


@pytest.mark.parametrize("text, name", [
    ("select[defined(fpga)]", "fpga"),
    ("order[fpga]", "fpga"),
    ("rusage[fpga=1]", "fpga"),
    ("same[fpga]", "fpga"),
])
def test_unknown_names_in_every_section(text, name):
    with pytest.raises(ResReqError) as err:
        parse(text, known=set())
    assert err.value.message == "%s: Bad resource name" % name


def test_known_names_and_builtins_accepted():
    req = parse("select[gpu && mem>1 && type==X86_64 && hname==h1] "
                "order[r1m] rusage[gpu=1] same[model]", known={"gpu"})
    assert req.matches({"gpu": 1, "mem": 2, "type": "X86_64", "hname": "h1"})


def test_string_values_are_not_resource_names():
    # X86_64 and h1 are values, so they need not be known resources.
    parse("select[type==X86_64 && hname!=h1]", known=set())


def test_site_string_resource_compares_bare_words_as_values():
    req = parse("select[arch==zen3]", strings={"arch"})
    assert req.matches({"arch": "zen3"})
    assert not req.matches({"arch": "zen2", "zen3": "zen3"})
    with pytest.raises(ResReqError):
        parse("select[arch > zen3]", strings={"arch"})


def test_non_consumable_rusage_rejected_when_consumables_given():
    parse("rusage[mem=1:license=2]", consumable={"license"})
    with pytest.raises(ResReqError) as err:
        parse("rusage[ncpus=1]", consumable={"license"})
    assert err.value.message.startswith("ncpus: ")
    assert err.value.kind == "resource"


# ---------------------------------------------------------- syntax errors
@pytest.mark.parametrize("text", [
    "select[", "select[]", "select[mem>]", "select[>1]", "select[mem>1",
    "select[(mem>1]", "select[mem>1)]", "select[mem >> 1]",
    "select[a < b < c]", "select[mem > 1 2]", "select['unterminated]",
    "select[type > X86_64]", "select['a' < type]", "select['abc']",
    "select[mem>1] select[mem>2]", "select[a] mem>1",
    "order[ut] mem>1", "order[]", "order[ut:]", "order[-]", "order[a b]",
    "foo[x]", "select[a]]", "select[[a]]", "select[a & b]",
    "select[a | b]", "select[defined()]", "select[defined(1)]",
    "select[$x]", "select[mem>1] garbage",
    "rusage[]", "rusage[mem]", "rusage[mem=]", "rusage[=1]",
    "rusage[mem=-1]", "rusage[mem=x]", "rusage[mem=1,mem=2]",
    "rusage[mem=1:mem=2]", "rusage[duration=10]", "rusage[mem=1:duration=0]",
    "rusage[mem=1:duration=10x]", "rusage[mem=1:decay=2]",
    "rusage[mem=1:duration=1:duration=2]", "rusage[mem=1:decay=1:swp=2]",
    "rusage[mem=1 ||]", "rusage[mem=1,]",
    "span[]", "span[hosts=2]", "span[hosts=0]", "span[ptile=0]",
    "span[ptile=x]", "span[block=0]", "span[hosts]", "span[nodes=1]",
    "span[hosts=1:ptile=2]", "same[]", "same[type:type]", "same[a-b]",
    "select[" + "(" * 60 + "a" + ")" * 60 + "]",
])
def test_syntax_errors_print_lsf_message(text):
    with pytest.raises(ResReqError) as err:
        parse(text)
    assert err.value.message == SYNTAX
    assert str(err.value) == SYNTAX


@pytest.mark.parametrize("text, word", [
    ("cu[type=enclosure:maxcus=2]", "cu[]"),
    ("select[mem>1] affinity[core(1):cpubind=core]", "affinity[]"),
    ("2*{select[mem>1000]} + 4*{select[type==any]}", "Compound"),
    ("{select[a]} || {select[b]}@2", "alternative"),
    ("rusage[mem=(500 300 100):duration=(10 20)]", "multi-phase"),
    ("span[ptile='!',modelA:4]", "ptile"),
    ("span[stripe]", "stripe"),
    ("order[!-slots]", "order[!"),
])
def test_unsupported_features_are_rejected_not_dropped(text, word):
    with pytest.raises(ResReqError) as err:
        parse(text)
    assert err.value.kind == "unsupported"
    assert "not supported" in err.value.message
    assert word in err.value.message


@pytest.mark.parametrize("text", [
    "select[" + "+".join(["1"] * 5000) + " > 1]",
    "select[" + "!" * 5000 + "a]",
    "select[" + "-" * 5000 + "1 > 0]",
    "select[" + "(" * 5000 + "a" + ")" * 5000 + "]",
])
def test_pathological_nesting_is_a_syntax_error_not_a_crash(text):
    with pytest.raises(ResReqError):
        parse(text)


def test_long_flat_conjunction_is_fine():
    text = " && ".join("r%d > 1" % i for i in range(2000))
    req = parse(text)
    assert not req.matches({})
    assert parse(str(req)) == req


def test_quoted_brackets_and_braces_are_values():
    req = parse("select[hname!='odd[name]{x}']")
    assert req.matches({"hname": "other"})
    assert not req.matches({"hname": "odd[name]{x}"})


def test_random_inputs_raise_only_resreq_error():
    rng = random.Random(20240601)
    pieces = ["select[", "order[", "rusage[", "span[", "same[", "cu[", "]",
              "[", "(", ")", "{", "}", "mem", "type", "==", "=", ">", "<=",
              "!", "&&", "||", "and", "not", " ", ":", ",", "-", "*", "/",
              "4096", "MB", "GB", "'", '"', "duration=", "decay=1",
              "hosts=1", "ptile=", "defined(", "local", "1.5", "x"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        try:
            req = parse(text, unit="MB")
        except ResReqError:
            continue
        assert parse(str(req), unit="MB") == req, text
        req.matches(HOST, local_type="X86_64")


# ------------------------------------------------------------- order
def test_order_sorts_load_ascending_and_memory_descending():
    hosts = [{"n": "a", "r15s": 0.5, "mem": 10}, {"n": "b", "r15s": 0.1,
             "mem": 5}, {"n": "c", "mem": 50}]
    by_load = parse("order[r15s]").order
    assert [h["n"] for h in sorted(hosts, key=by_load.sort_key)] == \
        ["b", "a", "c"]  # c lacks r15s: last
    by_mem = parse("order[mem]").order
    assert [h["n"] for h in sorted(hosts, key=by_mem.sort_key)] == \
        ["c", "a", "b"]
    reverse = parse("order[-mem]").order
    assert [h["n"] for h in sorted(hosts, key=reverse.sort_key)] == \
        ["b", "a", "c"]


def test_order_second_key_breaks_ties():
    order = parse("order[r15s:pg]").order
    hosts = [{"r15s": 1, "pg": 9}, {"r15s": 1, "pg": 2}, {"r15s": 0, "pg": 50}]
    assert sorted(hosts, key=order.sort_key) == [hosts[2], hosts[1], hosts[0]]


def test_order_keys_and_reverse_flags():
    order = parse("order[ -slots : ut ]").order
    assert [(k.name, k.reverse) for k in order.keys] == \
        [("slots", True), ("ut", False)]
    assert str(order) == "order[-slots:ut]"


# ------------------------------------------------------------ rusage
@pytest.mark.parametrize("text, seconds", [
    ("rusage[mem=1:duration=30]", 1800),
    ("rusage[mem=1:duration=30m]", 1800),
    ("rusage[mem=1:duration=2h]", 7200),
    ("rusage[mem=1:duration=45s]", 45),
])
def test_rusage_duration_units(text, seconds):
    assert parse(text).rusage.alternatives[0].groups[0].duration == seconds


@pytest.mark.parametrize("text, canonical", [
    ("rusage[mem=1:duration=30]", "rusage[mem=1.00:duration=30]"),
    ("rusage[mem=1:duration=120]", "rusage[mem=1.00:duration=2h]"),
    ("rusage[mem=1:duration=90s]", "rusage[mem=1.00:duration=90s]"),
    ("rusage[mem=1:duration=60s]", "rusage[mem=1.00:duration=1]"),
    ("rusage[mem=1:duration=5:decay=0]", "rusage[mem=1.00:duration=5]"),
    ("rusage[ mem = 1.5 , lic=2 ]", "rusage[mem=1.50, lic=2.00]"),
])
def test_rusage_canonical_form(text, canonical):
    assert str(parse(text)) == canonical


def test_rusage_groups_and_alternatives():
    rusage = parse("rusage[mem=20:swp=50:duration=1h, license=1:duration=2 "
                   "|| mem=10:decay=1]").rusage
    first, second = rusage.alternatives
    assert [g.names() for g in first.groups] == [["mem", "swp"], ["license"]]
    assert [g.duration for g in first.groups] == [3600, 120]
    assert first.amounts() == {"mem": 20.0, "swp": 50.0, "license": 1.0}
    assert second.groups[0].decay is True
    assert rusage.amounts(1) == {"mem": 10.0}


def test_same_resource_in_two_alternatives_is_allowed():
    assert len(parse("rusage[mem=20 || mem=10]").rusage.alternatives) == 2


# -------------------------------------------------------------- span/same
@pytest.mark.parametrize("text, field, value", [
    ("span[hosts=1]", "hosts", 1),
    ("span[hosts=-1]", "hosts", -1),
    ("span[ptile=4]", "ptile", 4),
    ("span[ptile='!']", "ptile", "!"),
    ("span[ptile=!]", "ptile", "!"),
    ("span[block=8]", "block", 8),
    ("span[ block = 8 ]", "block", 8),
])
def test_span_forms(text, field, value):
    assert getattr(parse(text).span, field) == value


def test_same_names():
    assert parse("same[type:model]").same.names == ("type", "model")


# ----------------------------------------------------------------- merge
def test_merge_ands_selects_in_order():
    req = merge(["select[mem>1]", "linux || bigmem", "select[ncpus>2]"])
    assert str(req) == "select[(mem > 1) && (linux || bigmem) && (ncpus > 2)]"


def test_merge_of_nothing_is_empty():
    assert str(merge([])) == ""
    assert str(merge([""])) == ""


def test_merge_accepts_parsed_requirements():
    req = merge([parse("mem>1"), "span[hosts=1]"])
    assert str(req) == "select[mem > 1] span[hosts=1]"


@pytest.mark.parametrize("strings, section", [
    (["order[ut]", "order[r15s]"], "order"),
    (["span[hosts=1]", "span[ptile=2]"], "span"),
    (["span[hosts=1]", "mem>1 span[hosts=1]"], "span"),
    (["same[type]", "same[model]"], "same"),
])
def test_merge_rejects_repeated_single_sections(strings, section):
    with pytest.raises(ResReqError) as err:
        merge(strings)
    assert err.value.kind == "merge"
    assert err.value.message.startswith(SYNTAX)
    assert section + "[]" in err.value.message


def test_merge_rusage_keeps_separate_durations():
    req = merge(["rusage[mem=10:duration=5]", "rusage[lic=1]",
                 "rusage[swp=2:duration=5]"])
    assert str(req) == "rusage[mem=10.00:swp=2.00:duration=5, lic=1.00]"


def test_merge_rejects_same_resource_in_two_rusage():
    with pytest.raises(ResReqError) as err:
        merge(["rusage[mem=10]", "rusage[mem=20]"])
    assert err.value.kind == "merge"


def test_merge_rejects_alternatives_with_other_rusage():
    with pytest.raises(ResReqError):
        merge(["rusage[mem=10 || swp=10]", "rusage[lic=1]"])
    single = merge(["rusage[mem=10 || swp=10]", "span[hosts=1]"])
    assert len(single.rusage.alternatives) == 2


def test_merge_propagates_parse_errors():
    with pytest.raises(ResReqError) as err:
        merge(["span[hosts=1]", "select[mem>"])
    assert err.value.message == SYNTAX


# ------------------------------------------------------- merge with queue
def test_queue_select_is_anded_after_job_select():
    req = merge_with_queue("select[mem>1]", "select[linux]")
    assert str(req) == "select[(mem > 1) && linux]"


def test_job_sections_override_queue_sections():
    req = merge_with_queue("order[ut] span[ptile=2] same[model]",
                           "order[r15s] span[hosts=1] same[type]")
    assert str(req) == "order[ut] span[ptile=2] same[model]"


def test_queue_sections_fill_in_when_job_has_none():
    req = merge_with_queue("mem>1", "order[r15s] span[hosts=1] same[type]")
    assert str(req) == "select[mem > 1] order[r15s] span[hosts=1] same[type]"


def test_job_span_hosts_minus_one_removes_queue_span():
    assert merge_with_queue("span[hosts=-1]", "span[hosts=1]").span is None


def test_job_rusage_wins_per_resource_and_queue_adds_others():
    req = merge_with_queue("rusage[mem=100]", "rusage[mem=50:swp=20]")
    assert req.rusage.amounts() == {"mem": 100.0, "swp": 20.0}
    assert str(req) == "rusage[mem=100.00:swp=20.00]"


def test_queue_rusage_with_own_duration_stays_a_separate_group():
    req = merge_with_queue("rusage[mem=100]", "rusage[lic=1:duration=10]")
    assert str(req) == "rusage[mem=100.00, lic=1.00:duration=10]"


def test_merge_with_queue_accepts_none_and_empty():
    assert str(merge_with_queue(None, "select[linux]")) == "select[linux]"
    assert str(merge_with_queue("span[hosts=1]", None)) == "span[hosts=1]"
    assert str(merge_with_queue(None, None)) == ""


# -------------------------------------------------------------- effective
@pytest.mark.parametrize("text, canonical", [
    ("", "select[type == local] order[r15s:pg]"),
    ("mem>1", "select[(mem > 1) && (type == local)] order[r15s:pg]"),
    ("linux", "select[linux && (type == any)] order[r15s:pg]"),
    ("model==Intel_EM64T",
     "select[(model == Intel_EM64T) && (type == any)] order[r15s:pg]"),
    ("type==X86_64", "select[type == X86_64] order[r15s:pg]"),
    ("mem>1 order[ut]", "select[(mem > 1) && (type == local)] order[ut]"),
    ("a || b", "select[(a || b) && (type == any)] order[r15s:pg]"),
])
def test_effective_adds_lsf_defaults(text, canonical):
    assert str(effective(parse(text))) == canonical
