"""MAX_JOB_NUM, ACCT_ARCHIVE_SIZE/AGE/TIME and MAX_ACCT_ARCHIVE_FILE: validated in xce.yaml,
carried over from lsb.params by the migrator, marked enforced, and read by
the lsb.events/lsb.acct writer."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError, load
from xce.store import lsbrotate

from tests.lib.builders import migrated_site, site, site_yaml


def _load(tmp_path, **params):
    return site(tmp_path, site_yaml("c", {}, params=params))


def test_good_values_reach_the_writer(tmp_path):
    cfg = _load(tmp_path, MAX_JOB_NUM=50, ACCT_ARCHIVE_SIZE=1024,
                ACCT_ARCHIVE_AGE=7, ACCT_ARCHIVE_TIME="02:30",
                MAX_ACCT_ARCHIVE_FILE=3)
    assert lsbrotate.Limits.from_params(cfg.params) == \
        lsbrotate.Limits(50, 1024, 7, 150, 3)


@pytest.mark.parametrize("key, value, message", [
    ("MAX_JOB_NUM", 0, "MAX_JOB_NUM: 0: must be a whole number from 1 to "
     "2147483646 (finished jobs)"),
    ("ACCT_ARCHIVE_SIZE", "10MB", "ACCT_ARCHIVE_SIZE: 10MB: must be a whole "
     "number from 1 to 2147483646 (kilobytes)"),
    ("ACCT_ARCHIVE_AGE", -3, "ACCT_ARCHIVE_AGE: -3: must be a whole number "
     "from 1 to 2147483646 (days)"),
    ("ACCT_ARCHIVE_TIME", "noon", "ACCT_ARCHIVE_TIME: noon: must be a time "
     "of day, hh:mm"),
])
def test_bad_values_name_file_line_and_key(tmp_path, key, value, message):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, **{key: value})
    path = tmp_path / "xce.yaml"
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                if text.strip().startswith(key + ":"))
    assert e.value.errors == [f"{path}:{line}: {message}"]


def test_keys_are_enforced():
    assert {"MAX_JOB_NUM", "ACCT_ARCHIVE_SIZE", "ACCT_ARCHIVE_AGE"} <= \
        set(keys.enforced("params"))


def test_migrated_lsb_params_load_back(tmp_path):
    result = migrated_site(tmp_path, {"lsb.params": (
        "Begin Parameters\nMAX_JOB_NUM = 2000\nACCT_ARCHIVE_SIZE = 512\n"
        "ACCT_ARCHIVE_AGE = 30\nEnd Parameters\n")})
    params = result.tree["parameters"]
    assert (params["MAX_JOB_NUM"], params["ACCT_ARCHIVE_SIZE"],
            params["ACCT_ARCHIVE_AGE"]) == (2000, 512, 30)
    cfg = load(tmp_path / "etc")
    assert lsbrotate.Limits.from_params(cfg.params) == \
        lsbrotate.Limits(2000, 512, 30)


def test_a_migrated_non_number_is_not_carried(tmp_path):
    result = migrated_site(tmp_path, {"lsb.params": (
        "Begin Parameters\nMAX_JOB_NUM = lots\nEnd Parameters\n")})
    assert "MAX_JOB_NUM" not in (result.tree.get("parameters") or {})
    load(tmp_path / "etc")
