"""The pure scheduler: placement, -R, -n min,max, arrays, dependencies,
pend reasons and determinism, table-driven against xce.scheduler.core."""

import random

import pytest

from xce.lang import resreq
from xce.scheduler import core
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.placement import place

from tests.lib.builders import host, job_row, one_pass, pending
from tests.lib.fake_controller import FakeController


def _hosts(*specs):
    """("a", 4) or ("a", 4, {"mem": ...}) -> HostView list."""
    return [host(name, slots, **(extra[0] if extra else {}))
            for name, slots, *extra in specs]


# ------------------------------------------------------------------ placement
class _Span:
    def __init__(self, hosts=None, ptile=None, block=None):
        self.hosts, self.ptile, self.block = hosts, ptile, block


@pytest.mark.parametrize("lo, hi, free, span, expect", [
    (2, 2, {"a": 4, "b": 4}, None, ["a", "a"]),
    (6, 6, {"a": 4, "b": 4}, None, ["a"] * 4 + ["b"] * 2),
    (2, 8, {"a": 4, "b": 3}, None, ["a"] * 4 + ["b"] * 3),
    (4, 4, {"a": 3, "b": 3}, _Span(hosts=1), None),
    (2, 6, {"a": 3, "b": 2}, _Span(hosts=1), ["a"] * 3),
    (4, 4, {"a": 4, "b": 4}, _Span(ptile=2), ["a", "a", "b", "b"]),
    (5, 5, {"a": 4, "b": 4, "c": 1}, _Span(ptile=2),
     ["a", "a", "b", "b", "c"]),
    (4, 4, {"a": 4}, _Span(ptile=2), None),
    (4, 4, {"a": 3, "b": 1}, _Span(block=2), None),
    (4, 4, {"a": 2, "b": 2}, _Span(block=2), ["a", "a", "b", "b"]),
    (2, 7, {"a": 5, "b": 3}, _Span(block=2), ["a"] * 4 + ["b"] * 2),
    # -n not a multiple of the block: a final partial block, on one host.
    (3, 3, {"a": 2, "b": 2}, _Span(block=2), ["a", "a", "b"]),
    (3, 3, {"a": 3, "b": 1}, _Span(block=2), ["a", "a", "a"]),
    (5, 5, {"a": 3, "b": 3}, _Span(block=2), ["a"] * 2 + ["b"] * 3),
    (3, 3, {"a": 1, "b": 1, "c": 1}, _Span(block=2), None),
    (3, 3, {"a": 1, "b": 1}, None, None),
])
def test_place_shapes(lo, hi, free, span, expect):
    ranked = sorted(free, key=lambda n: (-free[n], n))
    result = place(lo, hi, free, ranked, span, {n: 4 for n in free})
    assert result.slots == expect


def test_ptile_bang_takes_each_hosts_slot_count():
    free = {"a": 2, "b": 4}
    result = place(6, 6, free, ["b", "a"], _Span(ptile="!"),
                   {"a": 2, "b": 4})
    assert result.slots == ["b"] * 4 + ["a"] * 2


# ------------------------------------------------------------- -R and reasons
def test_select_filters_hosts_with_resreq_reason():
    hosts = _hosts(("a", 4, {"maxmem": 1000}), ("b", 4, {"maxmem": 8000}))
    out = one_pass(hosts, [pending(1, rr="select[maxmem>4000]")])
    assert out.dispatch == [((1, 0), ["b"])]
    out = one_pass(hosts, [pending(1, rr="select[maxmem>9000]")])
    assert out.reasons[(1, 0)] == [[core.R_RESREQ, ["a", "b"]]]


def test_full_cluster_names_the_unsatisfied_select_on_hosts_with_room():
    """In a full cluster every host is out of slots, which LSF reports
    before select[]; a host with room still names the select."""
    hosts = _hosts(("a", 1), ("b", 1, {"bigmem": True}), ("c", 1))
    hosts[0].used = hosts[1].used = 1
    out = one_pass(hosts, [pending(1, rr="bigmem"), pending(2),
                           pending(3, rr="bigmem")])
    assert out.reasons[(1, 0)] == [[core.R_RESREQ, ["c"]],
                                   [core.R_HOST_FULL, ["a", "b"]]]
    assert out.reasons[(3, 0)] == [[core.R_HOST_FULL, ["a", "b", "c"]]]


def test_queue_res_req_gives_its_own_host_reason():
    hosts = _hosts(("a", 4), ("b", 4, {"bigmem": True}))
    q = QueueView("normal", 30, select=resreq.parse("bigmem").select)
    out = one_pass(hosts, [pending(1, lo=6)], queues=[q])
    assert out.reasons[(1, 0)] == [[core.R_HOST_FULL, ["b"]],
                                   [core.R_QUEUE_RESREQ, ["a"]]]


def test_order_sorts_candidates():
    hosts = _hosts(("a", 4, {"maxmem": 1000}), ("b", 4, {"maxmem": 8000}))
    out = one_pass(hosts, [pending(1, rr="order[maxmem]")])
    assert out.dispatch == [((1, 0), ["b"])]
    out = one_pass(hosts, [pending(1, rr="order[-maxmem]")])
    assert out.dispatch == [((1, 0), ["a"])]


def test_ptile_failure_is_a_job_reason():
    """Not enough hosts with ptile free slots: LSF's job-wide reason."""
    out = one_pass(_hosts(("a", 3), ("b", 1)),
                   [pending(1, lo=4, rr="span[ptile=2]")])
    assert out.reasons[(1, 0)] == [[core.R_SPAN, None]]


def test_one_host_span_failure_is_a_host_reason():
    """span[hosts=1] and no host with the slots: each host that has some
    gives LSF's host-based 'Not enough processors ...'; a full one stays
    full."""
    hosts = [host("a", 2), host("b", 2), host("c", 4, used=4)]
    out = one_pass(hosts, [pending(2, lo=3, rr="span[hosts=1]")])
    assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["c"]],
                                   [core.R_NO_SPAN, ["a", "b"]]]


def test_rusage_mem_reserves_for_later_jobs():
    hosts = _hosts(("a", 8, {"maxmem": 1000, "mem": 1000}))
    jobs = [pending(i, rr="rusage[mem=400]") for i in (1, 2, 3)]
    out = one_pass(hosts, jobs)
    assert [k for k, _ in out.dispatch] == [(1, 0), (2, 0)]
    assert out.reasons[(3, 0)] == [[core.R_RESERVE_MEM, ["a"]]]


def test_rusage_alternatives_take_the_first_that_fits():
    hosts = _hosts(("a", 8, {"maxmem": 1000, "mem": 1000}))
    out = one_pass(hosts, [pending(1, rr="rusage[mem=5000 || mem=500]"),
                           pending(2, rr="rusage[mem=300 || mem=200]")])
    assert out.dispatch == [((1, 0), ["a"]), ((2, 0), ["a"])]
    # The alternative each start took, when not the first.
    assert out.rusage_alt == {(1, 0): 1}


def test_select_sees_memory_left_after_reservations():
    hosts = _hosts(("a", 8, {"maxmem": 1000, "mem": 1000}))
    jobs = [pending(1, rr="rusage[mem=800]"), pending(2, rr="select[mem>500]")]
    out = one_pass(hosts, jobs)
    assert out.reasons[(2, 0)] == [[core.R_RESREQ, ["a"]]]


def test_same_keeps_a_parallel_job_on_one_kind_of_host():
    hosts = _hosts(("a", 2, {"model": "m1"}), ("b", 2, {"model": "m2"}),
                   ("c", 2, {"model": "m2"}))
    out = one_pass(hosts, [pending(1, lo=4, rr="same[model]")])
    assert out.dispatch == [((1, 0), ["b", "b", "c", "c"])]
    out = one_pass(hosts, [pending(1, lo=5, rr="same[model]")])
    assert out.reasons[(1, 0)] == [[core.R_HOST_FULL, ["a", "b", "c"]]]


def test_n_min_max_takes_what_fits():
    hosts = _hosts(("a", 4))
    hosts[0].used = 1
    out = one_pass(hosts, [pending(1, lo=2, hi=6)])
    assert out.dispatch == [((1, 0), ["a"] * 3)]
    out = one_pass(hosts, [pending(1, lo=4, hi=6)])
    assert out.reasons[(1, 0)] == [[core.R_HOST_FULL, ["a"]]]


def test_n_max_respects_queue_slot_limit():
    q = QueueView("normal", 30, qjob_limit=3)
    out = one_pass(_hosts(("a", 8)), [pending(1, lo=1, hi=8)], queues=[q])
    assert out.dispatch == [((1, 0), ["a"] * 3)]


# -------------------------------------------------------- arrays and -w state
def test_array_limit_counts_running_and_new_elements():
    jobs = [pending(7, idx=i, array_limit=2) for i in (1, 2, 3)]
    for j in jobs:
        j.seq = 7
    out = one_pass(_hosts(("a", 8)), jobs, arrays={7: 1})
    assert [k for k, _ in out.dispatch] == [(7, 1)]
    assert out.reasons[(7, 2)] == [[core.R_ARRAY_LIMIT, None]]


@pytest.mark.parametrize("state, reason", [
    ("wait", core.R_DEPEND), ("never", core.R_DEPEND_NEVER)])
def test_dependency_states_become_job_reasons(state, reason):
    out = one_pass(_hosts(("a", 8)), [pending(1, depend=state)])
    assert out.reasons[(1, 0)] == [[reason, None]]


def test_dependency_reason_wins_over_full_hosts():
    hosts = _hosts(("a", 1))
    hosts[0].used = 1
    out = one_pass(hosts, [pending(1, depend="wait"), pending(2)])
    assert out.reasons[(1, 0)] == [[core.R_DEPEND, None]]
    assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["a"]]]


# --------------------------------------------------------------- pure, quick
def test_input_is_not_mutated_and_answers_repeat():
    hosts = _hosts(("a", 4), ("b", 2))
    q = QueueView("normal", 30)
    jobs = [pending(i, lo=1 + i % 3) for i in range(1, 8)]
    first = schedule([q], hosts, jobs)
    assert hosts[0].used == 0 and q.used == 0
    assert schedule([q], hosts, jobs) == first


def test_random_snapshots_are_deterministic():
    rnd = random.Random(5)
    for _ in range(50):
        hosts = _hosts(*[(f"h{i}", rnd.randint(1, 4),
                          {"maxmem": rnd.choice([1000, 4000])})
                         for i in range(rnd.randint(1, 5))])
        reqs = [None, resreq.parse("select[maxmem>2000]"),
                resreq.parse("span[hosts=1]"), resreq.parse("span[ptile=2]"),
                resreq.parse("rusage[mem=1500]")]
        jobs = [pending(i, lo=rnd.randint(1, 3), hi=rnd.randint(3, 5),
                        rr=rnd.choice(reqs)) for i in range(1, 20)]
        a = one_pass(hosts, jobs)
        b = one_pass(hosts, list(reversed(jobs)))
        assert a == b
        placed = {k for k, _ in a.dispatch}
        assert placed | set(a.reasons) == {j.key for j in jobs}
        for key, slots in a.dispatch:
            job = next(j for j in jobs if j.key == key)
            assert job.nslots <= len(slots) <= max(job.max_slots, job.nslots)


def test_roomiest_host_shortcut_decides_as_the_full_scan(monkeypatch):
    rnd = random.Random(11)
    hosts = _hosts(*[(f"h{i:02d}", rnd.randint(1, 6)) for i in range(30)])
    for h in hosts:
        h.used = rnd.randint(0, h.max_slots)
    jobs = [pending(i, lo=rnd.randint(1, 3), hi=rnd.randint(3, 6))
            for i in range(1, 120)]
    fast = one_pass(hosts, jobs)
    monkeypatch.setattr(core, "_simple", lambda *args: False)
    assert schedule([QueueView("normal", 30)], hosts, jobs) == fast


def test_unsatisfiable_class_shares_one_reasons_list():
    jobs = [pending(i, rr=resreq.parse("select[maxmem>1]")) for i in range(3)]
    for j in jobs[1:]:
        j.resreq = jobs[0].resreq
    out = one_pass(_hosts(("a", 4)), jobs)
    assert out.reasons[(0, 0)] is out.reasons[(2, 0)]


# ------------------------------------------------ the controller's job index
def test_job_index_answers_by_id_name_element_and_after_finish():
    from xce.controller.jobindex import JobIndex
    from xce.lang import depend

    ctl = FakeController()
    index = JobIndex(ctl)

    def add(jobid, idx, name, stat="PEND", user="u", array=None):
        job = ctl.add(job_row(jobid, stat, idx=idx, user=user, name=name,
                              spec={"array_name": array} if array else {}))
        index.note(job)
        return job
    first = add(1, 0, "build")
    add(2, 1, "sim[1]", array="sim")
    add(2, 2, "sim[2]", array="sim")
    add(3, 0, "build", user="other")

    def state(expr, user="u", own_idx=0):
        return depend.evaluate(depend.parse(expr),
                               index.lookup(user, False, own_idx))
    assert state("done(build)") is False
    first.update(stat="EXIT", exit_code=3, end_time=100.0)
    del ctl.jobs[(1, 0)]
    generation = index.generation
    index.note(first)
    assert index.generation > generation
    assert state("exit(build, 3)") is True
    assert state("done(1)") is depend.NEVER
    assert state("ended(2[2]) || exit(1)") is True
    assert state("done(sim[*])", own_idx=2) is False
    assert index.keys(depend.parse("done(sim*)").ref, "u", False) == \
        [(2, 1), (2, 2)]
    index.expire(before=200.0)
    assert state("exit(1)") is depend.NEVER       # forgotten: never


@pytest.mark.parametrize("name, pattern, expect", [
    ("sim[3]", "sim", True), ("sim[3]", "sim[3]", True),
    ("sim[3]", "sim[4]", False), ("sim[3]", "s*", True),
    ("sim3", "sim[3]", False), ("job", "j*b", True), ("job", "jo", False),
    ("a*b", "a*b", True), ("x[1]y", "x", False),
])
def test_job_name_filters_treat_brackets_literally(name, pattern, expect):
    from xce.model.arrayspec import name_matches
    assert name_matches(name, pattern) is expect


def test_job_group_limits_hold_jobs_along_the_path():
    jobs = [pending(i, job_group=g) for i, g in
            ((1, "/a/b"), (2, "/a/c"), (3, "/a/b"), (4, "/x"), (5, None))]
    out = one_pass(_hosts(("h", 8)), jobs, groups={"/a": 2, "/a/b": 1})
    assert [k[0] for k, _ in out.dispatch] == [1, 2, 4, 5]
    assert out.reasons[(3, 0)] == [[core.R_JGROUP_LIMIT, None]]
    out = one_pass(_hosts(("h", 8)), jobs, groups={"/a": 0})
    assert [k[0] for k, _ in out.dispatch] == [4, 5]


def test_a_parallel_job_beyond_the_queue_room_left_says_so():
    """Some queue slots left, fewer than the job's: LSF's reasons for the
    parallel job; none left: the limit is reached."""
    q = QueueView("normal", 30, qjob_limit=3, used=2)
    out = one_pass([host("a", 8)], [pending(1, lo=2)], queues=[q])
    assert out.reasons[(1, 0)] == [[core.R_QUEUE_PJOB_LIMIT, None]]
    q = QueueView("normal", 30, qjob_limit=2, used=2)
    out = one_pass([host("a", 8)], [pending(1, lo=2)], queues=[q])
    assert out.reasons[(1, 0)] == [[core.R_QUEUE_LIMIT, None]]
    q = QueueView("normal", 30, ujob_limit=3, user_used={"u": 2})
    out = one_pass([host("a", 8)], [pending(1, lo=2)], queues=[q])
    assert out.reasons[(1, 0)] == [[core.R_USER_QUEUE_PJOB_LIMIT, None]]
    q = QueueView("normal", 30, ujob_limit=2, user_used={"u": 2})
    out = one_pass([host("a", 8)], [pending(1, lo=2)], queues=[q])
    assert out.reasons[(1, 0)] == [[core.R_USER_QUEUE_LIMIT, None]]
    assert core.R_QUEUE_PJOB_LIMIT == \
        "The queue has not enough job slots for the parallel job"
    assert core.R_USER_QUEUE_PJOB_LIMIT == \
        "Not enough per-user job slots of the queue for the parallel job"


def test_full_host_that_fails_select_is_full():
    """A host with no slot left is dropped on its slots before select[] is
    looked at (OpenLava's order: host and queue slot limits, then the
    resource requirement), whether the select reads static or changing
    resources."""
    hosts = [host("a", 2, used=2), host("b", 2, used=2, big=1),
             host("c", 2, big=0)]
    for rr in ("select[big==1]", "select[big==1 && mem>=0]"):
        out = one_pass(hosts, [pending(1, rr=rr)])
        assert out.reasons[(1, 0)] == [[core.R_RESREQ, ["c"]],
                                       [core.R_HOST_FULL, ["a", "b"]]], rr
    queue = QueueView("normal", 30, select=resreq.parse("big==1").select,
                      hjob_limit=1, host_used={"c": 1})
    out = one_pass(hosts, [pending(2)], queues=[queue])
    assert out.reasons[(2, 0)] == [[core.R_HOST_FULL, ["a", "b"]],
                                   [core.R_HOST_QUEUE_LIMIT, ["c"]]]


def _from_queue(job_text, queue_text):
    return resreq.merge_with_queue(job_text or None, queue_text)


def test_queue_span_failure_gives_the_queues_wording():
    """span[] of the queue's RES_REQ: LSF's PEND_QUE_NO_SPAN (1321) per
    host and PEND_QUE_SPREAD_TASK (313) job-wide; the job's own span[]
    keeps the job's wording."""
    hosts = [host("a", 2), host("b", 2)]
    rr = _from_queue(None, "span[hosts=1]")
    out = one_pass(hosts, [pending(1, lo=3, rr=rr)])
    assert out.reasons[(1, 0)] == [[core.R_QUE_NO_SPAN, ["a", "b"]]]
    rr = _from_queue(None, "span[ptile=3]")
    out = one_pass(hosts, [pending(2, lo=3, rr=rr)])
    assert out.reasons[(2, 0)] == [[core.R_QUE_SPAN, None]]
    rr = _from_queue("span[hosts=1]", "span[ptile=3]")
    out = one_pass(hosts, [pending(3, lo=3, rr=rr)])
    assert out.reasons[(3, 0)] == [[core.R_NO_SPAN, ["a", "b"]]]


def test_queue_rusage_failure_gives_the_queues_wording():
    """rusage[] amounts the queue's RES_REQ adds: LSF's
    PEND_HOST_QUE_RUSAGE (2301 + index) 'Queue requirements for
    reserving resource (x) not satisfied'; the job's own amount of the
    same resource keeps the job's wording."""
    hosts = [host("a", 4, maxmem=1000, mem=1000, maxtmp=100, tmp=100)]
    rr = _from_queue(None, "rusage[mem=4000]")
    out = one_pass(hosts, [pending(1, rr=rr)])
    assert out.reasons[(1, 0)] == [[
        "Queue requirements for reserving resource (mem) not satisfied",
        ["a"]]]
    rr = _from_queue("rusage[mem=4000]", "rusage[mem=100]")
    out = one_pass(hosts, [pending(2, rr=rr)])
    assert out.reasons[(2, 0)] == [[core.R_RESERVE_MEM, ["a"]]]
    rr = _from_queue("rusage[mem=10]", "rusage[tmp=500]")
    out = one_pass(hosts, [pending(3, rr=rr)])
    assert out.reasons[(3, 0)] == [[
        "Queue requirements for reserving resource (tmp) not satisfied",
        ["a"]]]
