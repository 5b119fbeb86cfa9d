"""Queue ESTIMATED_RUNTIME and IGNORE_DEADLINE: loaded and validated from
xce.yaml, carried over from lsb.queues, marked enforced."""

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


@pytest.mark.parametrize("value, minutes", [
    ("90", 90), ("'1:30'", 90), ("'-'", None)])
def test_estimated_runtime_in_minutes(tmp_path, value, minutes):
    cfg = _load(tmp_path, f"    ESTIMATED_RUNTIME: {value}\n")
    assert cfg.queues["normal"].estimated_runtime == minutes


def test_neither_key(tmp_path):
    q = _load(tmp_path, "").queues["normal"]
    assert (q.estimated_runtime, q.ignore_deadline) == (None, False)


@pytest.mark.parametrize("line, message", [
    ("ESTIMATED_RUNTIME: abc", "abc: bad RUNLIMIT value"),
    ("ESTIMATED_RUNTIME: 0", "0: must be one or two values above 0"),
    ("IGNORE_DEADLINE: maybe", "IGNORE_DEADLINE: 'maybe' is not Y or N"),
])
def test_bad_values_name_file_line_and_key(tmp_path, line, message):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, f"    {line}\n")
    assert len(e.value.errors) == 1
    assert e.value.errors[0].startswith(f"{tmp_path / 'xce.yaml'}:8: ")
    assert message in e.value.errors[0]


def test_keys_are_enforced():
    assert {"ESTIMATED_RUNTIME", "IGNORE_DEADLINE"} <= \
        set(keys.enforced("queue"))


def test_migrated_lsb_queues_load_back(tmp_path):
    migrated_site(tmp_path, {"lsb.queues": (
        "Begin Queue\nQUEUE_NAME = est\nPRIORITY = 40\n"
        "ESTIMATED_RUNTIME = 45\nIGNORE_DEADLINE = Y\nEnd Queue\n")})
    q = load(tmp_path / "etc").queues["est"]
    assert (q.estimated_runtime, q.ignore_deadline) == (45, True)
