"""Queue HOSTLIMIT_PER_JOB: loaded and validated from xce.yaml (a whole
number above 0, errors with file:line), carried over from lsb.queues by
the migrator, marked enforced."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError, load

from tests.lib.builders import migrated_site, site


def _load(tmp_path, queue_lines):
    """A one-queue xce.yaml whose queue keys start at line 6."""
    head = "cluster: {name: c}\nparameters: {DEFAULT_QUEUE: wide}\n" \
        "queues:\n  wide:\n    PRIORITY: 30\n"
    return site(tmp_path, head + queue_lines)


@pytest.mark.parametrize("text, limit", [
    ("    HOSTLIMIT_PER_JOB: 2\n", 2), ("    HOSTLIMIT_PER_JOB: '20'\n", 20),
    ("", None)])
def test_host_limit_loads(tmp_path, text, limit):
    assert _load(tmp_path, text).queues["wide"].host_limit == limit


@pytest.mark.parametrize("value", ["0", "-1", "2.5", "two", "yes"])
def test_bad_values_name_file_line_and_key(tmp_path, value):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, f"    HOSTLIMIT_PER_JOB: {value}\n")
    assert len(e.value.errors) == 1
    error = e.value.errors[0]
    assert error.startswith(f"{tmp_path / 'xce.yaml'}:6: "), error
    assert "HOSTLIMIT_PER_JOB" in error
    assert "is not a whole number above 0" in error


def test_key_is_enforced():
    assert "HOSTLIMIT_PER_JOB" in keys.enforced("queue")


def _migrate(tmp_path, value):
    return migrated_site(tmp_path, {"lsb.queues": (
        "Begin Queue\nQUEUE_NAME = wide\nPRIORITY = 40\n"
        f"HOSTLIMIT_PER_JOB = {value}\nEnd Queue\n")})


def test_migrated_lsb_queues_carry_the_limit_and_load_back(tmp_path):
    result = _migrate(tmp_path, "4")
    assert result.tree["queues"]["wide"]["HOSTLIMIT_PER_JOB"] == 4
    assert load(tmp_path / "etc").queues["wide"].host_limit == 4


def test_migrator_leaves_out_a_limit_xce_could_not_load(tmp_path):
    result = _migrate(tmp_path, "0")
    assert "HOSTLIMIT_PER_JOB" not in result.tree["queues"]["wide"]
    load(tmp_path / "etc")      # the written file still loads
