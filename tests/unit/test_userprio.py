"""User-assigned job priority (xce.model.userprio): LSF's default, its
refusals, and escalation over time as a key that orders pending jobs the
same at any time."""

import random

import pytest

from xce.model import userprio

HOUR = 3600


def test_no_max_user_priority_refuses_sp_and_gives_no_priority():
    assert userprio.policy({}) is None
    assert userprio.refusal(None, 5, True) == "NO_JOB_PRIORITY"
    assert userprio.refusal(None, None, False) is None
    assert userprio.base(None, None) == 0


def test_sp_above_the_maximum_is_refused_but_for_administrators():
    pol = userprio.policy({"MAX_USER_PRIORITY": "100"})
    assert userprio.refusal(pol, 100, False) is None
    assert userprio.refusal(pol, 101, False) == "BAD_USER_PRIORITY"
    assert userprio.refusal(pol, 101, True) is None


def test_a_job_without_sp_gets_half_the_maximum():
    assert userprio.base(userprio.policy({"MAX_USER_PRIORITY": 9}),
                         None) == 4
    assert userprio.base(userprio.policy({"MAX_USER_PRIORITY": 9}), 7) == 7


def test_pending_priority_rises_by_increment_every_interval():
    pol = userprio.policy({"MAX_USER_PRIORITY": "100",
                           "JOB_PRIORITY_OVER_TIME": "3/20"})
    start = 1000 * 1200         # on a tick
    assert userprio.current(pol, 10, start, start + 1199) == 10
    assert userprio.current(pol, 10, start, start + 1200) == 13
    assert userprio.current(pol, None, start, start + HOUR) == 59
    assert userprio.current(pol, 10, start, start + 10**12) == userprio.TOP


@pytest.mark.parametrize("bad", ["3", "3/0", "a/b", "3/20/1", "-1/5"])
def test_bad_priority_over_time_is_refused(bad):
    with pytest.raises(ValueError):
        userprio.over_time(bad)


def test_rank_orders_pending_jobs_as_their_current_priority_at_any_time():
    pol = userprio.policy({"MAX_USER_PRIORITY": "50",
                           "JOB_PRIORITY_OVER_TIME": "2/10"})
    rnd = random.Random(3)
    jobs = [(rnd.choice([None, 1, 25, 50]), rnd.uniform(0, 5 * HOUR))
            for _ in range(60)]
    by_rank = sorted(jobs, key=lambda j: -userprio.rank(pol, *j))
    for now in (5 * HOUR, 7 * HOUR, 30 * HOUR):
        values = [userprio.current(pol, asked, since, now)
                  for asked, since in by_rank]
        assert values == sorted(values, reverse=True)
