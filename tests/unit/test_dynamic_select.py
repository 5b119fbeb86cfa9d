"""select[] on resources whose host values change within a pass (what
rusage[] reserves of a site resource, an elim's numeric value, a shared
counter): the pass keeps no host list for such a select, so a job is
neither admitted on a host whose value a job placed before it used up,
nor kept off one (the pass's candidate cache, xce.scheduler.core)."""

from xce.lang import resreq
from xce.scheduler import hostfit, rusage_held

from tests.lib.builders import host, one_pass, pending

WANTS = "Job's resource requirements not satisfied"


def _placed(out):
    return {key[0]: slots for key, slots in out.dispatch}


def test_a_select_reused_after_a_job_reserved_its_resource_sees_none_left():
    # Jobs 1 and 3 share one parsed select[lic>0] (one job class): the
    # host list of job 1 must not be reused for job 3 once job 2 took
    # the only licence.
    wants = resreq.parse("select[lic>0]")
    jobs = [pending(1, rr=wants), pending(2, rr="rusage[lic=1]"),
            pending(3, rr=wants)]
    out = one_pass([host("a", 4, lic=1)], jobs)
    assert _placed(out) == {1: ["a"], 2: ["a"]}
    assert out.reasons[(3, 0)] == [[WANTS, ["a"]]]


def test_a_shared_counter_seen_through_select_is_rechecked_per_job():
    a, b = host("a", 2), host("b", 2)
    counter = rusage_held.Shared("lic", 1, "[all]")
    counter.attach(a)
    counter.attach(b)
    wants = resreq.parse("select[lic>0]")
    jobs = [pending(1, rr=wants), pending(2, rr="rusage[lic=1]"),
            pending(3, rr=wants)]
    out = one_pass([a, b], jobs)
    assert set(_placed(out)) == {1, 2}
    assert out.reasons[(3, 0)] == [[WANTS, ["a", "b"]]]


def test_changing_names_are_the_held_and_shared_resources():
    a, b = host("a", 2, lic=3), host("b", 2)
    rusage_held.charge(a, {"lic": 1}, 1, False)
    rusage_held.Shared("tokens", 4).attach(b)
    names = hostfit.changing_names([a, b])
    assert {"lic", "tokens", "mem", "slots"} <= names
    assert "ncpus" not in names
    assert hostfit.is_dynamic(resreq.parse("select[tokens>1]").select,
                              names)
    assert not hostfit.is_dynamic(resreq.parse("select[ncpus>1]").select,
                                  names)


def test_a_static_select_still_keeps_its_host_list():
    # bigmem changes with nothing a pass does: both jobs are placed from
    # one list, and a host without it is never looked at again.
    wants = resreq.parse("select[bigmem]")
    out = one_pass([host("a", 4, bigmem=True), host("b", 4)],
                   [pending(1, rr=wants), pending(2, rr=wants)])
    assert _placed(out) == {1: ["a"], 2: ["a"]}
