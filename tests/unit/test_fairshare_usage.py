"""What one job charges to its user's share, and the share weights: the
pure functions the controller's scheduling and bqueues -l both use."""

import pytest

from xce.model import fairshare


def test_running_job_charges_its_run_time_times_slots():
    use = fairshare.job_usage("RUN", 1000.0, None, 2, 360.0, 1000.0 + 1800,
                              5.0)
    assert use == fairshare.Usage(1.0, 0.0, 0.1)


def test_finished_job_is_historical_and_decays():
    now = 10 * 3600.0
    fresh = fairshare.job_usage("DONE", 0.0, now, 1, 3600.0, now, 5.0)
    assert fresh == fairshare.Usage(0.0, 10.0, 1.0)
    old = fairshare.job_usage("EXIT", 0.0, now - 5 * 3600, 1, 3600.0, now,
                              5.0)
    assert old.hist_hours == pytest.approx(0.5)    # 5 h at 0.1 per HIST_HOURS
    assert old.cpu_hours == pytest.approx(0.1)


def test_pending_and_unstarted_jobs_charge_nothing():
    assert fairshare.job_usage("PEND", None, None, 1, 0, 10.0, 5.0) is None
    assert fairshare.job_usage("EXIT", None, 5.0, 1, 0, 10.0, 5.0) is None


def test_weights_queue_over_params_over_lsf_defaults():
    w = fairshare.factors_from({"RUN_JOB_FACTOR": "2", "HIST_HOURS": "x"},
                               {"RUN_JOB_FACTOR": "4",
                                "ENABLE_HIST_RUN_TIME": "y"})
    assert (w.run_job, w.hist_hours, w.hist_run_time) == (4.0, 5.0, True)
    assert fairshare.factors_from({}) == fairshare.Factors()


def test_share_accounts_in_user_shares_order():
    pairs = [("alice", 2), ("grp@", 1), ("team", 3), ("default", 1)]
    groups = {"grp": ["bob", "carol"], "team": ["dave"]}
    [(top, listed)] = fairshare.Policy(pairs, groups).levels()
    assert top == ()
    assert [n for n, _ in listed] == ["alice", "bob", "carol", "team"]
