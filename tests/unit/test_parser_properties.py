"""Property tests (hypothesis) of the -R and -w parsers and the scheduler.

Grammar-aware generators write well-formed requirement strings and
dependency expressions, then break some of them subtly (a character
dropped, doubled or swapped for a bracket or operator, the text cut
short); raw text is mixed in.  Whatever comes, each parser and each bsub
or controller entry point over it gives a parse or its one-line error,
never another exception; what parses prints back as text that parses to
the same thing.  The same random snapshot scheduled twice gives the same
decisions and reasons.  derandomize=True: every run tries the same inputs.
"""

import os
import random
import string

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from xce.cli import bsub
from xce.client.submit import options as sub
from xce.controller import jobreq
from xce.lang import depend, resreq
from xce.scheduler.core import HostView, PendingJob, QueueView, schedule

# Inputs per parser (XCE_PROPERTY_EXAMPLES trims the run while working on a
# parser); each hypothesis example tries PER_EXAMPLE of them, which keeps
# the engine's own cost per example (about 0.5 ms) a small part of the run.
EXAMPLES = int(os.environ.get("XCE_PROPERTY_EXAMPLES", "10000"))
PER_EXAMPLE = 4
MANY = settings(max_examples=max(EXAMPLES // PER_EXAMPLE, 1), derandomize=True, deadline=None,
                database=None, suppress_health_check=list(HealthCheck))
SOME = settings(max_examples=max(EXAMPLES // 20, 10), derandomize=True, deadline=None,
                database=None, suppress_health_check=list(HealthCheck))

# -- inputs: good, subtly broken, raw ----------------------------------------
# Hypothesis draws one seed per example; the grammar-aware generators below
# build the texts from it with a seeded random.Random.  Drawing each token
# through hypothesis costs about 5 ms an example, too slow for 10,000; a seed
# costs 0.5 ms.  The texts tried are recorded with note(), so a failure
# shows them.
SEEDS = st.integers(0, 2 ** 32 - 1)
NASTY = "[](){}'\"|&=<>!:,;*-+ .\n\r\t\x0b\u2028" + string.digits


def _inputs(rnd, good):
    """A good text, the same broken one way, or raw text."""
    roll = rnd.random()
    if roll < 0.15:
        return "".join(rnd.choice(string.printable + "\u00e9\u2028\x00")
                       for _ in range(rnd.randint(0, 40)))
    text = good(rnd)
    if roll < 0.55 or not text:
        return text
    at = rnd.randrange(len(text))
    char = rnd.choice(NASTY)
    return rnd.choice([
        text[:at] + text[at + 1:],              # a character dropped
        text[:at] + char + text[at:],           # one put in
        text[:at] + char + text[at + 1:],       # one swapped
        text[:at],                              # cut short
        text[:at] + text[at] + text[at:],       # one doubled
    ])


def _one_line(message):
    assert message and len(message.splitlines()) == 1, repr(message)


# -- -R strings --------------------------------------------------------------
RESOURCES = ["mem", "swp", "swap", "tmp", "ncpus", "maxmem", "slots", "r15s",
             "ut", "type", "model", "hname", "server", "bigmem", "os",
             "ngpus", "Mem", "_x1", "cpuf"]
WORDS = RESOURCES + ["X86_64", "any", "local", "rhel8"]
UNITS = ["", "", "KB", "MB", "G", "gb", "T", "k", "XB"]
QUOTED = ["'X86_64'", '"LINUX64"', "'a b'", '""', "'it''s'"]
RELOPS = [">", ">=", "<", "<=", "==", "!=", "=", "<<"]


def _number(rnd):
    kind = rnd.randrange(3)
    if kind == 0:
        return str(rnd.randint(-5, 10 ** 6))
    if kind == 1:
        return f"{rnd.uniform(0, 1e6):g}"
    return f"{rnd.randint(0, 9999)}{rnd.choice(UNITS)}"


def _atom(rnd):
    kind = rnd.randrange(4)
    if kind == 0:
        return rnd.choice(WORDS)
    if kind == 1:
        return _number(rnd)
    if kind == 2:
        return rnd.choice(QUOTED)
    return f"defined({rnd.choice(WORDS)})"


def _select(rnd, depth=0):
    if depth > 3 or rnd.random() < 0.3:
        return _atom(rnd)
    a, b = _select(rnd, depth + 1), _select(rnd, depth + 1)
    kind = rnd.randrange(6)
    if kind == 0:
        return f"{a} {rnd.choice(RELOPS)} {b}"
    if kind == 1:
        return f"{a}{rnd.choice('+-*/')}{b}"
    if kind == 2:
        return f"{a} {rnd.choice(['&&', '||', 'and', 'or'])} {b}"
    if kind == 3:
        return rnd.choice(["!", "not ", "-"]) + a
    if kind == 4:
        return f"({a})"
    return f"{rnd.choice(RESOURCES)} {rnd.choice(RELOPS)} {_number(rnd)}"


def _rusage(rnd):
    def group():
        amounts = ":".join(f"{rnd.choice(RESOURCES)}={_number(rnd)}"
                           for _ in range(rnd.randint(1, 3)))
        return amounts + rnd.choice([
            "", "", ":duration=10", ":duration=5h", ":duration=0",
            ":decay=1", ":duration=2m:decay=1", ":decay=2"])
    alts = [",".join(group() for _ in range(rnd.randint(1, 2)))
            for _ in range(rnd.randint(1, 2))]
    return "rusage[%s]" % " || ".join(alts)


SPANS = ["span[hosts=1]", "span[ptile=4]", "span[ptile='!']",
         "span[block=2]", "span[ptile=0]", "span[hosts=-1]",
         "span[ptile=2,ncpus:4]", "span[hosts=1:ptile=2]"]
OTHERS = ["same[type:model]", "same[type]", "same[]", "cu[type=enclosure]",
          "affinity[core(1)]", "2*{select[mem>1]}", "{mem>1} || {mem>2}",
          "select[]", "bogus[x]"]


def _section(rnd):
    kind = rnd.randrange(5)
    if kind == 0:
        return f"select[{_select(rnd)}]"
    if kind == 1:
        keys = [rnd.choice(["", "-"]) + rnd.choice(WORDS)
                for _ in range(rnd.randint(1, 3))]
        return "order[%s]" % rnd.choice([":", " "]).join(keys)
    if kind == 2:
        return _rusage(rnd)
    return rnd.choice(SPANS if kind == 3 else OTHERS)


def _resreq(rnd):
    parts = [_select(rnd)] if rnd.random() < 0.5 else []
    parts += [_section(rnd) for _ in range(rnd.randint(0, 4))]
    return " ".join(parts)


def _resreq_parses_or_says_one_line(text, **options):
    try:
        rr = resreq.parse(text, **options)
    except resreq.ResReqError as e:
        _one_line(e.message)
        return None
    again = resreq.parse(str(rr), **options) if str(rr) else resreq.ResReq()
    assert str(again) == str(rr)
    return rr


HOST = {"mem": 4000, "type": "X86_64", "ncpus": 4, "hname": "h1",
        "server": True, "bigmem": True}


@MANY
@given(SEEDS)
def test_resreq_parse_gives_a_parse_or_a_one_line_error(seed):
    rnd = random.Random(seed)
    for _ in range(PER_EXAMPLE):
        text = _inputs(rnd, _resreq)
        note(repr(text))
        _resreq_checks(text, rnd.choice(["KB", "MB", "GB"]),
                       rnd.choice([{}, SITE]))


# A site's configuration as the parser may be told it: configured names
# (others are "Bad resource name"), string resources, consumables.
SITE = {"known": {"bigmem", "os", "licA"}, "strings": {"os"},
        "consumable": {"licA"}}


def _resreq_checks(text, unit, site):
    rr = _resreq_parses_or_says_one_line(text, unit=unit, **site)
    if rr is not None:
        resreq.effective(rr)
        if rr.select is not None:
            assert rr.select.matches(HOST, "X86_64") in (True, False)
            assert rr.select.matches({}, None) in (True, False)
        if rr.order is not None:
            rr.order.sort_key(HOST)


@MANY
@given(SEEDS)
def test_bsub_and_the_controller_check_r_with_one_line_errors(seed):
    rnd = random.Random(seed)
    for _ in range(PER_EXAMPLE // 2):     # each with one to three strings
        texts = [_inputs(rnd, _resreq) for _ in range(rnd.randint(1, 3))]
        queue = _inputs(rnd, _resreq) if rnd.random() < 0.5 else None
        note(repr((texts, queue)))
        _entry_points(texts, queue)


def _entry_points(texts, queue):
    try:
        bsub._check_resreq({"resreq": texts})
    except sub.SubmitError as e:
        _one_line(str(e))
    q = _Queue(queue)
    try:
        jobreq.parse_job(texts, q, "MB")
    except jobreq.BadRequirement as e:
        _one_line(str(e))
    try:
        jobreq.queue_select(q, "KB")
    except resreq.ResReqError as e:
        _one_line(e.message)


class _Queue:
    """What jobreq reads of a configured queue: its raw RES_REQ."""

    def __init__(self, res_req):
        self.raw = {"RES_REQ": res_req} if res_req is not None else {}


# -- -w expressions ----------------------------------------------------------
REFS = ["1[2]", "12[*]", "3[0]", "4[1000000000]", "99" * 10, "build", "sim*",
        "a.b/c", "*", "nightly[*]", "x[3]", '"210"', '"my job"', '"a[2]"',
        '""', '"[x]"', "-1", "1build", "n%d", '"two\nlines"']
FUNCS = list(depend.CONDITIONS) + ["numrun", "external", "bogus", "DONE"]


def _ref(rnd):
    return str(rnd.randint(0, 10 ** 6)) if rnd.random() < 0.4 \
        else rnd.choice(REFS)


def _condition(rnd):
    kind = rnd.randrange(3)
    if kind == 0:
        return _ref(rnd)
    if kind == 1:
        return f"{rnd.choice(FUNCS)}({_ref(rnd)})"
    op = rnd.choice(["", ">=", "<", "!=", "==", "=>"])
    code = rnd.choice(["0", "2", "255", "1234567890", "-1", "x"])
    return f"exit({_ref(rnd)},{op}{code})"


def _depend(rnd, depth=0):
    if depth > 3 or rnd.random() < 0.35:
        return _condition(rnd)
    a = _depend(rnd, depth + 1)
    kind = rnd.randrange(3)
    if kind == 0:
        op = rnd.choice(["&&", "||", "&&", "|"])
        return f"{a} {op} {_depend(rnd, depth + 1)}"
    return f"!{a}" if kind == 1 else f"({a})"


@MANY
@given(SEEDS)
def test_depend_parse_gives_a_parse_or_a_one_line_error(seed):
    rnd = random.Random(seed)
    for _ in range(PER_EXAMPLE):
        text = _inputs(rnd, _depend)
        state = rnd.choice(["PEND", "RUN", "DONE", "EXIT", None])
        note(repr((text, state)))
        _depend_checks(text, state)


def _depend_checks(text, state):
    try:
        tree = depend.parse(text)
    except depend.DependError as e:
        _one_line(e.message)
        return
    assert depend.parse(str(tree)) == tree
    assert jobreq.parse_depend(text) == tree    # the controller's entry

    def lookup(ref):
        return [] if state is None else \
            [depend.JobFacts(state=state, exit_code=3)]
    assert depend.evaluate(tree, lookup) in (True, False, depend.NEVER)
    try:
        depend.check_references(tree, lookup)
    except depend.DependError as e:
        assert state is None and e.kind == "nojob"
        _one_line(e.message)
        _one_line(e.part)


# -- the scheduler: same snapshot, same answer -------------------------------
_REQS = [None, "select[maxmem>2000]", "span[hosts=1]", "span[ptile=2]",
         "rusage[mem=1500]", "select[mem>500] order[-mem]",
         "select[type==any] same[type]", "rusage[mem=100||mem=3000]"]


def _snapshot(rnd):
    hosts = []
    for i in range(rnd.randint(1, 6)):
        slots = rnd.randint(1, 4)
        maxmem = rnd.choice([None, 1000, 4000])
        res = {"hname": f"h{i}", "type": rnd.choice(["X86_64", "ARM"]),
               "ncpus": slots, "maxslots": slots, "slots": slots}
        if maxmem:
            res.update(maxmem=maxmem, mem=maxmem)
        h = HostView(f"h{i}", rnd.choice(["ok", "ok", "closed_Adm",
                                          "unavail"]),
                     slots, resources=res, mem_total=maxmem,
                     jl_u=rnd.choice([None, 1, 2]))
        h.used = rnd.randint(0, slots)
        hosts.append(h)
    queues = [QueueView("normal", 30, qjob_limit=rnd.choice([None, 3, 6])),
              QueueView("high", 40, ujob_limit=rnd.choice([None, 2]),
                        hosts=rnd.choice([None, ["h0"]]))]
    parsed = {r: resreq.parse(r) if r else None for r in _REQS}
    jobs = []
    for n in range(1, rnd.randint(1, 25) + 1):
        lo = rnd.randint(1, 3)
        jobs.append(PendingJob(
            (n, 0), rnd.choice(["normal", "high"]), rnd.choice(["u1", "u2"]),
            lo, n, max_slots=lo + rnd.randint(0, 3),
            resreq=parsed[rnd.choice(_REQS)],
            user_priority=rnd.randint(0, 2)))
    return queues, hosts, jobs


@SOME
@given(SEEDS)
def test_the_same_snapshot_gets_the_same_decisions_and_reasons(seed):
    rnd = random.Random(seed)
    queues, hosts, jobs = _snapshot(rnd)
    first = schedule(queues, hosts, jobs)
    shuffled = list(jobs)
    rnd.shuffle(shuffled)
    again = schedule(list(reversed(queues)), hosts, shuffled)
    assert again.dispatch == first.dispatch
    assert again.reasons == first.reasons
    placed = {key for key, _ in first.dispatch}
    assert placed.isdisjoint(first.reasons)
    assert placed | set(first.reasons) == {j.key for j in jobs}
