"""Slot reservation (SLOT_RESERVE) and backfill (BACKFILL) in the pure
scheduler: table-driven cases over one snapshot each, and determinism."""

import random
from functools import partial

import pytest

from xce.scheduler import core
from xce.scheduler.backfill import Context
from xce.scheduler.core import QueueView, schedule

from tests.lib.builders import host, pending

NOW = 10_000.0
HOUR = 3600.0

# The jobs here wait in the reserving queue.
_job = partial(pending, queue="resv")


def _queue(name="resv", prio=30, reserve=600.0, backfill=True):
    return QueueView(name, prio, reserve_time=reserve, backfill=backfill)


def _run(hosts, jobs, queues=None, since=None, ends=None, now=NOW):
    ctx = Context(now, dict(since or {}), dict(ends or {}))
    return schedule(queues or [_queue()], hosts, jobs, reserve=ctx)


def _started(out):
    return {key[0]: hosts for key, hosts in out.dispatch}


# One host, 4 slots, 2 taken by a job that ends in an hour (-W 60): a wide
# job (1, -n 4) waits; what happens to the later job 2?
@pytest.mark.parametrize("case, queue, job2, ends, started, held", [
    ("no reservation queue: the small job takes a free slot",
     _queue(reserve=None, backfill=False), _job(2), None,
     {2: ["a"]}, {}),
    ("reservation: the wide job holds both free slots",
     _queue(backfill=False), _job(2, runlimit=60), None,
     {}, {1: {"a": 2}}),
    ("backfill: ends before the predicted start, runs in a reserved slot",
     _queue(), _job(2, runlimit=600), None,
     {2: ["a"]}, {1: {"a": 1}}),
    ("backfill: would end after the predicted start, waits",
     _queue(), _job(2, runlimit=2 * HOUR), None,
     {}, {1: {"a": 2}}),
    ("backfill: a job without a run limit never backfills",
     _queue(), _job(2), None,
     {}, {1: {"a": 2}}),
    ("backfill: the wide job waits for a job with no run limit",
     _queue(), _job(2, runlimit=60), {"a": [(None, 2)]},
     {}, {1: {"a": 2}}),
    ("backfill: a two-slot job fits both reserved slots",
     _queue(), _job(2, lo=2, runlimit=60), None,
     {2: ["a", "a"]}, {1: {}}),
])
def test_one_wide_job_and_a_later_one(case, queue, job2, ends, started,
                                      held):
    ends = ends or {"a": [(NOW + HOUR, 2)]}
    out = _run([host("a", 4, used=2)], [_job(1, lo=4), job2], [queue],
               ends=ends)
    assert _started(out) == started, case
    assert {k[0]: v[1] for k, v in out.reserved.items()} == held, case
    if 2 not in started:
        assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["a"]]], case


def test_predicted_start_is_when_running_jobs_free_enough_slots():
    ends = {"a": [(NOW + 600, 1), (NOW + HOUR, 1)],
            "b": [(NOW + 2 * HOUR, 2)]}
    hosts = [host("a", 2, used=2), host("b", 2, used=2)]
    out = _run(hosts, [_job(1, lo=3)], ends=ends, since={(1, 0): NOW - 5})
    since, held, start = out.reserved[(1, 0)]
    assert (since, held) == (NOW - 5, {})   # nothing free now: none held
    # One slot at +10 min, one at +1 h, then two at +2 h: three by +2 h.
    assert start == NOW + 2 * HOUR


def test_nothing_free_and_no_reservation_yet_makes_none():
    out = _run([host("a", 2, used=2)], [_job(1, lo=2)], since={},
               ends={"a": [(NOW + 60, 2)]})
    assert out.reserved == {}
    assert out.reasons[(1, 0)] == [[core.R_HOST_FULL, ["a"]]]


def test_reservation_accumulates_across_hosts_and_keeps_its_start():
    hosts = [host("a", 2, used=1), host("b", 2, used=0),
             host("c", 2, used=2)]
    out = _run(hosts, [_job(1, lo=5), _job(2)], since={(1, 0): NOW - 60},
               ends={"a": [(NOW + 60, 1)], "c": [(NOW + 120, 2)]})
    since, held, start = out.reserved[(1, 0)]
    assert (since, held, start) == (NOW - 60, {"a": 1, "b": 2}, NOW + 120)
    assert out.dispatch == []


def test_a_sequential_job_does_not_reserve():
    out = _run([host("a", 1, used=1)], [_job(1), _job(2)])
    assert out.reserved == {}


def test_expired_reservation_skips_one_pass_and_others_run():
    ends = {"a": [(NOW + HOUR, 2)]}
    out = _run([host("a", 4, used=2)], [_job(1, lo=4), _job(2)],
               [_queue(reserve=600.0, backfill=False)],
               since={(1, 0): NOW - 600}, ends=ends)
    assert out.expired == [(1, 0)]
    assert out.reserved == {}
    assert _started(out) == {2: ["a"]}


def test_reservation_within_its_time_stands():
    out = _run([host("a", 4, used=2)], [_job(1, lo=4), _job(2)],
               [_queue(reserve=600.0, backfill=False)],
               since={(1, 0): NOW - 599}, ends={"a": [(NOW + 60, 2)]})
    assert out.expired == []
    assert out.reserved[(1, 0)][:2] == (NOW - 599, {"a": 2})


def test_wide_job_starts_when_room_appears():
    out = _run([host("a", 4)], [_job(1, lo=4), _job(2)],
               since={(1, 0): NOW - 30})
    assert _started(out) == {1: ["a"] * 4}
    assert out.reserved == {}
    assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["a"]]]


def test_higher_priority_queue_goes_first_and_lower_backfills_only():
    queues = [_queue("resv", 30, backfill=False),
              _queue("high", 50, reserve=None, backfill=False),
              _queue("low", 10, reserve=None, backfill=True)]
    jobs = [_job(1, lo=4), _job(2, queue="high", runlimit=2 * HOUR),
            _job(3, queue="low"), _job(4, queue="low", runlimit=60)]
    out = _run([host("a", 4, used=1)], jobs, queues,
               ends={"a": [(NOW + HOUR, 1)]})
    # high takes a free slot first; the wide job holds the other two; the
    # low job with a run limit backfills one of them.
    assert _started(out) == {2: ["a"], 4: ["a"]}
    assert out.reserved[(1, 0)][1:] == ({"a": 1}, NOW + 2 * HOUR)
    assert (3, 0) in out.reasons
    # Had the high job no run limit, the wide job's start would be
    # unknown, and nothing could backfill.
    jobs[1] = _job(2, queue="high")
    out = _run([host("a", 4, used=1)], jobs, queues,
               ends={"a": [(NOW + HOUR, 1)]})
    assert _started(out) == {2: ["a"]}
    assert out.reserved[(1, 0)][1:] == ({"a": 2}, None)


def test_backfill_job_started_in_the_pass_moves_no_predicted_start():
    # The backfill job ends before the wide job's start: the prediction,
    # worked out when the reservation is made, is the running job's end.
    ends = {"a": [(NOW + HOUR, 2)]}
    out = _run([host("a", 4, used=2)],
               [_job(1, lo=4), _job(2, runlimit=60), _job(3, runlimit=60)],
               ends=ends)
    assert _started(out) == {2: ["a"], 3: ["a"]}
    assert out.reserved[(1, 0)] == (NOW, {}, NOW + HOUR)


def test_no_context_means_no_reservation_work():
    out = schedule([_queue()], [host("a", 4, used=2)],
                   [_job(1, lo=4), _job(2)])
    assert _started(out) == {2: ["a"]}
    assert out.reserved == {} and out.expired == []


def _snapshot(seed):
    rng = random.Random(seed)
    hosts = [host(f"h{i}", 4, used=rng.randint(0, 4)) for i in range(6)]
    ends = {h.name: [(NOW + rng.choice([60, 600, HOUR])
                      if rng.random() < 0.8 else None, h.used)]
            for h in hosts if h.used}
    jobs = [_job(i, lo=rng.choice([1, 1, 2, 6, 9]),
                 queue=rng.choice(["resv", "other"]),
                 runlimit=rng.choice([None, 60, 600, 2 * HOUR]))
            for i in range(1, 40)]
    queues = [_queue("resv", 30), _queue("other", 20, reserve=300.0)]
    return hosts, jobs, queues, ends


def _summary(out):
    return (out.dispatch, sorted(out.reasons.items()),
            sorted(out.reserved.items()), out.expired)


@pytest.mark.parametrize("seed", range(5))
def test_same_snapshot_same_decisions(seed):
    hosts, jobs, queues, ends = _snapshot(seed)
    since = {(j.key): NOW - 100 for j in jobs[::3]}
    first = _run(hosts, jobs, queues, since, ends)
    shuffled = list(jobs)
    random.Random(seed + 1).shuffle(shuffled)
    again = _run(hosts, shuffled, list(reversed(queues)), since, ends)
    assert _summary(first) == _summary(again)
    # The input is not changed by a pass.
    assert _summary(_run(hosts, jobs, queues, since, ends)) == \
        _summary(first)


@pytest.mark.parametrize("seed", range(5))
def test_reservations_never_overcommit_a_host(seed):
    hosts, jobs, queues, ends = _snapshot(seed)
    out = _run(hosts, jobs, queues, {}, ends)
    used = {h.name: h.used for h in hosts}
    for key, placed in out.dispatch:
        for name in placed:
            used[name] += 1
    for key, (_, held, _) in out.reserved.items():
        for name, n in held.items():
            used[name] += n
    assert all(used[h.name] <= h.max_slots for h in hosts)
