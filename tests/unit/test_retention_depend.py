"""Dependencies on a finished job once CLEAN_PERIOD has passed: the
controller forgets the job to the second (not at its next sweep), and
bjdepinfo, reading the store's row that has not moved to history.db yet,
says the same as the controller at every moment."""

import pytest

from xce.client.depend import report
from xce.controller import dispatch, submit
from xce.store.reader import Reader

from tests.lib.builders import job_row, site, site_yaml
from tests.lib.fake_controller import started_controller

SITE = site_yaml("deps", {"h1": {"MXJ": 2}}, params={"CLEAN_PERIOD": 100})
NOW = 2_000_000.0


@pytest.fixture
def controller(tmp_path):
    ctl = started_controller(site(tmp_path / "etc", SITE), tmp_path / "etc")
    yield ctl
    ctl.store.close()


def _parent_and_child(ctl, end):
    """Job 1 DONE at *end*, known to the index (no sweep since), and
    job 2 pending on done(1)."""
    ctl.store.save_job(job_row(1, "DONE", submit_time=end - 10,
                               start_time=end - 5, end_time=end,
                               exit_code=0, name="parent"))
    child = job_row(2, "PEND", submit_time=end - 10, name="child",
                    spec={"command": "true", "depend": "done(1)"})
    ctl.store.save_job(child)
    ctl.store.commit()
    ctl.index.load(ctl.store, end - 1000)
    return dict(child, spec=dict(child["spec"]))


def _bjdepinfo(ctl, now):
    """The lines of bjdepinfo -l 2 at *now*."""
    with Reader(ctl.store.path) as reader:
        return report.report(reader, "2", 2, None, 1, False, False, True,
                             now=now)


@pytest.mark.parametrize("age, satisfied", [(99, True), (100, True),
                                            (101, False), (150, False)])
def test_bjdepinfo_and_the_controller_agree_on_a_forgotten_parent(
        controller, age, satisfied):
    ctl = controller
    child = _parent_and_child(ctl, NOW - age)
    ctl.now = NOW
    assert (1, 0) in ctl.index.finished          # no sweep has run
    state = dispatch._depend_state(ctl, child)
    assert state == (None if satisfied else "never")
    notes = [l for l in _bjdepinfo(ctl, NOW) if not isinstance(l, tuple)]
    word = "satisfied" if satisfied else "not satisfied"
    assert notes == [f"The dependency condition of job <2> is {word}: "
                     "done(1)"]
    rows = [l for l in _bjdepinfo(ctl, NOW) if isinstance(l, tuple)]
    assert len(rows) == (1 if satisfied else 0)


def test_a_new_dependency_on_a_forgotten_job_is_refused_at_once(controller):
    ctl = controller
    _parent_and_child(ctl, NOW - 101)
    ctl.now = NOW
    with pytest.raises(submit.Rejected, match="No matching job found"):
        submit.check_depend(ctl, {"depend": "done(1)"}, "alice")
    ctl.now = NOW - 2                           # 99 s after its end
    submit.check_depend(ctl, {"depend": "done(1)"}, "alice")


def test_a_satisfied_dependency_lapses_when_its_parent_is_forgotten(
        controller):
    """The cached answer holds until the parent is forgotten, with no
    other job changing state meanwhile."""
    ctl = controller
    child = _parent_and_child(ctl, NOW - 50)
    ctl.now = NOW
    assert dispatch._depend_state(ctl, child) is None
    ctl.now = NOW + 50                          # 100 s after: still known
    assert dispatch._depend_state(ctl, child) is None
    ctl.now = NOW + 51
    assert dispatch._depend_state(ctl, child) == "never"
