"""Gang groups in the pure scheduler (xce.scheduler.gangs) and in the
simulator, which runs the same pass: all members in one pass or none."""

from xce.scheduler.core import QueueView
from xce.scheduler.views import R_GANG_SHORT, R_GANG_WAITING
from xce.sim import engine, site
from xce.sim.cluster import VirtualCluster
from xce.sim.swf import TraceJob

from tests.lib.builders import host, one_pass, pending

GANG = "/train"


def _members(*numbers, group=GANG, **fields):
    return [pending(n, job_group=group, **fields) for n in numbers]


def _texts(reasons):
    return [text for text, _ in reasons]


def test_a_gang_of_four_starts_on_four_hosts_at_once():
    hosts = [host(f"h{i}", 1) for i in range(1, 5)]
    out = one_pass(hosts, _members(1, 2, 3, 4), gang_sizes={GANG: 4})
    assert sorted(h for _, (h,) in out.dispatch) == ["h1", "h2", "h3", "h4"]
    assert out.reasons == {}


def test_a_gang_that_does_not_fit_takes_nothing_and_says_why():
    hosts = [host("h1", 1, used=1)] + [host(f"h{i}", 1) for i in range(2, 5)]
    # A later ordinary job gets a host the gang gave back.
    jobs = _members(1, 2, 3, 4) + [pending(5)]
    out = one_pass(hosts, jobs, gang_sizes={GANG: 4})
    assert out.dispatch == [((5, 0), ["h2"])]
    head = R_GANG_SHORT.format(path=GANG, placed=3, size=4)
    for n in (1, 2, 3, 4):
        assert _texts(out.reasons[(n, 0)])[0] == head
    # The member that found no host also says why, host by host.
    assert any(len(out.reasons[(n, 0)]) > 1 for n in (1, 2, 3, 4))


def test_a_gang_waits_until_all_members_are_pending():
    hosts = [host(f"h{i}", 1) for i in range(1, 5)]
    out = one_pass(hosts, _members(1, 2, 3), gang_sizes={GANG: 4})
    assert out.dispatch == []
    want = R_GANG_WAITING.format(path=GANG, ready=3, size=4)
    assert all(_texts(out.reasons[(n, 0)]) == [want] for n in (1, 2, 3))


def test_a_held_member_holds_the_gang_up():
    hosts = [host(f"h{i}", 1) for i in range(1, 5)]
    jobs = _members(1, 2, 3) + _members(4, held=True)
    out = one_pass(hosts, jobs, gang_sizes={GANG: 4})
    assert out.dispatch == []
    assert _texts(out.reasons[(4, 0)])[0].startswith("The job was suspended")
    assert "3 of 4" in _texts(out.reasons[(1, 0)])[0]


def test_members_in_two_queues_start_together():
    hosts = [host(f"h{i}", 1) for i in range(1, 3)]
    queues = [QueueView("normal", 30), QueueView("low", 10)]
    jobs = _members(1) + _members(2, queue="low")
    out = one_pass(hosts, jobs, queues, gang_sizes={GANG: 2})
    assert sorted(k for k, _ in out.dispatch) == [(1, 0), (2, 0)]


def test_a_second_batch_that_does_not_fit_leaves_the_first_started():
    hosts = [host(f"h{i}", 1) for i in range(1, 4)]
    out = one_pass(hosts, _members(1, 2, 3, 4), gang_sizes={GANG: 2})
    assert sorted(k for k, _ in out.dispatch) == [(1, 0), (2, 0)]
    assert "only 1 of 2" in _texts(out.reasons[(3, 0)])[0]


def test_an_ordinary_group_is_not_a_gang():
    hosts = [host("h1", 1)]
    out = one_pass(hosts, _members(1, 2, group="/other"),
                   gang_sizes={GANG: 2})
    assert [k for k, _ in out.dispatch] == [(1, 0)]


def _trace_job(n, submit, run):
    spec = {"command": f"member {n}", "name": None, "queue": None,
            "nslots": [1, 1], "resreq": [], "depend": None,
            "from_host": "", "runlimit": 100 / 60.0, "cwd": "/",
            "subcwd": "/", "job_group": GANG}
    return TraceJob(n, submit, run, 1, 100, "u1", "g1", -1, n, spec)


def test_the_simulator_starts_a_gang_whole_when_a_host_frees():
    cfg = site.load(None, "4x1")
    cl = VirtualCluster(cfg)
    cl.gangs = {GANG: {"size": 4, "on_failure": "kill"}}
    blocker = TraceJob(9, 0, 50, 1, 100, "u2", "g2", -1, 9)
    jobs = [blocker] + [_trace_job(n, 1, 30) for n in (1, 2, 3, 4)]
    replay = engine.Replay(cl, jobs).run()
    starts = sorted(r.start for r in replay.records.values()
                    if r.number != 9)
    assert starts == [50, 50, 50, 50]


def test_the_simulator_applies_the_kill_policy():
    cfg = site.load(None, "4x1")
    cl = VirtualCluster(cfg)
    cl.gangs = {GANG: {"size": 4, "on_failure": "kill"}}
    # Member 1 runs past its run limit (100 s) and is killed at 100 s;
    # member 5 waits for three more and is ended while pending.
    jobs = [_trace_job(1, 0, 500)] + [_trace_job(n, 0, 400)
                                      for n in (2, 3, 4, 5)]
    replay = engine.Replay(cl, jobs).run()
    assert sorted(r.end for r in replay.records.values()) == [100] * 5
    assert replay.unfinished() == []


def _mixed(seed):
    """Hosts with memory, jobs with rusage, span, -x and -n ranges."""
    import random
    rnd = random.Random(seed)
    hosts = [host(f"h{i}", rnd.choice([2, 4]), mem=4000, maxmem=4000)
             for i in range(8)]
    for h in hosts:
        h.mem_total = 4000
    reqs = [None, "rusage[mem=1500]", "span[hosts=1]", "select[maxmem>1]"]
    jobs = []
    for n in range(10, 40):
        jobs.append(pending(n, rnd.choice([1, 2]), rnd.choice([None, 3]),
                            rr=rnd.choice(reqs), user=f"u{n % 3}",
                            exclusive=rnd.random() < 0.1))
    return hosts, jobs


def test_a_gang_that_falls_short_leaves_the_pass_as_if_it_were_not_there():
    """The undo gives back hosts, memory, queue counts and -x marks: the
    other jobs are placed exactly as in a pass without the gang."""
    for seed in range(20):
        hosts, others = _mixed(seed)
        # First in order; the last member can never be placed.
        gang = _members(1, 2, 3, rr="rusage[mem=1000]", exclusive=seed % 2)
        gang.append(pending(4, rr="select[hname==nosuch]", job_group=GANG))
        with_gang = one_pass(hosts, gang + others, gang_sizes={GANG: 4})
        hosts, others = _mixed(seed)
        alone = one_pass(hosts, others)
        assert with_gang.dispatch == alone.dispatch, seed
        assert all(with_gang.reasons[m.key][0][0].startswith("Gang group")
                   for m in gang)
