"""The host job exit rate (xce.model.exitrate): the window, what counts,
the threshold's precedence, and the keys' validation."""

import pytest

from xce.config import fixedkeys, keys
from xce.config.load import ConfigError
from xce.model import exitrate

from tests.lib.builders import site


def test_rate_is_exits_per_minute_over_the_window():
    span = exitrate.window({})              # JOB_EXIT_RATE_DURATION 5
    assert span == 300.0
    times = [100.0, 200.0, 350.0, 399.0]
    # (now - span, now]: 100 has left the window at 400, 200 not yet
    assert exitrate.rate(times, 400.0, span) == pytest.approx(3 / 5)
    assert exitrate.rate(times, 500.0, span) == pytest.approx(2 / 5)
    assert exitrate.rate(times, 700.0, span) == 0
    assert exitrate.rate([401.0], 400.0, span) == 0     # not yet


def test_exceeded_only_above_the_threshold():
    span = exitrate.window({"JOB_EXIT_RATE_DURATION": "1"})
    assert span == 60.0
    two, three = [10.0, 20.0], [10.0, 20.0, 30.0]
    assert not exitrate.exceeded(two, 30.0, span, 2)     # 2/min: at it
    assert exitrate.exceeded(three, 30.0, span, 2)
    assert not exitrate.exceeded(three, 75.0, span, 2)   # 10.0 left
    assert not exitrate.exceeded(three, 30.0, span, None)


@pytest.mark.parametrize("stat, reason, counted", [
    ("EXIT", None, True), ("EXIT", "TERM_EXTERNAL_SIGNAL", True),
    ("EXIT", "TERM_CWD_NOTEXIST", True),
    ("EXIT", "TERM_OWNER", False), ("EXIT", "TERM_ADMIN", False),
    ("EXIT", "TERM_RUNLIMIT", False), ("EXIT", "TERM_PREEMPT", False),
    ("EXIT", "TERM_REQUEUE_ADMIN", False), ("DONE", None, False)])
def test_lsfs_own_exits_do_not_count(stat, reason, counted):
    assert exitrate.counts(stat, reason) is counted


def test_a_hosts_exit_rate_wins_over_the_global_one():
    params = {"GLOBAL_EXIT_RATE": "4"}
    assert exitrate.threshold({"EXIT_RATE": 2}, params) == 2.0
    assert exitrate.threshold({}, params) == 4.0
    assert exitrate.threshold({"EXIT_RATE": "-"}, {}) is None
    assert exitrate.host_of("h2 h2 h3") == "h2"
    assert exitrate.host_of(None) is None


def test_keys_are_enforced_and_exit_rate_type_takes_lsfs_default():
    assert "EXIT_RATE" in keys.enforced("host")
    for name in ("GLOBAL_EXIT_RATE", "JOB_EXIT_RATE_DURATION",
                 "EXIT_RATE_TYPE"):
        assert name in keys.enforced("params")
    assert fixedkeys.fixed_problem("params", "EXIT_RATE_TYPE",
                              "JOBEXIT_NONLSF") is None
    assert fixedkeys.fixed_problem(
        "params", "EXIT_RATE_TYPE", "JOBINIT").endswith("is not supported")


def test_bad_values_are_refused_with_file_and_line(tmp_path):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, "cluster: {name: c}\nqueues:\n  normal: {}\n"
             "parameters:\n  GLOBAL_EXIT_RATE: 0\n"
             "  JOB_EXIT_RATE_DURATION: 0.5\nhosts:\n  h1:\n"
             "    EXIT_RATE: lots\n")
    text = "\n".join(e.value.errors)
    assert ":5: GLOBAL_EXIT_RATE:" in text
    assert ":6: JOB_EXIT_RATE_DURATION:" in text
    assert ":9: EXIT_RATE:" in text
