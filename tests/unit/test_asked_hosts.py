"""bsub -m: parsing the host list, expanding groups, and the pure
scheduler's use of it (which hosts, in what order, with which reasons)."""

import pytest

from xce.lang import hostlist
from xce.scheduler import asked
from xce.scheduler.core import R_HOST_FULL, R_HOST_QUEUE, QueueView, schedule
from xce.scheduler.asked import R_NOT_ASKED, AskedHosts

from tests.lib.builders import host, one_pass, pending


# ----------------------------------------------------------------- parsing
@pytest.mark.parametrize("text, pairs", [
    ("hostA", [("hostA", 0)]),
    ("hostA+", [("hostA", 1)]),
    ("hostA+3 grp others", [("hostA", 3), ("grp", 0), ("others", 0)]),
    ("hostA others+2", [("hostA", 0), ("others", 2)]),
    ("  hostA   hostB+0 ", [("hostA", 0), ("hostB", 0)]),
])
def test_parse_gives_names_and_preference_levels(text, pairs):
    assert hostlist.parse(hostlist.split(text)) == pairs


@pytest.mark.parametrize("text, message", [
    ("others", "others: Bad host name, host group name or cluster name"),
    ("", "Bad host name, host group name or cluster name"),
    ("hostA+x", "hostA+x: Bad host name, host group name or cluster name"),
    ("hostA@c1", "hostA@c1: Bad host name, host group name or cluster name"),
    ("hostA!", "hostA!: first execution host candidates (!) are not "
               "supported by xce"),
])
def test_parse_refuses_bad_words_with_one_line(text, message):
    with pytest.raises(hostlist.BadHostList) as err:
        hostlist.parse(hostlist.split(text))
    assert str(err.value) == message


def test_expand_resolves_groups_and_keeps_the_highest_level():
    hosts = {"a": 1, "b": 1, "c": 1}
    groups = {"g": ["b", "c"]}
    found = asked.expand([("a", 0), ("g", 2), ("b", 1)], hosts, groups)
    assert found.levels == {"a": 0, "b": 2, "c": 2}
    assert found.others is None and found.ranked
    assert asked.unknown([("a", 0), ("zz", 0)], hosts, groups) == 1
    assert asked.unknown([("g", 0), ("others", 0)], hosts, groups) is None


@pytest.mark.parametrize("levels, others, ranked", [
    ({"a": 0, "b": 0}, None, False),
    ({"a": 0}, 0, False),
    ({"a": 1}, 0, True),
    ({"a": 0, "b": 2}, None, True),
])
def test_only_two_levels_change_the_order(levels, others, ranked):
    assert AskedHosts(levels, others).ranked is ranked


# --------------------------------------------------------------- scheduling
def _hosts(*specs):
    """("a", slots, used, {load index: value}) -> HostView list."""
    return [host(name, slots, used, **load)
            for name, slots, used, load in specs]


FOUR = (("a", 4, 0, {}), ("b", 4, 0, {}), ("c", 4, 0, {}), ("d", 4, 0, {}))


@pytest.mark.parametrize("name, levels, others, lo, hosts, expect", [
    # Only the listed hosts; the roomiest of them as without -m.
    ("restricts", {"c": 0, "d": 0}, None, 1, FOUR, ["c"]),
    ("roomiest listed", {"c": 0, "d": 0}, None, 1,
     (("c", 4, 3, {}), ("d", 4, 1, {})), ["d"]),
    # A higher level first, even when a lower one has more room.
    ("preferred first", {"a": 0, "d": 2}, None, 1,
     (("a", 4, 0, {}), ("d", 4, 3, {})), ["d"]),
    # A full preferred host: the next level.
    ("next level", {"a": 0, "b": 1, "d": 2}, None, 1,
     (("a", 4, 0, {}), ("b", 4, 2, {}), ("d", 4, 4, {})), ["b"]),
    # A parallel job fills the preferred host, then the next.
    ("parallel", {"a": 0, "d": 2}, None, 3,
     (("a", 4, 0, {}), ("d", 4, 2, {})), ["d", "d", "a"]),
    # others: any other host, after the preferred ones.
    ("others after", {"b": 1}, 0, 1,
     (("a", 4, 0, {}), ("b", 4, 3, {})), ["b"]),
    ("others when full", {"b": 1}, 0, 1,
     (("a", 4, 0, {}), ("b", 4, 4, {})), ["a"]),
    # others preferred over a named host.
    ("others preferred", {"b": 0}, 1, 1,
     (("a", 4, 3, {}), ("b", 4, 0, {})), ["a"]),
    # Within one level, order[] decides.
    ("order within level", {"a": 1, "b": 1, "c": 0}, None, 1,
     (("a", 4, 0, {"r15s": 2.0}), ("b", 4, 0, {"r15s": 0.5}),
      ("c", 4, 0, {"r15s": 0.0})), ["b"]),
])
def test_placement_follows_the_list(name, levels, others, lo, hosts,
                                    expect):
    rr = "order[r15s]" if name == "order within level" else None
    job = pending(1, asked=AskedHosts(levels, others), lo=lo, rr=rr)
    out = one_pass(_hosts(*hosts), [job])
    assert out.dispatch == [((1, 0), expect)], name


def test_unlisted_hosts_get_not_specified_in_job_submission():
    hosts = _hosts(("a", 1, 1, {}), ("b", 4, 0, {}), ("c", 4, 0, {}))
    job = pending(1, asked=AskedHosts({"a": 0}))
    out = one_pass(hosts, [job])
    assert out.dispatch == []
    assert out.reasons[(1, 0)] == [[R_HOST_FULL, ["a"]],
                                   [R_NOT_ASKED, ["b", "c"]]]


def test_a_listed_host_the_queue_does_not_use_says_so():
    hosts = _hosts(*FOUR)
    queue = QueueView("normal", 30, hosts=["a", "b"])
    job = pending(1, asked=AskedHosts({"c": 0}))
    out = schedule([queue], hosts, [job])
    assert out.reasons[(1, 0)] == [[R_NOT_ASKED, ["a", "b", "d"]],
                                   [R_HOST_QUEUE, ["c"]]]


def test_every_slot_taken_still_names_the_unlisted_hosts():
    # The all-full shortcut must not hide "Not specified in job submission".
    hosts = _hosts(("a", 1, 1, {}), ("b", 1, 1, {}))
    plain, listed = pending(1), pending(2, asked=AskedHosts({"a": 0}))
    out = one_pass(hosts, [plain, listed])
    assert out.reasons[(1, 0)] == [[R_HOST_FULL, ["a", "b"]]]
    assert out.reasons[(2, 0)] == [[R_HOST_FULL, ["a"]],
                                   [R_NOT_ASKED, ["b"]]]


def test_jobs_with_one_list_share_their_candidates_and_failures():
    shared = AskedHosts({"a": 0})
    hosts = _hosts(("a", 2, 0, {}), ("b", 4, 0, {}))
    jobs = [pending(n, asked=shared) for n in range(1, 5)]
    out = one_pass(hosts, jobs)
    assert [d[1] for d in out.dispatch] == [["a"], ["a"]]
    # Jobs 3 and 4 fail alike: one reasons list, not two.
    assert out.reasons[(3, 0)] is out.reasons[(4, 0)]


def test_select_over_load_indices_is_checked_per_host():
    hosts = _hosts(("a", 4, 0, {"r1m": 3.0, "ut": 0.9}),
                   ("b", 4, 0, {"r1m": 0.2, "ut": 0.1}))
    ok = pending(1, rr="select[r1m<1] order[r15s]")
    never = pending(2, rr="select[ut>2]")
    out = one_pass(hosts, [ok, never])
    assert out.dispatch == [((1, 0), ["b"])]
    assert out.reasons[(2, 0)] == [
        ["Job's resource requirements not satisfied", ["a", "b"]]]


def test_xce_explain_says_which_hosts_the_list_names():
    from xce.scheduler.trace import Tracer
    hosts = _hosts(("a", 4, 0, {}), ("b", 4, 0, {}))
    job = pending(1, asked=AskedHosts({"b": 0}))
    tracer = Tracer([(1, 0)])
    out = one_pass(hosts, [job], trace=tracer)
    rows = {r["host"]: r for r in out.traces[(1, 0)]["hosts"]}
    assert rows["a"]["reason"] == R_NOT_ASKED
    assert rows["a"]["details"] == [
        {"what": "host", "had": "a", "wanted": "one of -m b"}]
    assert rows["b"]["usable"] and out.dispatch == [((1, 0), ["b"])]


# ------------------------------------------------- queue HOSTS preferences
def test_the_queue_hosts_preference_orders_placement():
    """A queue's HOSTS = a c+2: c first, though a has more room."""
    hosts = _hosts(("a", 4, 0, {}), ("c", 4, 3, {}))
    queue = QueueView("normal", 30, hosts=["a", "c"],
                      prefer=AskedHosts({"a": 0, "c": 2}))
    out = schedule([queue], hosts, [pending(1)])
    assert out.dispatch == [((1, 0), ["c"])]


def test_a_job_preference_comes_before_the_queue_one():
    """bsub -m "a+1 c" in that queue: the job's levels decide (LSF uses
    the queue's only for a job whose -m list gives none)."""
    hosts = _hosts(("a", 4, 3, {}), ("c", 4, 3, {}))
    queue = QueueView("normal", 30, hosts=["a", "c"],
                      prefer=AskedHosts({"a": 0, "c": 2}))
    job = pending(1, asked=AskedHosts({"a": 1, "c": 0}))
    out = schedule([queue], hosts, [job])
    assert out.dispatch == [((1, 0), ["a"])]
    plain = pending(2, asked=AskedHosts({"a": 0, "c": 0}))
    out = schedule([queue], hosts, [plain])
    assert out.dispatch == [((2, 0), ["c"])]
