"""One pass of the pure scheduler over many pending jobs (no daemons).

Snapshots are built in memory: mixed queues and users, job arrays with %N
limits, -R strings shared by many jobs (as parse-once caching makes them),
span/rusage, -n ranges.  Figures are the best CPU time (process_time) of
a few passes, so a loaded machine does not blur them:

  schedule_10000_pending_100_hosts ms   hosts with room for some of them
  schedule_10000_pending_full ms        every slot already taken
  schedule_100000_pending_1000_hosts ms (issue 5 target: <= 1 s)
  schedule_100000_pending_1000_hosts_one_ended ms
                                        the next pass after one job ended
                                        (issue 5 target: <= 50 ms)
  schedule_10000_pending_100_hosts_reserve ms  every queue with
      SLOT_RESERVE and BACKFILL, half the hosts busy with jobs that end
      at their run limit, pending jobs with and without -W
  schedule_10000_pending_100_hosts_preempt ms  every slot taken by jobs
      of queue low, which queue high may preempt (PREEMPTIVE[low])
  schedule_10000_pending_100_hosts_asked ms  as the first, with one job in
      five asking for hosts (bsub -m): five distinct lists, some with
      preference levels or others
  schedule_100000_pending_1000_hosts_escalating ms (and _one_ended)
      as the 100000-job pass, with -sp priorities escalating over time
      (MAX_USER_PRIORITY, JOB_PRIORITY_OVER_TIME: the order key the
      controller computes once per job)
"""

import random
import time

from _common import emit, note

from xce.lang import resreq
from xce.lang.preempt import Policy, parse
from xce.model import userprio
from xce.scheduler.asked import AskedHosts
from xce.scheduler.backfill import Context
from xce.scheduler.order import PendingOrder
from xce.scheduler.core import HostView, PendingJob, QueueView, schedule
from xce.scheduler.preempt import Preemption, RunningJob

REQS = [None, "select[maxmem>2000]", "span[hosts=1]", "rusage[mem=500]",
        "select[bigmem] order[-maxmem]", "span[ptile=2]",
        "select[hname==nosuch]"]


def snapshot(njobs, nhosts, slots=8, seed=1):
    rnd = random.Random(seed)
    hosts = []
    for i in range(nhosts):
        res = {"hname": f"h{i:04d}", "type": "X86_64", "ncpus": slots,
               "maxmem": rnd.choice([1000, 4000, 16000]), "maxslots": slots,
               "slots": slots}
        if i % 3 == 0:
            res["bigmem"] = True
        res["mem"] = res["maxmem"]
        hosts.append(HostView(res["hname"], "ok", slots, resources=res,
                              mem_total=res["maxmem"]))
    queues = [QueueView(n, p, ujob_limit=None if n != "low" else 50)
              for n, p in (("high", 40), ("normal", 30), ("low", 20))]
    parsed = [resreq.parse(r) if r else None for r in REQS]
    jobs, seq = [], 0
    while len(jobs) < njobs:
        seq += 1
        q, user = rnd.choice(queues).name, f"u{rnd.randint(1, 20)}"
        rr = rnd.choice(parsed)
        lo = rnd.choice([1, 1, 1, 2, 4])
        size = 100 if rnd.random() < 0.05 else 1       # an array
        for idx in range(1 if size > 1 else 0, size + 1 if size > 1 else 1):
            jobs.append(PendingJob((seq, idx), q, user, lo, seq,
                                   max_slots=lo * 2, resreq=rr,
                                   array_limit=10 if size > 1 else None))
    return queues, hosts, jobs[:njobs]


def reserving(queues, hosts, jobs, now=1000.0):
    """The same snapshot with slot reservation and backfill at work."""
    rnd = random.Random(2)
    for q in queues:
        q.reserve_time, q.backfill = 600.0, True
    for job in jobs:
        job.runlimit = rnd.choice([None, 60.0, 3600.0])
    ends = {}
    for h in hosts[::2]:
        h.used = h.max_slots // 2
        ends[h.name] = [(now + rnd.choice([120.0, 7200.0]), h.used)]
    return Context(now, {}, ends)


def preempting(queues, hosts):
    """Every slot taken by one-slot jobs of queue low; a fresh
    Preemption per pass (a pass marks the jobs it suspends)."""
    policy = Policy({q.name: (q.priority, parse("PREEMPTIVE[low]")
                              if q.name == "high" else None)
                     for q in queues})
    running = []
    for h in hosts:
        for k in range(h.max_slots):
            running.append((("r", len(running)), h.name, float(k)))
        h.used = h.max_slots
    return lambda: Preemption(policy, [
        RunningJob(key, "low", {name: 1}, start)
        for key, name, start in running])


def asking(hosts, jobs, seed=2):
    """One job in five gets one of five -m lists (shared objects, as the
    controller shares them per distinct list)."""
    rnd = random.Random(seed)
    names = [h.name for h in hosts]
    lists = [AskedHosts({n: 0 for n in names[:10]}),
             AskedHosts({n: i % 3 for i, n in enumerate(names[10:40])}),
             AskedHosts({names[50]: 2}, others=0),
             AskedHosts({n: 1 for n in names[::7]}, others=0),
             AskedHosts({names[-1]: 0})]
    for job in jobs:
        if rnd.random() < 0.2:
            job.asked = rnd.choice(lists)


def escalating(jobs, seed=3):
    """-sp 1..100 or none, submitted over the last day, rising 1 every
    10 minutes."""
    rnd = random.Random(seed)
    pol = userprio.policy({"MAX_USER_PRIORITY": "100",
                           "JOB_PRIORITY_OVER_TIME": "1/10"})
    for job in jobs:
        job.user_priority = userprio.rank(
            pol, rnd.choice([None, rnd.randint(1, 100)]),
            1.7e9 - rnd.uniform(0, 86400))


def after_one_ends(queues, hosts, jobs, first, runs=5):
    """The controller's pass after one job ended: the first pass's jobs
    started (every slot taken), then one slot freed.  The pending order is
    kept from pass to pass and the pass stops once nothing more can start
    (reasons=False), as the controller runs it between reason refreshes."""
    order = PendingOrder.of(jobs)
    for key, _ in first.dispatch:
        order.drop(key)
    for h in hosts:
        h.used = h.max_slots
    hosts[len(hosts) // 2].used -= 1
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        out = schedule(queues, hosts, (), order=order, reasons=False)
        times.append((time.process_time() - t0) * 1000)
    return min(times), out


def timed(queues, hosts, jobs, runs=5, reserve=None, preempt=None):
    times = []
    for _ in range(runs):
        pre = preempt() if preempt else None
        t0 = time.process_time()
        out = schedule(queues, hosts, jobs, reserve=reserve, preempt=pre)
        times.append((time.process_time() - t0) * 1000)
    return min(times), out


def main():
    queues, hosts, jobs = snapshot(10000, 100)
    ms, out = timed(queues, hosts, jobs)
    note(f"100 hosts: {len(out.dispatch)} dispatched, "
         f"{len(out.reasons)} with reasons")
    emit("schedule_10000_pending_100_hosts", ms, "ms")
    for h in hosts:
        h.used = h.max_slots
    ms, _ = timed(queues, hosts, jobs)
    emit("schedule_10000_pending_full", ms, "ms")
    queues, hosts, jobs = snapshot(100000, 1000)
    ms, out = timed(queues, hosts, jobs, runs=3)
    note(f"1000 hosts: {len(out.dispatch)} dispatched")
    emit("schedule_100000_pending_1000_hosts", ms, "ms")
    ms, out = after_one_ends(queues, hosts, jobs, out)
    note(f"after one ended: {len(out.dispatch)} dispatched, "
         f"{len(out.reasons)} looked at")
    emit("schedule_100000_pending_1000_hosts_one_ended", ms, "ms")
    queues, hosts, jobs = snapshot(10000, 100)
    ctx = reserving(queues, hosts, jobs)
    ms, out = timed(queues, hosts, jobs, reserve=ctx)
    note(f"reserving: {len(out.dispatch)} dispatched, "
         f"{len(out.reserved)} reservations")
    emit("schedule_10000_pending_100_hosts_reserve", ms, "ms")
    queues, hosts, jobs = snapshot(10000, 100)
    ms, out = timed(queues, hosts, jobs, preempt=preempting(queues, hosts))
    note(f"preempting: {len(out.dispatch)} dispatched, "
         f"{len(out.preempt)} suspended")
    emit("schedule_10000_pending_100_hosts_preempt", ms, "ms")
    queues, hosts, jobs = snapshot(10000, 100)
    asking(hosts, jobs)
    ms, out = timed(queues, hosts, jobs)
    note(f"asking: {len(out.dispatch)} dispatched, "
         f"{len(out.reasons)} with reasons")
    emit("schedule_10000_pending_100_hosts_asked", ms, "ms")
    queues, hosts, jobs = snapshot(100000, 1000)
    escalating(jobs)
    ms, out = timed(queues, hosts, jobs, runs=3)
    note(f"escalating: {len(out.dispatch)} dispatched")
    emit("schedule_100000_pending_1000_hosts_escalating", ms, "ms")
    ms, out = after_one_ends(queues, hosts, jobs, out)
    emit("schedule_100000_pending_1000_hosts_escalating_one_ended", ms, "ms")


if __name__ == "__main__":
    main()
