"""Queue SLOT_RESERVE and BACKFILL: loaded and validated from xce.yaml,
carried over from lsb.queues by the migrator, marked enforced."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError, load

from tests.lib.builders import migrated_site, site

BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
queues:
  normal:
    PRIORITY: 30
"""


def _load(tmp_path, text):
    return site(tmp_path, BASE + text)


@pytest.mark.parametrize("value, cycles", [
    ("MAX_RESERVE_TIME[5]", 5), ("max_reserve_time[ 12 ]", 12),
    ("'-'", None)])
def test_slot_reserve_gives_the_cycles(tmp_path, value, cycles):
    cfg = _load(tmp_path, f"    SLOT_RESERVE: {value}\n")
    assert cfg.queues["normal"].slot_reserve == cycles


@pytest.mark.parametrize("value, backfill", [
    ("Y", True), ("y", True), ("yes", True), ("N", False), ("true", True),
    ("false", False)])
def test_backfill_yes_or_no(tmp_path, value, backfill):
    cfg = _load(tmp_path, f"    BACKFILL: {value}\n")
    assert cfg.queues["normal"].backfill is backfill


def test_neither_key_means_no_reservation_and_no_backfill(tmp_path):
    q = _load(tmp_path, "").queues["normal"]
    assert (q.slot_reserve, q.backfill) == (None, False)


@pytest.mark.parametrize("line, message", [
    ("SLOT_RESERVE: 5", "SLOT_RESERVE: 5 is not MAX_RESERVE_TIME[n] with n "
     "a whole number above 0"),
    ("SLOT_RESERVE: MAX_RESERVE_TIME[0]", "SLOT_RESERVE: 'MAX_RESERVE_TIME[0]'"
     " is not MAX_RESERVE_TIME[n] with n a whole number above 0"),
    ("SLOT_RESERVE: MAX_RESERVE_TIME[x]", "SLOT_RESERVE: 'MAX_RESERVE_TIME[x]'"
     " is not MAX_RESERVE_TIME[n]"),
    ("BACKFILL: maybe", "BACKFILL: 'maybe' is not Y or N"),
])
def test_bad_values_name_file_line_and_key(tmp_path, line, message):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, f"    {line}\n")
    assert len(e.value.errors) == 1
    assert e.value.errors[0].startswith(f"{tmp_path / 'xce.yaml'}:8: ")
    assert message in e.value.errors[0]


def test_keys_are_enforced():
    assert {"SLOT_RESERVE", "BACKFILL"} <= set(keys.enforced("queue"))


def test_migrated_lsb_queues_load_back(tmp_path):
    result = migrated_site(tmp_path, {"lsb.queues": (
        "Begin Queue\nQUEUE_NAME = wide\nPRIORITY = 40\n"
        "SLOT_RESERVE = MAX_RESERVE_TIME[5]\nBACKFILL = Y\nEnd Queue\n")})
    assert result.tree["queues"]["wide"]["SLOT_RESERVE"] == \
        "MAX_RESERVE_TIME[5]"
    q = load(tmp_path / "etc").queues["wide"]
    assert (q.slot_reserve, q.backfill) == (5, True)
