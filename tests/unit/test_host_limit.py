"""HOSTLIMIT_PER_JOB in the pure scheduler: a job never gets more hosts
than its queue allows, the roomiest hosts are tried so a job that fits
within the limit starts, and a job that cannot pends with the reason."""

from functools import partial

import pytest

from xce.scheduler.core import R_HOST_FULL, R_HOST_LIMIT, QueueView, schedule
from xce.scheduler.placement import place

from tests.lib.builders import host, pending


def _hosts(*slots):
    """Hosts h1, h2, ... with the given slot counts."""
    return [host(f"h{i}", n) for i, n in enumerate(slots, 1)]


# The jobs here are in queue q, the one whose host limit a test sets.
_job = partial(pending, queue="q")


def _spread(decisions, key):
    for k, slots in decisions.dispatch:
        if k == (key, 0):
            return {h: slots.count(h) for h in slots}
    return None


def _queue(limit):
    return QueueView("q", 30, host_limit=limit)


@pytest.mark.parametrize("limit, hosts, lo, hi, rr, spread", [
    # -n 4 over hosts of 2 slots: two hosts; limit 1 leaves none.
    (2, (2, 2, 2), 4, None, None, {"h1": 2, "h2": 2}),
    (1, (2, 2, 2), 4, None, None, None),
    (None, (2, 2, 2), 4, None, None, {"h1": 2, "h2": 2}),
    # The roomiest hosts hold the job within the limit.
    (2, (2, 1, 4, 4), 8, None, None, {"h3": 4, "h4": 4}),
    # span[ptile=1]: one slot per host, so at most `limit` slots.
    (2, (2, 2, 2), 2, None, "span[ptile=1]", {"h1": 1, "h2": 1}),
    (2, (2, 2, 2), 3, None, "span[ptile=1]", None),
    (None, (2, 2, 2), 3, None, "span[ptile=1]", {"h1": 1, "h2": 1, "h3": 1}),
    # -n min,max: as many slots as `limit` hosts hold.
    (2, (2, 2, 2), 2, 6, None, {"h1": 2, "h2": 2}),
    (1, (2, 2, 2), 1, 4, "span[ptile=1]", {"h1": 1}),
    # span[block=2] takes whole blocks on at most `limit` hosts.
    (2, (2, 2, 2), 2, 6, "span[block=2]", {"h1": 2, "h2": 2}),
    # Jobs without -n are never cut (one slot, one host).
    (1, (2, 2), 1, None, None, {"h1": 1}),
])
def test_placement_never_uses_more_hosts_than_the_limit(
        limit, hosts, lo, hi, rr, spread):
    out = schedule([_queue(limit)], _hosts(*hosts), [_job(1, lo, hi, rr)])
    assert _spread(out, 1) == spread
    if spread is not None:
        assert limit is None or len(spread) <= limit


@pytest.mark.parametrize("limit, lo, rr", [
    (1, 4, None),
    (2, 3, "span[ptile=1]"),
    (2, 6, None),
])
def test_a_job_that_needs_more_hosts_pends_with_the_host_limit_reason(
        limit, lo, rr):
    out = schedule([_queue(limit)], _hosts(2, 2, 2), [_job(1, lo, None, rr)])
    assert out.dispatch == []
    reasons = out.reasons[(1, 0)]
    assert reasons[0] == [R_HOST_LIMIT, None]


def test_a_job_short_of_slots_waits_for_slots_not_for_the_limit():
    out = schedule([_queue(2)], _hosts(2, 2), [_job(1, 6)])
    assert [R_HOST_LIMIT, None] not in out.reasons[(1, 0)]
    assert out.reasons[(1, 0)][0][0] == R_HOST_FULL


def test_jobs_without_the_limit_and_single_host_jobs_place_as_before():
    jobs = [_job(k, 1) for k in range(1, 7)]
    with_limit = schedule([_queue(1)], _hosts(2, 2, 2), jobs)
    without = schedule([_queue(None)], _hosts(2, 2, 2), jobs)
    assert with_limit.dispatch == without.dispatch
    assert len(with_limit.dispatch) == 6


def test_order_ranked_hosts_fall_back_to_the_roomiest():
    # order[] puts the small hosts first; under the limit the job still
    # starts, on the two roomiest hosts.
    free = {"a": 1, "b": 1, "c": 3, "d": 3}
    result = place(6, 6, free, ["a", "b", "c", "d"], None, None, 2)
    assert sorted(result.slots) == ["c"] * 3 + ["d"] * 3


def test_placement_reports_host_limited_only_when_the_limit_is_why():
    free = {"a": 2, "b": 2, "c": 2}
    assert place(4, 4, free, ["a", "b", "c"], None, None, 1).host_limited
    assert not place(8, 8, free, ["a", "b", "c"], None, None, 1).host_limited
    assert place(4, 4, free, ["a", "b", "c"], None, None, 5).slots == \
        ["a", "a", "b", "b"]
