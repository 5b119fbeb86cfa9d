"""Dependency expressions (`bsub -w`): parsing, canonical form, evaluation."""

import random

import pytest

from xce.lang.depend import (
    NEVER, Condition, DependError, JobFacts, JobRef, check_references,
    evaluate, parse, refs,
)


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize("text, canonical", [
    ("done(22004)", "done(22004)"),
    ("22004", "done(22004)"),
    ("  done ( 22004 )  ", "done(22004)"),
    ('"210"', 'done("210")'),
    ('done("210")', 'done("210")'),
    ("jobA", "done(jobA)"),
    ('exit("99Job")', 'exit("99Job")'),
    ("ended(jobA*)", "ended(jobA*)"),
    ('ended("jobA*")', "ended(jobA*)"),
    ("exit(678,0)", "exit(678,0)"),
    ("exit(678, ==0)", "exit(678,0)"),
    ("exit(678, > 2)", "exit(678,>2)"),
    ("exit(build,!=1)", "exit(build,!=1)"),
    ("exit(1,>=2) || exit(1,<=0) || exit(1,<1)",
     "exit(1,>=2) || exit(1,<=0) || exit(1,<1)"),
    ("started(5)", "started(5)"),
    ("post_done(5) && post_err(6)", "post_done(5) && post_err(6)"),
    ("done(123[2])", "done(123[2])"),
    ("done(myArrA[*])", "done(myArrA[*])"),
    ('done("myArrA[3]")', "done(myArrA[3])"),
    ('done("my job")', 'done("my job")'),
    ("done(a)&&ended(b)", "done(a) && ended(b)"),
    ("done(a) && ended(b) || exit(c)", "(done(a) && ended(b)) || exit(c)"),
    ("done(a) && (ended(b) || exit(c))", "done(a) && (ended(b) || exit(c))"),
    ("done(1) && done(2) && done(3)", "done(1) && done(2) && done(3)"),
    ("!done(1)", "!done(1)"),
    ("!(done(1) || done(2))", "!(done(1) || done(2))"),
    ("!!done(1)", "!!done(1)"),
    ("((done(1)))", "done(1)"),
    ("done(done)", "done(done)"),
    ("my.job-2_x", "done(my.job-2_x)"),
])
def test_canonical_form(text, canonical):
    tree = parse(text)
    assert str(tree) == canonical
    assert parse(str(tree)) == tree


def test_numeric_argument_is_a_job_id_and_quoted_is_a_name():
    assert parse("210") == Condition("done", JobRef(job_id=210))
    assert parse('"210"') == Condition("done", JobRef(name="210"))
    assert parse("done(jobA)").ref == JobRef(name="jobA")


def test_array_forms():
    assert parse("done(123[2])").ref == JobRef(job_id=123, index=2)
    assert parse("done(myArr[*])").ref == JobRef(name="myArr", index="*")
    assert parse("ended(123[*])").ref == JobRef(job_id=123, index="*")


def test_exit_code_tests():
    assert parse("exit(7)").code is None
    bare = parse("exit(7, 3)")
    assert (bare.op, bare.code) == ("==", 3)
    ranged = parse("exit(7, >= 128)")
    assert (ranged.op, ranged.code) == (">=", 128)


def test_refs_lists_every_reference_in_order():
    tree = parse('done(1) && (ended("b") || !exit(c[2]))')
    assert refs(tree) == [JobRef(job_id=1), JobRef(name="b"),
                          JobRef(name="c", index=2)]


def test_wildcard_name_matching():
    ref = parse("done(jobA*)").ref
    assert ref.is_pattern
    assert ref.matches_name("jobA") and ref.matches_name("jobA_17")
    assert not ref.matches_name("xjobA")
    inner = parse('done("*sample*")').ref
    assert inner.matches_name("run_sample_3")
    assert not parse("done(a.b)").ref.matches_name("axb")  # `.` is literal
    assert not parse("done(5)").ref.matches_name("5")


# ------------------------------------------------------------ syntax errors
@pytest.mark.parametrize("text", [
    "", "   ", "done(", "done()", "done(1", "done 1", "done(1))", "(done(1)",
    "done(1) &&", "&& done(1)", "done(1) & done(2)", "done(1) | done(2)",
    "done(1) done(2)", "99Job", "done(99Job)", "done(0)", "done(-1)",
    "foo(1)", "done(1,2)", "ended(1, 0)", "exit(1,)", "exit(1, >x)",
    "exit(1, >)", "exit(1, = 2)", "exit(1, 2, 3)", "a[b]", "a[1", "a]",
    "done(a[0])", "done(1[x])", 'done("")', 'done("a[b]")', "done('a')",
    "!", "()", "done(1) || || done(2)", "exit(1,>-1)",
    "(" * 60 + "done(1)" + ")" * 60,
])
def test_syntax_errors_print_lsf_message(text):
    with pytest.raises(DependError) as err:
        parse(text)
    assert err.value.message == "%s: Dependency condition syntax error" % text
    assert err.value.kind == "syntax"


@pytest.mark.parametrize("func", [
    "external", "numrun", "numdone", "numexit", "numended", "numpend",
    "numhold", "numstart",
])
def test_array_counters_and_external_are_rejected_as_unsupported(func):
    text = "%s(123, >2)" % func
    with pytest.raises(DependError) as err:
        parse(text)
    assert err.value.kind == "unsupported"
    assert err.value.message == ("%s: Dependency condition %s() is not "
                                 "supported by xce" % (text, func))


@pytest.mark.parametrize("text", [
    "!" * 5000 + "done(1)",
    "(" * 5000 + "done(1)" + ")" * 5000,
])
def test_pathological_nesting_is_a_syntax_error_not_a_crash(text):
    with pytest.raises(DependError):
        parse(text)


def test_long_flat_chain_is_fine():
    text = " && ".join("done(%d)" % i for i in range(1, 3000))
    tree = parse(text)
    assert evaluate(tree, lambda ref: [JobFacts("DONE")]) is True


def test_random_inputs_raise_only_depend_error():
    rng = random.Random(7)
    pieces = ["done(", "ended(", "exit(", "started(", "post_done(", "(",
              ")", "&&", "||", "!", ",", ">=", "==", "<", " ", "12", "0",
              '"', "name", "*", "[", "]", "[*]", "[3]", "99x", "numrun("]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        try:
            tree = parse(text)
        except DependError:
            continue
        assert parse(str(tree)) == tree, text


# --------------------------------------------------------------- evaluation
def facts(*jobs):
    """lookup() over a table {ref text: [JobFacts, ...]}."""
    table = dict(jobs)
    return lambda ref: table.get(str(ref), [])


def job(state, code=None, post=None, pre=False):
    return JobFacts(state, code, post, pre)


@pytest.mark.parametrize("kind, facts_, expected", [
    ("done", job("DONE"), True),
    ("done", job("EXIT", 1), NEVER),
    ("done", job("ZOMBI"), NEVER),
    ("done", job("RUN"), False),
    ("done", job("PEND"), False),
    ("done", job("USUSP"), False),
    ("ended", job("DONE"), True),
    ("ended", job("EXIT", 3), True),
    ("ended", job("RUN"), False),
    ("ended", job("ZOMBI"), False),
    ("exit", job("EXIT", 3), True),
    ("exit", job("EXIT", 0), True),
    ("exit", job("DONE"), NEVER),
    ("exit", job("SSUSP"), False),
    ("started", job("RUN"), True),
    ("started", job("SSUSP"), True),
    ("started", job("USUSP"), True),
    ("started", job("DONE"), True),
    ("started", job("EXIT", 1), True),
    ("started", job("UNKWN"), True),
    ("started", job("PEND"), False),
    ("started", job("PSUSP"), False),
    ("started", job("PEND", pre=True), True),
    ("started", job("PSUSP", pre=True), True),
    ("started", job("WAIT"), False),
    ("post_done", job("DONE", post="POST_DONE"), True),
    ("post_done", job("EXIT", 1, post="POST_DONE"), True),
    ("post_done", job("DONE", post="POST_ERR"), NEVER),
    ("post_done", job("DONE"), False),
    ("post_done", job("RUN"), False),
    ("post_err", job("DONE", post="POST_ERR"), True),
    ("post_err", job("DONE", post="POST_DONE"), NEVER),
    ("post_err", job("EXIT", 2), False),
])
def test_condition_table(kind, facts_, expected):
    result = evaluate(parse("%s(7)" % kind), facts(("7", [facts_])))
    assert result is expected


@pytest.mark.parametrize("test, code, expected", [
    ("exit(7,0)", 0, True),
    ("exit(7,0)", 1, NEVER),
    ("exit(7,==2)", 2, True),
    ("exit(7,!=2)", 2, NEVER),
    ("exit(7,!=2)", 3, True),
    ("exit(7,>2)", 3, True),
    ("exit(7,>2)", 2, NEVER),
    ("exit(7,>=2)", 2, True),
    ("exit(7,<2)", 1, True),
    ("exit(7,<2)", 2, NEVER),
    ("exit(7,<=2)", 2, True),
])
def test_exit_code_comparison(test, code, expected):
    lookup = facts(("7", [job("EXIT", code)]))
    assert evaluate(parse(test), lookup) is expected


def test_exit_code_test_waits_while_job_runs():
    assert evaluate(parse("exit(7, >2)"), facts(("7", [job("RUN")]))) is False


def test_bare_reference_means_done():
    lookup = facts(("7", [job("DONE")]), ('"x1"', [job("EXIT", 1)]))
    assert evaluate(parse("7"), lookup) is True
    assert evaluate(parse('"x1"'), lookup) is NEVER


def test_all_jobs_sharing_a_name_must_satisfy():
    lookup = facts(("sim", [job("DONE"), job("RUN")]))
    assert evaluate(parse("done(sim)"), lookup) is False
    lookup = facts(("sim", [job("DONE"), job("DONE")]))
    assert evaluate(parse("done(sim)"), lookup) is True
    lookup = facts(("sim", [job("RUN"), job("EXIT", 1)]))
    assert evaluate(parse("done(sim)"), lookup) is NEVER


def test_reference_to_vanished_job_is_never():
    assert evaluate(parse("done(99)"), facts()) is NEVER


def test_and_or_not_combine_three_states():
    lookup = facts(("1", [job("DONE")]), ("2", [job("RUN")]),
                   ("3", [job("EXIT", 1)]))
    cases = {
        "done(1) && done(2)": False,
        "done(1) && done(3)": NEVER,
        "done(2) && done(3)": NEVER,
        "done(1) && ended(3)": True,
        "done(2) || done(3)": False,
        "done(3) || done(1)": True,
        "done(3) || exit(1)": NEVER,
        "!done(1)": NEVER,       # 1 is DONE for good
        "!done(2)": True,        # not done yet: satisfied for now
        "!done(3)": True,        # 3 can never be DONE
        "!(done(2) || done(3))": True,
        "!!done(3)": NEVER,
        "(done(1) || done(2)) && !exit(2)": True,
    }
    for text, expected in cases.items():
        assert evaluate(parse(text), lookup) is expected, text


def test_never_is_falsy_and_distinct():
    assert not NEVER
    assert NEVER is not False
    assert repr(NEVER) == "NEVER"


def test_workflow_chain_done_and_ended():
    tree = parse('done(a) && ended("b")')
    states = {"a": [job("PEND")], "b": [job("PEND")]}
    lookup = lambda ref: states[ref.name]  # noqa: E731
    assert evaluate(tree, lookup) is False
    states["a"] = [job("DONE")]
    assert evaluate(tree, lookup) is False
    states["b"] = [job("EXIT", 2)]
    assert evaluate(tree, lookup) is True


def test_lookup_receives_structured_refs():
    seen = []

    def lookup(ref):
        seen.append(ref)
        return [job("DONE")]
    evaluate(parse('done(12[3]) && done(arr[*]) && done("5x")'), lookup)
    assert seen == [JobRef(job_id=12, index=3), JobRef(name="arr", index="*"),
                    JobRef(name="5x")]


# --------------------------------------------------------- submit-time check
def test_unknown_reference_rejected_at_submit():
    lookup = facts(("7", [job("RUN")]))
    check_references(parse("done(7)"), lookup)
    with pytest.raises(DependError) as err:
        check_references(parse('done(7) && ended("nosuch")'), lookup)
    assert err.value.message == "nosuch: No matching job found"
    assert err.value.part == 'ended(nosuch)'
    assert err.value.kind == "nojob"
    with pytest.raises(DependError) as err:
        check_references(parse("done(8)"), lookup)
    assert err.value.message == "8: No matching job found"
