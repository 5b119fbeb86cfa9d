"""The pass between reason refreshes (reasons=False) and the kept pending
order: the same jobs start as in a full pass; it stops once no job can
start, and says so (Decisions.partial)."""

import random

from xce.lang import resreq
from xce.scheduler.core import HostView, PendingJob, QueueView, schedule
from xce.scheduler.order import PendingOrder

from tests.lib.builders import host, one_pass, pending

REQS = [None, "select[maxmem>2000]", "span[hosts=1]", "rusage[mem=500]",
        "span[ptile=2]", "select[hname==nosuch]"]


def _snapshot(seed):
    rnd = random.Random(seed)
    hosts = []
    for i in range(rnd.randint(1, 6)):
        slots = rnd.randint(1, 4)
        mem = rnd.choice([1000, 4000])
        res = {"hname": f"h{i}", "maxmem": mem, "mem": mem, "ncpus": slots,
               "maxslots": slots, "slots": slots, "type": "X86_64"}
        hosts.append(HostView(f"h{i}", "ok", slots, rnd.randint(0, slots),
                              resources=res, mem_total=mem))
    queues = [QueueView("high", 40), QueueView("normal", 30,
                                               ujob_limit=rnd.choice([None, 2]))]
    parsed = [resreq.parse(r) if r else None for r in REQS]
    jobs = [PendingJob((n, 0), rnd.choice(["high", "normal"]),
                       rnd.choice(["a", "b"]), rnd.choice([1, 1, 2]), n,
                       rnd.choice([0, 0, 5]), held=rnd.random() < 0.1,
                       resreq=rnd.choice(parsed))
            for n in range(1, rnd.randint(1, 40))]
    return queues, hosts, jobs


def test_same_starts_as_a_full_pass_on_random_snapshots():
    partial = 0
    for seed in range(300):
        queues, hosts, jobs = _snapshot(seed)
        full = schedule(queues, hosts, jobs)
        order = PendingOrder()
        for job in jobs:
            order.put(job)
        quick = schedule(queues, hosts, (), order=order, reasons=False)
        assert quick.dispatch == full.dispatch, seed
        # What it did look at, it judged as the full pass did.
        for key, why in quick.reasons.items():
            assert why == full.reasons[key], seed
        if quick.partial:
            partial += 1
            assert len(quick.reasons) + sum(
                len(h) for _, h in quick.dispatch) <= len(full.reasons) + \
                sum(len(h) for _, h in full.dispatch)
        else:
            assert quick.reasons == full.reasons, seed
    assert partial > 30         # the snapshots do reach a full cluster


def test_a_full_cluster_stops_the_walk_after_the_freed_slot_is_taken():
    hosts = [host("h1", 2, used=1)]
    jobs = [pending(n) for n in range(1, 1001)]
    order = PendingOrder.of(jobs)
    out = one_pass(hosts, (), order=order, reasons=False)
    assert out.dispatch == [((1, 0), ["h1"])]
    assert out.partial and len(out.reasons) <= 1


def test_every_reason_is_given_by_default():
    hosts = [host("h1", 1, used=1)]
    jobs = [pending(n) for n in range(1, 50)]
    out = one_pass(hosts, jobs)
    assert not out.partial and len(out.reasons) == 49
