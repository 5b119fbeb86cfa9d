"""rusage[] of swp, tmp and site numeric resources in the pure scheduler
(held per host, || alternatives, per task, select[] seeing what is left),
and the submit-time check that refuses what no host could ever hold."""

from dataclasses import replace

import pytest

from xce.config.model import Config, HostConf
from xce.controller import jobreq
from xce.lang import resreq
from xce.scheduler import rusage_held

from tests.lib.builders import host, one_pass, pending

# LSF's wording: a built-in index's ("Job requirements ...", as bjobs(1)
# shows for mem), a site resource's with "Job's".
BUILTIN = "Job requirements for reserving resource ({}) not satisfied"
SITE = "Job's requirements for reserving resource ({}) not satisfied"


def _reason(name):
    return (BUILTIN if name in ("mem", "swp", "tmp") else SITE).format(name)


def _placed(out):
    return {key[0]: slots for key, slots in out.dispatch}


@pytest.mark.parametrize("hosts, jobs, placed, waiting", [
    # swp from maxswp: the second job finds too little left.
    ([host("a", 4, maxswp=100, swp=100)],
     [pending(1, rr="rusage[swp=60]"), pending(2, rr="rusage[swp=60]")],
     {1: ["a"]}, {2: "swp"}),
    # tmp on a host that does not say how much it has: nowhere.
    ([host("a", 4, maxswp=100)], [pending(1, rr="rusage[tmp=10]")], {},
     {1: "tmp"}),
    # A site resource: two licences on a, none on b.
    ([host("a", 4, lic=2), host("b", 4)],
     [pending(n, rr="rusage[lic=1]") for n in (1, 2, 3)],
     {1: ["a"], 2: ["a"]}, {3: "lic"}),
    # Per task: three licences hold three of the four slots asked for.
    ([host("a", 4, lic=3)], [pending(1, rr="rusage[lic=1]", lo=2, hi=4,
                                     mem_per_task=True)],
     {1: ["a", "a", "a"]}, {}),
    # Not per task: one amount per host, whatever the slots.
    ([host("a", 4, lic=1)], [pending(1, rr="rusage[lic=1]", lo=4)],
     {1: ["a"] * 4}, {}),
])
def test_reservations_hold_and_run_out(hosts, jobs, placed, waiting):
    out = one_pass(hosts, jobs)
    assert _placed(out) == placed
    for n, name in waiting.items():
        texts = [text for text, _ in out.reasons[(n, 0)]]
        assert _reason(name) in texts


def test_second_alternative_is_taken_and_recorded():
    out = one_pass([host("a", 4, maxswp=100, swp=100, maxtmp=50, tmp=50)],
                   [pending(1, rr="rusage[swp=200 || tmp=10]")])
    assert _placed(out) == {1: ["a"]}
    assert out.rusage_alt == {(1, 0): 1}


def test_select_sees_what_is_left():
    out = one_pass([host("a", 4, maxswp=100, swp=100)],
                   [pending(1, rr="rusage[swp=60]"),
                    pending(2, rr="select[swp>50]")])
    assert _placed(out) == {1: ["a"]}
    assert out.reasons[(2, 0)] == [
        ["Job's resource requirements not satisfied", ["a"]]]


def test_running_jobs_held_by_the_caller_count():
    h = host("a", 4, lic=2)
    rusage_held.charge(h, {"lic": 2}, 1, False)
    assert h.held == {"lic": (2, 2)} and h.resources["lic"] == 0
    out = one_pass([h], [pending(1, rr="rusage[lic=1]")])
    assert _placed(out) == {}
    assert out.reasons[(1, 0)] == [[_reason("lic"), ["a"]]]


def test_mem_only_jobs_are_unchanged():
    need = rusage_held.need({"mem": 10.0, "slots": 1.0})
    assert need == 10.0 and need.others == {}
    assert rusage_held.others(10.0) == {}


# ------------------------------------------------------------------ submit
def _cfg(resources=None):
    cfg = Config(path=None, raw={"resources": resources or {}})
    cfg.hosts = {"a": HostConf("a", resources=["lic=4", "bigmem",
                                               "os=rhel8"])}
    return cfg


@pytest.mark.parametrize("rr", ["rusage[mem=10:swp=5:tmp=1]",
                                "rusage[lic=1]", "rusage[mem=1 || lic=2]"])
def test_reservable_resources_are_accepted(rr):
    jobreq.check_reservable(_cfg(), resreq.parse(rr))


@pytest.mark.parametrize("rr, message", [
    ("rusage[foo=1]", "foo: Bad resource name"),
    ("rusage[mem=1 || bigmem=1]", "bigmem: Bad resource name"),
    ("rusage[os=1]", "os: Bad resource name"),
    ("rusage[shared_lic=1]", "shared_lic: no host or shared resource "
     "location offers this resource, so rusage[] of it can never be "
     "satisfied"),
    ("rusage[lic=5]", "lic: rusage[] asks for 5, more than the 4 the "
     "cluster has; it can never be satisfied"),
])
def test_what_no_host_offers_is_refused(rr, message):
    cfg = _cfg({"shared_lic": {"TYPE": "Numeric"}})
    with pytest.raises(jobreq.BadRequirement) as caught:
        jobreq.check_reservable(cfg, resreq.parse(rr))
    assert str(caught.value) == message


# ------------------------------------------------------- shared resources
def _shared(total, *views, name="lic"):
    counter = rusage_held.Shared(name, total, f"{total}@[all]")
    for h in views:
        counter.attach(h)
    return counter


@pytest.mark.parametrize("owned", [True, False])
def test_licence_tokens_are_shared_across_hosts(owned):
    a, b = host("a", 4), host("b", 4)
    counter = _shared(3, a, b)
    jobs = [pending(n, rr="rusage[lic=1]") for n in (1, 2, 3, 4)]
    out = one_pass([a, b], jobs, owned_hosts=owned)
    # Three tokens in all, whichever host: the fourth job waits.
    assert len(_placed(out)) == 3
    assert _reason("lic") in [t for t, _ in out.reasons[(4, 0)]]
    assert counter.held == (3 if owned else 0)   # copies leave it alone


def test_a_job_on_two_hosts_takes_its_tokens_once():
    a, b = host("a", 1), host("b", 1)
    counter = _shared(2, a, b)
    out = one_pass([a, b], [pending(1, lo=2, rr="rusage[lic=2]")],
                   owned_hosts=True)
    assert sorted(_placed(out)[1]) == ["a", "b"]
    assert counter.held == 2 and a.resources["lic"] == b.resources["lic"] == 0


def test_running_jobs_charged_once_and_select_sees_the_rest():
    a, b = host("a", 4), host("b", 4)
    counter = _shared(5, a, b)
    rusage_held.charge_shared([a, b], {"lic": 2}, 2, False)
    assert counter.held == 2 and b.resources["lic"] == 3
    out = one_pass([a, b], [pending(1, rr="select[lic>=3] rusage[lic=3]"),
                            pending(2, rr="rusage[lic=1]")],
                   owned_hosts=True)
    assert set(_placed(out)) == {1}
    assert counter.held == 5


@pytest.mark.parametrize("owned", [True, False])
def test_tokens_a_claim_keeps_go_to_its_user_alone_and_first(owned):
    a, b = host("a", 4), host("b", 4)
    counter = _shared(3, a, b)
    counter.claimed = {"u1": 2.0}
    # u1 already runs a job of one token: its claim keeps one more.
    rusage_held.charge_shared([a], {"lic": 1}, 1, False, "u1")
    assert (counter.held, counter.claimed) == (1, {"u1": 1.0})
    jobs = [pending(1, rr="rusage[lic=1]", user="u2"),
            pending(2, rr="rusage[lic=1]", user="u2"),
            pending(3, rr="rusage[lic=1]", user="u1")]
    out = one_pass([a, b], jobs, owned_hosts=owned)
    # Of the two free tokens one is kept for u1: u2's first job takes
    # the other, its second waits although u1's job comes later.
    assert set(_placed(out)) == {1, 3}
    assert _reason("lic") in [t for t, _ in out.reasons[(2, 0)]]
    if owned:
        assert (counter.held, counter.claimed) == (3, {"u1": 0.0})
    else:
        assert (counter.held, counter.claimed) == (1, {"u1": 1.0})
    assert rusage_held.left(a, "lic", "u2") == (0 if owned else 1)
    assert rusage_held.left(a, "lic", "u1") == (0 if owned else 2)


def test_host_set_instances_are_separate():
    a, b, c = host("a", 4), host("b", 4), host("c", 4)
    _shared(1, a, b)
    _shared(1, c)
    out = one_pass([a, b, c], [pending(n, rr="rusage[lic=1]")
                               for n in (1, 2, 3)])
    placed = _placed(out)
    assert len(placed) == 2 and ["c"] in placed.values()


def test_order_sorts_site_numerics_by_their_definition():
    from xce.model.resources import Catalog
    cat = Catalog.build({"speed": {"TYPE": "Numeric"},
                         "busy": {"TYPE": "Numeric", "INCREASING": "Y"}})
    hosts = [host("a", 1, speed=1, busy=9), host("b", 1, speed=5, busy=1)]
    for text, first in (("order[speed]", "b"), ("order[-speed]", "a"),
                        ("order[busy]", "b"), ("order[-busy]", "a")):
        rr = resreq.parse(text)
        rr = replace(rr, order=rr.order.directed(cat.bigger_is_better()))
        out = one_pass([host(h.name, 1, **{k: v for k, v in
                                           h.resources.items()
                                           if k in ("speed", "busy")})
                        for h in hosts], [pending(1, rr=rr)])
        assert _placed(out) == {1: [first]}, text


def _cfg_shared():
    cfg = Config(path=None, raw={"resources": {
        "lic": {"TYPE": "Numeric", "LOCATION": "(4@[all])"},
        "fs": {}, "os": {"TYPE": "String"}}})
    cfg.hosts = {"a": HostConf("a", resources=["fs", "os=rhel8"]),
                 "b": HostConf("b")}
    return cfg


def test_submit_checks_names_and_tokens_against_the_definitions():
    cfg = _cfg_shared()
    jobreq.check_names(cfg, ["select[fs && os==rhel8] order[lic]",
                             "rusage[lic=4]"])
    jobreq.check_reservable(cfg, resreq.parse("rusage[lic=4]"))
    for words, message in (
            (["select[nosuch>1]"], "nosuch: Bad resource name"),
            (["order[nosuch]"], "nosuch: Bad resource name"),
            (["same[nosuch]"], "nosuch: Bad resource name"),
            (["rusage[nosuch=1]"], "nosuch: Bad resource name")):
        with pytest.raises(jobreq.BadRequirement) as caught:
            jobreq.check_names(cfg, words)
        assert str(caught.value) == message
    with pytest.raises(jobreq.BadRequirement) as caught:
        jobreq.check_reservable(cfg, resreq.parse("rusage[lic=5]"))
    assert "more than the 4 the cluster has" in str(caught.value)


def test_shared_instances_and_release_come_from_the_catalog():
    cfg = _cfg_shared()
    [inst] = jobreq.shared_instances(cfg)
    assert (inst.resource, inst.hosts, inst.value) == ("lic", ("a", "b"), 4)
    assert "lic" in jobreq.released(cfg)
    assert jobreq.host_resources(cfg, ["fs", "os=rhel8"]) == {
        "fs": True, "os": "rhel8"}


def test_same_keeps_a_job_on_hosts_with_one_value_of_a_site_resource():
    hosts = [host("a", 1, os="rhel8"), host("b", 1, os="rhel9"),
             host("c", 1, os="rhel9")]
    out = one_pass(hosts, [pending(1, lo=2, rr="same[os]")])
    assert sorted(_placed(out)[1]) == ["b", "c"]
