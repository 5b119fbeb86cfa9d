"""Exclusive jobs (bsub -x) in the pure scheduler: an exclusive job needs
idle hosts, and a host running one takes nothing else."""

from xce.scheduler import exclusive

from tests.lib.builders import host, one_pass, pending


def _hosts(*specs):
    """("a", slots, used[, status]) -> HostView list."""
    return [host(name, slots, used, *status)
            for name, slots, used, *status in specs]


def test_exclusive_job_skips_busy_hosts_and_takes_an_idle_one():
    out = one_pass(_hosts(("a", 4, 1), ("b", 4, 0)),
                   [pending(1, exclusive=True)])
    assert out.dispatch == [((1, 0), ["b"])]


def test_exclusive_job_pends_while_every_host_is_busy():
    out = one_pass(_hosts(("a", 4, 1), ("b", 4, 3)),
                   [pending(1, exclusive=True)])
    assert out.dispatch == []
    assert out.reasons[(1, 0)] == [[exclusive.R_BUSY, ["a", "b"]]]


def test_host_running_an_exclusive_job_takes_no_other_job():
    hosts = _hosts(("a", 4, 1, exclusive.STATUS), ("b", 4, 4))
    out = one_pass(hosts, [pending(1)])
    assert out.dispatch == []
    assert out.reasons[(1, 0)] == [
        ["Not enough job slot(s)", ["b"]], [exclusive.R_RUNNING, ["a"]]]


def test_hosts_given_to_an_exclusive_job_are_closed_for_the_rest_of_the_pass():
    jobs = [pending(1, exclusive=True), pending(2), pending(3, exclusive=True)]
    out = one_pass(_hosts(("a", 4, 0), ("b", 4, 0)), jobs)
    placed = dict(out.dispatch)
    assert placed[(1, 0)] == ["a"]
    assert placed[(2, 0)] == ["b"]      # a ordinary job takes the other host
    assert (3, 0) not in placed         # ... so no idle host is left
    assert [exclusive.R_RUNNING, ["a"]] in out.reasons[(3, 0)]
    assert [exclusive.R_BUSY, ["b"]] in out.reasons[(3, 0)]


def test_parallel_exclusive_job_takes_whole_idle_hosts_only():
    out = one_pass(_hosts(("a", 2, 0), ("b", 2, 1), ("c", 2, 0)),
                   [pending(1, lo=4, exclusive=True)])
    assert sorted(dict(out.dispatch)[(1, 0)]) == ["a", "a", "c", "c"]
