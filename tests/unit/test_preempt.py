"""Queue preemption in the pure scheduler: PREEMPTION parsing, who may
preempt whom, which running jobs are suspended for a pending job, and when
preempted jobs are resumed (table-driven against core.schedule)."""

import pytest

from xce.lang import preempt
from xce.lang.preempt import Policy
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.preempt import Preemption, RunningJob

from tests.lib.builders import host, job_row, pending, site
from tests.lib.fake_controller import FakeController

HIGH, LOW = "high", "low"


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize("text, tive, table", [
    ("PREEMPTIVE", {}, None),
    ("PREEMPTIVE[low]", {"low": 0}, None),
    ("preemptive[ low  idle+2 ]", {"low": 0, "idle": 2}, None),
    ("PREEMPTABLE", None, {}),
    ("PREEMPTIVE[low] PREEMPTABLE[top]", {"low": 0}, {"top": 0}),
    ("PREEMPTABLE[top]PREEMPTIVE", {}, {"top": 0}),
])
def test_parse_reads_both_parts(text, tive, table):
    spec = preempt.parse(text)
    assert (spec.preemptive, spec.preemptable) == (tive, table)


@pytest.mark.parametrize("text", [
    "", "YES", "PREEMPTIVE[low", "PREEMPTIVE[low] junk",
    "PREEMPTIVE PREEMPTIVE[low]", "PREEMPTIVE[low+x]", "junk PREEMPTIVE",
])
def test_parse_rejects_what_it_cannot_read(text):
    with pytest.raises(preempt.PreemptError):
        preempt.parse(text)


# ------------------------------------------------------------------ policy
def _policy(**queues):
    """name=(priority, PREEMPTION text or None)."""
    return Policy({name: (prio, preempt.parse(text) if text else None)
                   for name, (prio, text) in queues.items()})


@pytest.mark.parametrize("queues, hi, lo, expect", [
    ({"high": (50, "PREEMPTIVE[low]"), "low": (10, None)}, HIGH, LOW, True),
    ({"high": (50, "PREEMPTIVE"), "low": (10, None)}, HIGH, LOW, True),
    ({"high": (50, "PREEMPTIVE[mid]"), "mid": (20, None),
      "low": (10, None)}, HIGH, LOW, False),
    ({"high": (50, None), "low": (10, "PREEMPTABLE")}, HIGH, LOW, True),
    ({"high": (50, None), "low": (10, "PREEMPTABLE[mid]"),
      "mid": (20, None)}, HIGH, LOW, False),
    ({"high": (50, None), "low": (10, None)}, HIGH, LOW, False),
    # Never upwards or sideways, whatever the lists say.
    ({"high": (50, None), "low": (10, "PREEMPTIVE[high]")}, LOW, HIGH,
     False),
    ({"high": (10, "PREEMPTIVE"), "low": (10, None)}, HIGH, LOW, False),
])
def test_policy_who_may_preempt_whom(queues, hi, lo, expect):
    assert _policy(**queues).may_preempt(hi, lo) is expect


# ------------------------------------------------------------------ passes
def _pass(hosts, running, waiting, queues):
    """hosts: {name: slots}; running: (id, queue, {host: n}, start,
    preempted); waiting: (id, queue, nslots); queues: name=(prio, text).
    Every running job's slots count on its hosts, suspended or not."""
    views = {}
    for name, slots in hosts.items():
        views[name] = host(name, slots)
    jobs = []
    for jobid, queue, where, start, held in running:
        jobs.append(RunningJob((jobid, 0), queue, dict(where), start, held))
        for name, n in where.items():
            views[name].used += n
    for h in views.values():
        h.resources["slots"] = h.max_slots - h.used
    qviews = [QueueView(name, prio) for name, (prio, _) in queues.items()]
    pend = [pending(jobid, n, queue=queue) for jobid, queue, n in waiting]
    pre = Preemption(_policy(**queues), jobs)
    return schedule(qviews, list(views.values()), pend, preempt=pre)


_TWO = {"high": (50, "PREEMPTIVE[low]"), "low": (10, None)}

CASES = [
    # name, hosts, running, pending, queues,
    #   expected dispatch {id: hosts}, preempt [(victim, for)], resume [ids]
    ("the latest started low job makes room", {"a": 2},
     [(1, LOW, {"a": 1}, 10, False), (2, LOW, {"a": 1}, 20, False)],
     [(3, HIGH, 1)], _TWO, {3: ["a"]}, [(2, 3)], []),
    ("no PREEMPTION: the high job waits", {"a": 2},
     [(1, LOW, {"a": 2}, 10, False)], [(3, HIGH, 1)],
     {"high": (50, None), "low": (10, None)}, {}, [], []),
    ("a free slot needs no preemption", {"a": 2},
     [(1, LOW, {"a": 1}, 10, False)], [(3, HIGH, 1)], _TWO,
     {3: ["a"]}, [], []),
    ("two slots, two victims", {"a": 2},
     [(1, LOW, {"a": 1}, 10, False), (2, LOW, {"a": 1}, 20, False)],
     [(3, HIGH, 2)], _TWO, {3: ["a", "a"]}, [(2, 3), (1, 3)], []),
    ("a job of a queue not listed is left alone", {"a": 1},
     [(1, "mid", {"a": 1}, 10, False)], [(3, HIGH, 1)],
     {"high": (50, "PREEMPTIVE[low]"), "mid": (20, None),
      "low": (10, None)}, {}, [], []),
    ("the preferred queue goes first", {"a": 2},
     [(1, "low1", {"a": 1}, 30, False), (2, "low2", {"a": 1}, 10, False)],
     [(3, HIGH, 1)],
     {"high": (50, "PREEMPTIVE[low1 low2+1]"), "low1": (10, None),
      "low2": (10, None)}, {3: ["a"]}, [(2, 3)], []),
    ("the lower-priority queue goes first", {"a": 2},
     [(1, "low1", {"a": 1}, 10, False), (2, "low2", {"a": 1}, 30, False)],
     [(3, HIGH, 1)],
     {"high": (50, "PREEMPTIVE"), "low1": (5, None),
      "low2": (10, None)}, {3: ["a"]}, [(1, 3)], []),
    ("a suspended job's slot is free to the preemptive queue", {"a": 1},
     [(1, LOW, {"a": 1}, 10, True)], [(3, HIGH, 1)], _TWO,
     {3: ["a"]}, [], []),
    ("but not to its own queue, and it is not resumed yet", {"a": 1},
     [(1, LOW, {"a": 1}, 10, True), (2, HIGH, {"a": 1}, 20, False)],
     [(4, LOW, 1)], _TWO, {}, [], []),
    ("resumed when the host is no longer over-committed", {"a": 2},
     [(1, LOW, {"a": 1}, 10, True), (2, LOW, {"a": 1}, 20, False)],
     [(4, LOW, 1)], _TWO, {}, [], [1]),
    ("over-committed: another victim is needed", {"a": 2},
     [(1, LOW, {"a": 1}, 10, True), (2, LOW, {"a": 1}, 20, False),
      (3, HIGH, {"a": 1}, 30, False)],
     [(4, HIGH, 1)], _TWO, {4: ["a"]}, [(2, 4)], []),
    ("a victim on two hosts frees both", {"a": 1, "b": 1},
     [(1, LOW, {"a": 1, "b": 1}, 10, False)],
     [(3, HIGH, 1), (4, HIGH, 1)], _TWO,
     {3: ["a"], 4: ["b"]}, [(1, 3)], []),
    ("not enough to take: nothing is suspended", {"a": 2},
     [(1, LOW, {"a": 1}, 10, False), (2, HIGH, {"a": 1}, 20, False)],
     [(3, HIGH, 2)], _TWO, {}, [], []),
    ("PREEMPTABLE alone lets any higher queue in", {"a": 1},
     [(1, LOW, {"a": 1}, 10, False)], [(3, HIGH, 1)],
     {"high": (50, None), "low": (10, "PREEMPTABLE")},
     {3: ["a"]}, [(1, 3)], []),
]


@pytest.mark.parametrize("name, hosts, running, pending, queues, dispatch, "
                         "victims, resumed", CASES,
                         ids=[c[0] for c in CASES])
def test_preemption_pass(name, hosts, running, pending, queues, dispatch,
                         victims, resumed):
    out = _pass(hosts, running, pending, queues)
    assert {k[0]: slots for k, slots in out.dispatch} == dispatch
    assert [(v[0], f[0]) for v, f in out.preempt] == victims
    assert [k[0] for k in out.resume] == resumed
    for key, _ in out.dispatch:
        assert key not in out.reasons


def test_a_job_that_still_cannot_start_keeps_its_pend_reason():
    out = _pass({"a": 1}, [(1, "mid", {"a": 1}, 10, False)], [(3, HIGH, 1)],
                {"high": (50, "PREEMPTIVE[low]"), "mid": (20, None),
                 "low": (10, None)})
    assert out.reasons[(3, 0)] == [["Not enough job slot(s)", ["a"]]]


def test_a_held_preemptive_job_preempts_nothing():
    views = [host("a", 1, used=1)]
    job = pending(3, queue=HIGH, held=True)
    pre = Preemption(_policy(**_TWO),
                     [RunningJob((1, 0), LOW, {"a": 1}, 10)])
    out = schedule([QueueView(HIGH, 50), QueueView(LOW, 10)], views, [job],
                   preempt=pre)
    assert out.dispatch == [] and out.preempt == []


def test_same_pass_same_answer():
    args = ({"a": 2, "b": 1},
            [(1, LOW, {"a": 1}, 10, False), (2, LOW, {"a": 1, "b": 1}, 20,
                                                False)],
            [(3, HIGH, 2), (4, HIGH, 1), (5, LOW, 1)], _TWO)
    first, again = _pass(*args), _pass(*args)
    assert (first.dispatch, first.preempt, first.reasons) == \
        (again.dispatch, again.preempt, again.reasons)


# ------------------------------------------------------------------ xce.yaml
def test_unknown_queue_or_bad_preemption_is_a_file_line_error(tmp_path):
    from xce.config.load import ConfigError
    with pytest.raises(ConfigError) as caught:
        site(tmp_path,
             "queues:\n  high:\n    PRIORITY: 50\n"
             "    PREEMPTION: PREEMPTIVE[low nosuch+2]\n"
             "  low:\n    PRIORITY: 10\n    PREEMPTION: PREEMPTABLE[high\n")
    text = "\n".join(caught.value.errors)
    assert "xce.yaml:4: PREEMPTION: nosuch: No such queue" in text
    assert "xce.yaml:7: PREEMPTION: PREEMPTABLE[high: expected " \
        "PREEMPTIVE[queue ...]" in text
    assert "low: No such queue" not in text


def test_controller_policy_from_yaml(tmp_path):
    from xce.controller import preemption
    cfg = site(tmp_path,
               "queues:\n  high:\n    PRIORITY: 50\n"
               "    PREEMPTION: '  PREEMPTIVE[low] '\n"
               "  low:\n    PRIORITY: 10\n  other:\n    PRIORITY: 5\n")
    assert cfg.queues["high"].preemption == "PREEMPTIVE[low]"
    pol = preemption.policy(cfg)
    assert pol.may_preempt("high", "low")
    assert not pol.may_preempt("high", "other")
    assert pol.preemptable() == {"low"}
    assert preemption.policy(cfg) is pol        # kept on the config
    del cfg.queues["high"].raw["PREEMPTION"]
    cfg._xce_preempt = None
    assert preemption.policy(cfg) is None       # nobody may preempt


# ------------------------------------------------------------------ migration
def test_migrated_lsb_queues_keep_known_queues_and_warn_with_line(tmp_path):
    from xce.config.migrate import migrate
    (tmp_path / "lsb.queues").write_text(
        "Begin Queue\nQUEUE_NAME = high\nPRIORITY = 50\n"
        "PREEMPTION = PREEMPTIVE[low+1 gone] PREEMPTABLE[vanished]\n"
        "End Queue\n"
        "Begin Queue\nQUEUE_NAME = low\nPRIORITY = 10\n"
        "PREEMPTION = PREEMPTABLE[gone]\nEnd Queue\n"
        "Begin Queue\nQUEUE_NAME = odd\nPREEMPTION = PREEMPT_ALL\n"
        "End Queue\n")
    result = migrate(str(tmp_path), check=True)
    queues = result.tree["queues"]
    assert queues["high"]["PREEMPTION"] == "PREEMPTIVE[low+1]"
    assert "PREEMPTION" not in queues["low"]
    assert "PREEMPTION" not in queues["odd"]
    warned = {(d.path, d.line, d.message) for d in result.diags.warnings}
    assert ("lsb.queues", 4, "queue high PREEMPTION names gone, which is "
            "not a queue; left out") in warned
    assert ("lsb.queues", 9, "queue low PREEMPTION names gone, which is "
            "not a queue; left out") in warned
    dropped = {(str(e.origin), e.why) for e in result.migration.entries
               if e.status == "not carried"}
    assert ("lsb.queues:13", "expected PREEMPTIVE[queue ...] and/or "
            "PREEMPTABLE[queue ...]") in dropped
    assert not result.diags.errors


def test_only_queues_never_widens_a_list():
    spec = preempt.parse("PREEMPTIVE[gone] PREEMPTABLE")
    assert preempt.only_queues(spec, {"low"}) == "PREEMPTABLE"
    assert preempt.only_queues(preempt.parse("PREEMPTIVE[gone]"),
                               {"low"}) is None
    assert preempt.only_queues(preempt.parse("PREEMPTIVE"), set()) == \
        "PREEMPTIVE"


def test_a_min_max_job_suspends_only_what_min_needs():
    views = [host("a", 2, used=2)]
    job = pending(3, hi=2, queue=HIGH)
    pre = Preemption(_policy(**_TWO), [
        RunningJob((1, 0), LOW, {"a": 1}, 10),
        RunningJob((2, 0), LOW, {"a": 1}, 20)])
    out = schedule([QueueView(HIGH, 50), QueueView(LOW, 10)], views, [job],
                   preempt=pre)
    assert out.dispatch == [((3, 0), ["a"])]
    assert out.preempt == [((2, 0), (3, 0))]


# ------------------------------------------------------------------ controller
def _row(jobid, queue, stat, spec=None):
    return job_row(jobid, stat, queue=queue, exec_hosts="a",
                   start_time=10.0 + jobid, spec=spec or {})


def test_controller_view_resumes_its_own_jobs_whatever_the_policy(tmp_path):
    from xce.controller import preemption
    cfg = site(tmp_path, "queues:\n  high:\n    PRIORITY: 50\n"
                         "  low:\n    PRIORITY: 10\n")
    held = {"preempted": {"since": 1.0}}
    assert preemption.view(FakeController(cfg, [_row(1, LOW, "RUN")])) is None
    # PREEMPTION gone at reconfig, or the job switched queue: it is still
    # there to resume; a job a user stopped since is not.
    ctl = FakeController(cfg, [_row(1, LOW, "SSUSP", held),
                               _row(2, LOW, "RUN"), _row(3, HIGH, "USUSP")])
    ctl.preempted.held = {(1, 0), (3, 0)}
    pre = preemption.view(ctl)
    assert [(r.key, r.preempted) for r in pre.running] == [((1, 0), True)]
    assert ctl.preempted.held == {(1, 0)}
    assert preemption.waiting(pre)
