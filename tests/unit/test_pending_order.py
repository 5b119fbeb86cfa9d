"""PendingOrder keeps each queue's jobs in the order a full sort gives,
whatever mix of adds, new views (btop, bmod, bswitch) and drops."""

import random

from xce.scheduler.order import PendingOrder, sort_key

from tests.lib.builders import pending


def view(jobid, queue="normal", seq=None, prio=0):
    return pending(jobid, queue=queue, seq=seq, user_priority=prio)


def expected(live, queue):
    return [j.key for j in sorted((j for j in live.values()
                                   if j.queue == queue), key=sort_key)]


def test_random_changes_match_a_full_sort():
    rnd = random.Random(5)
    order, live = PendingOrder(), {}
    for step in range(3000):
        jobid = rnd.randint(1, 300)
        if rnd.random() < 0.3:
            order.drop((jobid, 0))
            live.pop((jobid, 0), None)
        else:
            # Equal sort keys on purpose: a new view of the same job.
            j = view(jobid, rnd.choice(["a", "b"]), rnd.choice(
                [jobid, rnd.randint(-5, 5)]), rnd.choice([0, 0, 3]))
            order.put(j)
            live[j.key] = j
        if step % 97 == 0:
            for q in ("a", "b"):
                assert [j.key for j in order.jobs(q)] == expected(live, q)
                assert order.count(q) == len(expected(live, q))
    assert len(order) == len(live)
    assert sorted(order.queues()) == sorted({j.queue for j in live.values()})


def test_the_same_view_again_changes_nothing():
    order = PendingOrder()
    j = view(1)
    order.put(j)
    order.put(j)
    assert order.count("normal") == 1
    assert list(order.jobs("normal")) == [j]


def test_btop_moves_a_job_ahead():
    order = PendingOrder()
    for i in (1, 2, 3):
        order.put(view(i))
    order.put(view(3, seq=0))          # btop: a lower seq
    assert [j.key[0] for j in order.jobs("normal")] == [3, 1, 2]
    order.put(view(3, queue="other"))  # bswitch
    assert [j.key[0] for j in order.jobs("normal")] == [1, 2]
    assert [j.key[0] for j in order.jobs("other")] == [3]


def test_an_order_made_in_one_go_takes_changes_too():
    jobs = [view(i, seq=10 - i) for i in range(1, 6)]
    order = PendingOrder.of(jobs)
    assert [j.key[0] for j in order.jobs("normal")] == [5, 4, 3, 2, 1]
    assert len(order) == 5 and order.queues() == ["normal"]
    order.drop((3, 0))
    order.put(view(9, seq=0))
    assert [j.key[0] for j in order.jobs("normal")] == [9, 5, 4, 2, 1]
    assert order.count("normal") == 5
