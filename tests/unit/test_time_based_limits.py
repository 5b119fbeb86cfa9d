"""Time-based limit values of lsb.resources (``SLOTS = [200 8:00-18:00]
[400 18:00-8:00]``): read and checked (xce.lang.timevalue), the value in
force at a time taken by the limits the scheduler sees, the controller
woken at their changes, and the migrator carrying them so that the
controller starts on the result."""

import time

import pytest

from xce.config.load import ConfigError
from xce.controller import limitconf
from xce.lang import timevalue, timewindow

from tests.lib.builders import migrated_site, site

DAY_NIGHT = "[200 8:00-18:00] [400 18:00-8:00]"


def _at(hour, minute=0):
    return time.mktime((2026, 12, 2, hour, minute, 0, 0, 0, -1))


def test_the_value_in_force_is_the_first_whose_window_is_open():
    pairs = timevalue.parse(DAY_NIGHT)
    assert timevalue.value_at(pairs, _at(9)) == "200"
    assert timevalue.value_at(pairs, _at(23)) == "400"
    assert timevalue.value_at(pairs, _at(3)) == "400"
    only_day = timevalue.parse("[2 8:00-18:00]")
    assert timevalue.value_at(only_day, _at(20)) is None   # no limit then


@pytest.mark.parametrize("text", ["[200]", "[200 8:00-25:00]",
                                  "200 8:00-18:00", "[200 8-18] x"])
def test_a_malformed_time_based_value_is_refused(text):
    with pytest.raises(timewindow.WindowError):
        timevalue.parse(text)


def _site(tmp_path, slots):
    return site(tmp_path, "cluster: {name: c}\n"
                "parameters: {DEFAULT_QUEUE: normal}\n"
                "queues: {normal: {PRIORITY: 30}}\n"
                f"limits:\n  - NAME: daytime\n    USERS: all\n"
                f"    SLOTS: \"{slots}\"\n")


def test_the_scheduler_sees_the_limit_of_the_time(tmp_path):
    cfg = _site(tmp_path, DAY_NIGHT)
    day = {lim.name: lim for lim in limitconf.limits(cfg, _at(9))}
    assert day["daytime"].slots == 200
    night = {lim.name: lim for lim in limitconf.limits(cfg, _at(19))}
    assert night["daytime"].slots == 400
    assert sorted(w[0] for w in limitconf.time_windows(cfg)) == \
        [(0, 480), (480, 1080)]


def test_a_bad_time_based_limit_is_refused_with_file_and_line(tmp_path):
    with pytest.raises(ConfigError) as info:
        _site(tmp_path, "[200 8:00-18:00] [x 18:00-8:00]")
    assert f"{tmp_path / 'xce.yaml'}:7: SLOTS: 'x' is not a whole number" \
        in "\n".join(info.value.errors)
    with pytest.raises(ConfigError) as info:
        _site(tmp_path, "[200 8:00-28:00]")
    assert "SLOTS: bad time window: 8:00-28:00: 28:00 is not a time" in \
        "\n".join(info.value.errors)


def test_the_migrator_carries_a_time_based_limit_and_the_result_loads(
        tmp_path):
    result = migrated_site(tmp_path, {
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n",
        "lsb.resources": "Begin Limit\nNAME = daytime\nUSERS = all\n"
                         f"SLOTS = {DAY_NIGHT}\nEnd Limit\n"
                         "Begin Limit\nNAME = bad\nUSERS = all\n"
                         "SLOTS = [5 8:00-30:00]\nEnd Limit\n"})
    status = {e.label.split(" = ")[0]: (e.status, e.why)
              for e in result.migration.entries}
    assert status["limit daytime SLOTS"][0] == "enforced"
    assert status["limit bad SLOTS"][0] == "not carried"
    assert "30:00 is not a time of day" in status["limit bad SLOTS"][1]
    cfg = site(tmp_path / "etc", (tmp_path / "etc" / "xce.yaml").read_text())
    lims = {lim.name: lim for lim in limitconf.limits(cfg, _at(12))}
    assert lims["daytime"].slots == 200 and lims["bad"].slots is None


def test_a_queues_time_based_nice_is_refused_with_its_reason(tmp_path):
    """Time-based values are read for limits and a queue's PRIORITY and
    job-slot limits only: another queue key's is left out by the migrator
    with the reason (and the result loads), and refused in xce.yaml with
    the same reason, not as a malformed number."""
    why = ("a time-based value ([value time_window] ...) is not supported "
           "by xce for this key")
    (tmp_path / "m").mkdir()
    result = migrated_site(tmp_path / "m", {
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\n"
                      "NICE = [2 8:00-18:00] [4 18:00-8:00]\nEnd Queue\n"})
    status = {e.label.split(" = ")[0]: (e.status, e.why, str(e.origin))
              for e in result.migration.entries}
    assert status["queue normal NICE"] == \
        ("not carried", why, "lsb.queues:3")
    assert "NICE" not in result.tree["queues"]["normal"]
    with pytest.raises(ConfigError) as info:
        site(tmp_path, "cluster: {name: c}\nqueues:\n  normal:\n"
             "    NICE: \"[2 8:00-18:00] [4 18:00-8:00]\"\n")
    assert f"{tmp_path / 'xce.yaml'}:4: NICE: {why}" in \
        info.value.errors


def test_a_queues_time_based_slot_limit_is_carried_and_checked(tmp_path):
    """QJOB_LIMIT = [200 8:00-18:00] [400 18:00-8:00] is carried and
    loaded (xce.config.queuetime); a value out of the key's range or not
    a number is refused, naming it."""
    (tmp_path / "m").mkdir()
    result = migrated_site(tmp_path / "m", {
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\n"
                      f"QJOB_LIMIT = {DAY_NIGHT}\nEnd Queue\n"})
    assert result.tree["queues"]["normal"]["QJOB_LIMIT"] == DAY_NIGHT
    cfg = site(tmp_path, "cluster: {name: c}\nqueues:\n  normal:\n"
               f"    QJOB_LIMIT: \"{DAY_NIGHT}\"\n")
    assert cfg.queues["normal"].timed["qjob_limit"][0][0] == 200
    for bad in ("[-3 8:00-18:00]", "[x 8:00-18:00]", "[2 25:00-26:00]"):
        with pytest.raises(ConfigError) as info:
            site(tmp_path, "cluster: {name: c}\nqueues:\n  normal:\n"
                 f"    PRIORITY: \"{bad}\"\n")
        assert any(f"{tmp_path / 'xce.yaml'}:4: PRIORITY:" in e
                   for e in info.value.errors), info.value.errors
