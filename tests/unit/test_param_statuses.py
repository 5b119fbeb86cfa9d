"""lsb.params and lsf.conf keys that were carried and not acted on: each
is now acted on, fixed to xce's one behaviour, refused with its reason,
or recorded as not needed."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError, load

from tests.lib.builders import site, site_yaml

MINE = {
    "params": "ACCT_ARCHIVE_TIME MAX_ACCT_ARCHIVE_FILE MAX_SBD_FAIL "
    "PG_SUSP_IT JOB_SPOOL_DIR SLOT_RESOURCE_RESERVE "
    "RESOURCE_RESERVE_PER_TASK MAX_SCHED_STAY SUB_TRY_INTERVAL MAX_RETRY "
    "RETRY_INTERVAL COND_CHECK_TIME FRESH_PERIOD COMPUTE_UNIT_TYPES "
    "FAIRSHARE_ADJUSTMENT_FACTOR EADMIN_TRIGGER_DURATION",
    "lsf.conf": "LSB_JOB_MEMLIMIT LSB_MEMLIMIT_ENFORCE LSB_JOB_CPULIMIT "
    "LSB_JOB_OUTPUT_LOGGING LSF_STRIP_DOMAIN LSF_HPC_EXTENSIONS "
    "LSB_SUB_COMMANDNAME LSB_DEFAULTQUEUE LSB_RESOURCE_ENFORCE"}


def _load(tmp_path, **params):
    return site(tmp_path, site_yaml(
        "c", {}, queues={"short": {"PRIORITY": 40}}, params=params))


def _refused(tmp_path, **params):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, **params)
    return str(e.value)


@pytest.mark.parametrize("scope, name", [
    (scope, name) for scope, names in MINE.items() for name in names.split()])
def test_no_key_stays_accepted_and_each_gives_a_reason(scope, name):
    key = keys.lookup(scope, name)
    assert key.status != keys.ACCEPTED
    if key.status in (keys.NOT_CARRIED, keys.NOT_NEEDED):
        assert key.why and key.why != keys.UNKNOWN_WHY


@pytest.mark.parametrize("key, value, words", [
    ("MAX_SBD_FAIL", 3, "MAX_SBD_FAIL: not supported by xce: xce counts "
     "no failed contacts"),
    ("LSF_HPC_EXTENSIONS", "SHORT_EVENTFILE", "LSF_HPC_EXTENSIONS: not "
     "supported by xce: LSF HPC integration switches"),
    ("LSB_RESOURCE_ENFORCE", "memory cpu", "not put jobs in cgroups"),
    ("LSB_JOB_MEMLIMIT", "N", "kills a job whose processes' resident "
     "memory"),
    ("LSB_MEMLIMIT_ENFORCE", "n", "LSB_MEMLIMIT_ENFORCE"),
    ("LSB_SUB_COMMANDNAME", "N", "always holds LSB_SUB_COMMAND_LINE"),
    ("FAIRSHARE_ADJUSTMENT_FACTOR", 0.5, "libfairshareadjust"),
    ("LSB_JOB_CPULIMIT", "maybe", "LSB_JOB_CPULIMIT"),
    ("LSB_DEFAULTQUEUE", "nosuch", "nosuch"),
])
def test_hand_written_values_xce_cannot_honour_are_refused(tmp_path, key,
                                                           value, words):
    assert words in _refused(tmp_path, **{key: value})


def test_values_xce_honours_load(tmp_path):
    cfg = _load(tmp_path, LSB_JOB_MEMLIMIT="Y", LSB_MEMLIMIT_ENFORCE="y",
                LSB_SUB_COMMANDNAME="Y", FAIRSHARE_ADJUSTMENT_FACTOR=0,
                LSB_JOB_CPULIMIT="N", LSB_DEFAULTQUEUE="short",
                MAX_SCHED_STAY=5, RESOURCE_RESERVE_PER_TASK="Y",
                PG_SUSP_IT=60)
    assert cfg.params["LSB_DEFAULTQUEUE"] == "short"
    assert cfg.param_flag("RESOURCE_RESERVE_PER_TASK")


@pytest.mark.parametrize("zero", ["0.00", "-0", "0.000"])
def test_a_fixed_number_written_another_way_is_the_same_value(tmp_path,
                                                              zero):
    _load(tmp_path, FAIRSHARE_ADJUSTMENT_FACTOR=zero)


def test_the_migrator_carries_fixes_and_leaves_out_with_why(tmp_path):
    from tests.lib.builders import migrated_site
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nACCT_ARCHIVE_TIME = 03:15\n"
                      "MAX_ACCT_ARCHIVE_FILE = 4\nMAX_SBD_FAIL = 3\n"
                      "MAX_SCHED_STAY = 10\nPG_SUSP_IT = 120\n"
                      "FAIRSHARE_ADJUSTMENT_FACTOR = 0.3\nEnd Parameters\n",
        "lsf.conf": "LSB_JOB_MEMLIMIT=n\nLSB_MEMLIMIT_ENFORCE=y\n"
                    "LSB_JOB_CPULIMIT=y\nLSB_RESOURCE_ENFORCE=\"cpu memory\"\n",
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                      "End Queue\n"})
    params = result.tree["parameters"]
    for name, value in (("ACCT_ARCHIVE_TIME", "03:15"),
                        ("MAX_ACCT_ARCHIVE_FILE", 4), ("PG_SUSP_IT", 120),
                        ("LSB_MEMLIMIT_ENFORCE", "y"),
                        ("LSB_JOB_CPULIMIT", "y")):
        assert str(params[name]) == str(value), name
    dropped = {e.label.split(" = ")[0].split()[-1]: e.why
               for e in result.migration.entries
               if e.status == keys.NOT_CARRIED}
    for name in ("MAX_SBD_FAIL", "LSB_JOB_MEMLIMIT", "LSB_RESOURCE_ENFORCE",
                 "FAIRSHARE_ADJUSTMENT_FACTOR"):
        assert name not in params and dropped.get(name), name
    assert "libfairshareadjust" in dropped["FAIRSHARE_ADJUSTMENT_FACTOR"]
    needed = [e.label for e in result.migration.entries
              if e.status == keys.NOT_NEEDED]
    assert any("MAX_SCHED_STAY" in label for label in needed)
    assert "MAX_SCHED_STAY" not in params
    load(tmp_path / "etc")
