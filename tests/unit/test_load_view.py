"""Load reports and the scheduler's host view: the indices an agent last
reported are what select[] and order[] read in the next pass, and a
report changes neither the pending jobs' views (no view epoch bump) nor
anything but the host's load; it asks for a pass, at most every
XCE_LOAD_PASS_INTERVAL seconds (default 5) while jobs wait."""

from types import SimpleNamespace

import pytest

from xce.config.model import Config, HostConf
from xce.controller import dispatch, main, reconcile, rusagewake
from xce.lang import resreq

from tests.lib.fake_controller import FakeController


def _ctl():
    host = {"conf": HostConf("h1", type="X86_64"), "facts": {"maxmem": 4096},
            "max_slots": 4, "adm_closed": False, "seen": True}
    return FakeController(
        hosts={"h1": host}, links={"h1": SimpleNamespace(connected=True)},
        view_epoch=7)


LOAD = {"r15s": 0.5, "r1m": 1.25, "r15m": 2.0, "ut": 0.3, "pg": 4.0,
        "io": 10.0, "ls": 2, "it": 30, "tmp": 900.0, "swp": 10.0,
        "mem": 512.0, "bogus": 1}


def test_a_load_report_reaches_the_next_host_view_only():
    ctl = _ctl()
    before = dispatch._host_view(ctl, "h1", "MB").resources
    assert "r1m" not in before
    reconcile.handle(ctl, "h1", [{"op": "load", "load": LOAD}])
    assert ctl.view_epoch == 7          # pending jobs' views stand
    assert ctl.load_changed is True
    assert len(ctl.store.updates) == 1  # the host row's load column
    res = dispatch._host_view(ctl, "h1", "MB").resources
    assert {k: res[k] for k in ("r15s", "r1m", "r15m", "ut", "pg", "io",
                                "ls", "it")} == {
        "r15s": 0.5, "r1m": 1.25, "r15m": 2.0, "ut": 0.3, "pg": 4.0,
        "io": 10.0, "ls": 2.0, "it": 30.0}
    # mem stays what is left to reserve (maxmem here), not the free memory.
    assert res["mem"] == 4.0 and "bogus" not in res
    assert resreq.parse("select[r1m<2 && ut<0.5]").select.matches(res)
    assert not resreq.parse("select[ut>2]").select.matches(res)


class _Turns(FakeController):
    """The controller's own checks of when a load-driven pass is due."""
    _load_waits = main.Controller._load_waits
    _load_due = main.Controller._load_due
    _load_wait = main.Controller._load_wait


def _waiting(params=None, pass_at=0.0):
    ctl = _Turns(cfg=Config(path=None, params=dict(params or {})),
                 load_changed=True, now=100.0, pass_at=pass_at)
    ctl.passes.views = {(1, 0): None}
    return ctl


def test_a_load_report_asks_for_a_pass_at_most_every_few_seconds():
    ctl = _waiting(pass_at=100.0 - rusagewake.LOAD_PASS_EVERY)
    assert rusagewake.LOAD_PASS_EVERY == 5.0      # xce.yaml(5)'s default
    assert ctl._load_due()
    ctl.pass_at = 99.0
    assert not ctl._load_due()          # a pass just ran
    assert ctl._load_wait(1.0) == 1.0   # due in 4 s: the usual rescan
    ctl.pass_at = 95.5
    assert ctl._load_wait(1.0) == 0.5   # due sooner than the rescan
    ctl.pass_at, ctl.passes.views = 0.0, {}
    assert not ctl._load_due()          # nothing waits
    assert ctl._load_wait(1.0) == 1.0
    ctl.passes.views, ctl.load_changed = {(1, 0): None}, False
    assert not ctl._load_due()          # nothing new


@pytest.mark.parametrize("value, since, due", [
    (0.5, 0.5, True), (0.5, 0.4, False), ("0", 0.0, True),
    (60, 30.0, False), (60, 60.0, True), ("-", 4.0, False)])
def test_the_load_pass_interval_is_the_sites_setting(value, since, due):
    ctl = _waiting({rusagewake.LOAD_PASS_PARAM: value}, pass_at=100.0 - since)
    assert ctl._load_due() is due
    if not due:
        assert ctl._load_wait(1.0) == pytest.approx(
            min(1.0, rusagewake.load_pass_every(ctl.cfg.params) - since))

