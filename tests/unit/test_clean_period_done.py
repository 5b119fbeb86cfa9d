"""CLEAN_PERIOD_DONE (lsb.params, LSF 10.1): how long DONE jobs stay
known apart from CLEAN_PERIOD (then EXIT jobs'); less than CLEAN_PERIOD
and at most a week, or refused (the loader) and left out (the migrator),
as LSF ignores it; bjobs -a and bjgroup count each state by its own
period; bparams shows it."""

import pytest

from xce.client.cluster import params as bparams
from xce.client.jobs.query import Query
from xce.config import keys, ranges
from xce.config.load import ConfigError, load
from xce.model import cleanperiod
from xce.store.reader import Reader
from xce.store.writer import Store

from tests.lib.builders import job_row, migrated_site, site_yaml

NOW = 1_000_000.0


@pytest.mark.parametrize("params, expected", [
    ({}, (3600, 3600)),
    ({"CLEAN_PERIOD": 100}, (100, 100)),
    ({"CLEAN_PERIOD_DONE": 60}, (60, 3600)),
    ({"CLEAN_PERIOD": "100", "CLEAN_PERIOD_DONE": "20"}, (20, 100)),
    # LSF ignores a CLEAN_PERIOD_DONE not less than CLEAN_PERIOD.
    ({"CLEAN_PERIOD": 100, "CLEAN_PERIOD_DONE": 100}, (100, 100)),
    ({"CLEAN_PERIOD_DONE": "-"}, (3600, 3600)),
])
def test_periods(params, expected):
    assert cleanperiod.periods(params) == expected
    assert cleanperiod.cutoffs(params, NOW) == (NOW - expected[0],
                                                NOW - expected[1])


def test_the_key_is_enforced():
    assert keys.lookup("params", "CLEAN_PERIOD_DONE").status == \
        keys.ENFORCED


def _load(tmp_path, params):
    (tmp_path / "xce.yaml").write_text(
        site_yaml("c", {"h1": {}}, params=params))
    return load(tmp_path)


@pytest.mark.parametrize("params, message", [
    ({"CLEAN_PERIOD_DONE": 3600},
     "CLEAN_PERIOD_DONE: 3600: must be less than CLEAN_PERIOD (3600)"),
    ({"CLEAN_PERIOD": 100, "CLEAN_PERIOD_DONE": 200},
     "CLEAN_PERIOD_DONE: 200: must be less than CLEAN_PERIOD (100)"),
    ({"CLEAN_PERIOD": 10 ** 6, "CLEAN_PERIOD_DONE": 604801},
     "CLEAN_PERIOD_DONE: 604801: must be a whole number from 1 to 604800"),
    ({"CLEAN_PERIOD_DONE": 0},
     "CLEAN_PERIOD_DONE: 0: must be a whole number from 1 to 604800"),
    ({"CLEAN_PERIOD_DONE": "soon"},
     "CLEAN_PERIOD_DONE: soon: must be a whole number from 1 to 604800"),
])
def test_loader_refuses_bad_values(tmp_path, params, message):
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, params)
    assert message in str(err.value)
    assert str(err.value).count("CLEAN_PERIOD_DONE") == 1


def test_loader_takes_a_good_value(tmp_path):
    cfg = _load(tmp_path, {"CLEAN_PERIOD": 7200, "CLEAN_PERIOD_DONE": 600})
    assert cleanperiod.periods(cfg.params) == (600, 7200)
    assert ranges.problem("params", "CLEAN_PERIOD_DONE", 604800) is None


def _migrate(tmp_path, lines):
    return migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\n" + "".join(
            line + "\n" for line in lines) + "End Parameters\n"})


def test_migrator_carries_it(tmp_path):
    result = _migrate(tmp_path, ["CLEAN_PERIOD = 7200",
                                 "CLEAN_PERIOD_DONE = 600"])
    assert result.tree["parameters"]["CLEAN_PERIOD_DONE"] == 600
    load(tmp_path / "etc")


@pytest.mark.parametrize("lines", [
    ["CLEAN_PERIOD_DONE = 3600"],                       # = the default
    ["CLEAN_PERIOD = 100", "CLEAN_PERIOD_DONE = 500"],
    ["CLEAN_PERIOD = 9999999", "CLEAN_PERIOD_DONE = 700000"],   # > a week
])
def test_migrator_leaves_out_what_lsf_ignores(tmp_path, lines):
    result = _migrate(tmp_path, lines)
    assert "CLEAN_PERIOD_DONE" not in result.tree.get("parameters", {})
    assert any("CLEAN_PERIOD_DONE" in e.label and e.status ==
               keys.NOT_CARRIED for e in result.migration.entries)
    # Said once, under Not carried, not again as a warning.
    assert not any("CLEAN_PERIOD_DONE" in w
                   for w in map(str, result.diags.warnings))
    load(tmp_path / "etc")      # what was carried loads


def _store(tmp_path):
    store = Store(tmp_path / "xce.db")
    for jobid, stat, end in ((1, "DONE", NOW - 50), (2, "EXIT", NOW - 50),
                             (3, "DONE", NOW - 5)):
        spec = {"job_group": "/g"}
        store.save_job(job_row(jobid, stat, end_time=end, nslots=1,
                               seq=jobid, spec=spec, user="alice"))
    store.commit()
    store.close()
    return tmp_path / "xce.db"


def test_bjobs_a_shows_each_state_for_its_own_period(tmp_path):
    path = _store(tmp_path)
    params = {"CLEAN_PERIOD": "100", "CLEAN_PERIOD_DONE": "20"}
    where, args = Query(user="all", finished=True).where(params, NOW)
    with Reader(path) as reader:
        assert [r["jobid"] for r in reader.jobs(where, args)] == [2, 3]
        counts = reader.group_counts(*cleanperiod.cutoffs(params, NOW))
    assert counts == {("/g", "EXIT"): (1, 1), ("/g", "DONE"): (1, 1)}
    where, args = Query(user="all", finished=True).where(
        {"CLEAN_PERIOD": "100"}, NOW)
    with Reader(path) as reader:
        assert [r["jobid"] for r in reader.jobs(where, args)] == [1, 2, 3]


def test_bparams_l_shows_it_when_set():
    values = bparams.effective({"CLEAN_PERIOD_DONE": 600}, [])
    text = bparams.long_text(values)
    assert "    CLEAN_PERIOD_DONE = 600 (seconds)\n" in text
    assert "CLEAN_PERIOD_DONE" not in bparams.long_text(
        bparams.effective({}, []))
    assert "    CLEAN_PERIOD_DONE = 600" in bparams.all_text(values, {})
