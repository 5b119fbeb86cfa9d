"""A job's decision trace (xce explain) over small snapshots of the pure
scheduler: position, each host's verdict with had vs wanted, the decision,
and that asking for a trace changes no decision."""

import json
import random

from xce.lang import resreq
from xce.scheduler import core
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.trace import Tracer
from xce.scheduler.trace_select import unmet

from tests.lib.builders import host, one_pass, pending


def _trace(queues, hosts, jobs, key, limits=None):
    out = schedule(queues, hosts, jobs, limits=limits, trace=Tracer([key]))
    return out, out.traces[key]


def _row(trace, host):
    return next(r for r in trace["hosts"] if r["host"] == host)


def test_select_on_mem_names_the_host_and_what_it_had_against_what_was_wanted():
    hosts = [host("a", 4, mem=3900, maxmem=3900),
             host("b", 4, mem=200000, maxmem=200000, status="closed_Adm")]
    out, trace = _trace([QueueView("normal", 30)], hosts,
                        [pending(1, rr="select[mem>100000]")], (1, 0))
    a = _row(trace, "a")
    assert not a["usable"] and a["reason"] == core.R_RESREQ
    assert a["details"] == [{"what": "mem", "had": 3900,
                             "wanted": "mem > 100000"}]
    b = _row(trace, "b")
    assert b["reason"] == core.R_HOST_CLOSED
    assert b["details"] == [{"what": "status", "had": "closed_Adm",
                             "wanted": "ok"}]
    assert trace["decision"]["action"] == "pend"
    assert trace["decision"]["reasons"] == [[r, h] for r, h in
                                            out.reasons[(1, 0)]]
    assert trace["wants"]["resreq"] == "select[mem > 100000]"
    json.dumps(trace)       # what the controller puts in its reply


def test_an_and_reports_only_its_false_members():
    sel = resreq.parse("select[ncpus>=2 && mem>10 && type==X86_64]").select
    got = unmet(sel.expr, {"ncpus": 1, "mem": 50, "type": "X86_64"})
    assert got == [{"what": "ncpus", "had": 1, "wanted": "ncpus >= 2"}]
    assert unmet(sel.expr, {"ncpus": 4, "mem": 50, "type": "X86_64"}) == []
    either = resreq.parse("select[ncpus>8 || maxmem>9]").select
    got = unmet(either.expr, {"ncpus": 1})
    assert [(d["what"], d["had"]) for d in got] == [("maxmem", None),
                                                    ("ncpus", 1)]


def test_position_and_the_slots_the_jobs_ahead_took():
    hosts = [host("a", 2)]
    jobs = [pending(1, lo=2), pending(2), pending(3)]
    out, trace = _trace([QueueView("normal", 30), QueueView("low", 10)],
                        hosts, jobs, (2, 0))
    assert trace["queue_rank"] == [1, 2]
    assert trace["position"] == [2, 3]
    assert trace["placed_before"] == 1
    a = _row(trace, "a")
    assert a["reason"] == core.R_HOST_FULL
    assert a["details"][0]["had"] == 0
    assert trace["decision"] == {"action": "pend",
                                 "reasons": [[core.R_HOST_FULL, ["a"]]]}


def test_a_placed_job_shows_its_hosts_and_free_slots():
    hosts = [host("a", 2), host("b", 4)]
    out, trace = _trace([QueueView("normal", 30)], hosts, [pending(1, lo=3)],
                        (1, 0))
    assert trace["decision"] == {"action": "dispatch",
                                 "hosts": ["b", "b", "b"]}
    assert _row(trace, "b")["usable"] and \
        _row(trace, "b")["details"][0]["had"] == 4


def test_job_wide_reason_with_the_queue_limit_compared():
    q = QueueView("normal", 30, qjob_limit=2, used=2)
    out, trace = _trace([q], [host("a", 4)], [pending(1)], (1, 0))
    assert trace["job_reason"]["reason"] == core.R_QUEUE_LIMIT
    assert trace["job_reason"]["details"][0]["had"] == 2
    assert trace["hosts"] == []


def test_queue_hosts_jl_u_and_memory_reservation_are_explained():
    hosts = [host("a", 4), host("b", 4, maxmem=100, mem=100),
             host("c", 4)]
    hosts[2].jl_u, hosts[2].user_used = 1, {"u": 1}
    hosts[2].used = 1
    q = QueueView("normal", 30, hosts=["b", "c"])
    out, trace = _trace([q], hosts, [pending(1, rr="rusage[mem=500]")],
                        (1, 0))
    assert _row(trace, "a")["reason"] == core.R_HOST_QUEUE
    b = _row(trace, "b")
    assert b["reason"] == core.R_RESERVE_MEM
    assert b["details"][0]["had"] == 100
    assert b["details"][0]["wanted"] == "rusage[mem=500]"
    c = _row(trace, "c")
    assert c["reason"] == core.R_HOST_USER_LIMIT
    assert c["details"][0]["had"] == 1


def test_tracing_changes_no_decision():
    rnd = random.Random(7)
    reqs = [None, "select[maxmem>2000]", "span[hosts=1]", "rusage[mem=1500]",
            "select[mem>1000] order[-mem]"]
    for _ in range(40):
        hosts = [host(f"h{i}", rnd.randint(1, 4),
                      maxmem=rnd.choice([1000, 4000]), mem=900)
                 for i in range(rnd.randint(1, 5))]
        jobs = [pending(i, lo=rnd.randint(1, 3), rr=rnd.choice(reqs))
                for i in range(1, 15)]
        plain = one_pass(hosts, jobs)
        keys = [j.key for j in rnd.sample(jobs, 3)]
        traced = one_pass(hosts, jobs,
                          trace=Tracer(keys))
        assert (traced.dispatch, traced.reasons) == \
            (plain.dispatch, plain.reasons)
        assert set(traced.traces) == set(keys)
        for key in keys:
            placed = dict(plain.dispatch).get(key)
            decision = traced.traces[key]["decision"]
            assert (decision["action"] == "dispatch") == (placed is not None)


def test_a_pass_that_stops_early_stops_at_the_same_job_when_traced():
    hosts = [host("a", 2), host("b", 1)]
    jobs = [pending(i) for i in range(1, 8)]
    plain = one_pass(hosts, jobs, reasons=False)
    traced = one_pass(hosts, jobs, reasons=False,
                      trace=Tracer([(2, 0), (7, 0)]))
    assert (traced.dispatch, traced.reasons, traced.partial) == \
        (plain.dispatch, plain.reasons, plain.partial)
    assert plain.partial
    # Job 7 is past the point where the pass stopped: no trace of it.
    assert set(traced.traces) == {(2, 0)}


def test_a_host_short_of_reservable_swp_shows_what_is_left():
    hosts = [host("a", 4, maxswp=100, swp=100)]
    out, trace = _trace([QueueView("normal", 30)], hosts,
                        [pending(1, rr="rusage[swp=500]")], (1, 0))
    a = _row(trace, "a")
    assert a["reason"] == \
        "Job requirements for reserving resource (swp) not satisfied"
    assert a["details"] == [{"what": "swp free to reserve", "had": 100,
                             "wanted": "rusage[swp=500]"}]
    json.dumps(trace)


def test_a_host_running_an_exclusive_job_says_so():
    hosts = [host("a", 4, status="closed_Excl"), host("b", 1)]
    hosts[1].used = 1
    out, trace = _trace([QueueView("normal", 30)], hosts, [pending(1)], (1, 0))
    assert _row(trace, "a")["reason"] == "Running an exclusive job"
    assert _row(trace, "a")["details"] == [
        {"what": "status", "had": "closed_Excl", "wanted": "ok"}]
    assert _row(trace, "b")["reason"] == core.R_HOST_FULL
