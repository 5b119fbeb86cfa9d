"""rusage[] of swp, tmp and site numeric resources in the pure scheduler
(held per host, || alternatives, per task, select[] seeing what is left),
and the submit-time check that refuses what no host could ever hold."""

import pytest

from xce.config.model import Config, HostConf
from xce.controller import jobreq
from xce.lang import resreq
from xce.scheduler import rusage_held

from tests.lib.builders import host, one_pass, pending

REASON = "Job's requirements for reserving resource ({}) not satisfied"


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
        assert REASON.format(name) in texts


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
    assert out.reasons[(1, 0)] == [[REASON.format("lic"), ["a"]]]


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
    ("rusage[shared_lic=1]", "shared_lic: rusage[] of a resource no host "
     "offers is not supported by xce"),
])
def test_what_no_host_offers_is_refused(rr, message):
    cfg = _cfg({"shared_lic": {"TYPE": "Numeric"}})
    with pytest.raises(jobreq.BadRequirement) as caught:
        jobreq.check_reservable(cfg, resreq.parse(rr))
    assert str(caught.value) == message
