"""LSF's cluster-wide and profile working directories (lsb.params
DEFAULT_JOB_CWD, JOB_CWD_TTL; lsb.applications JOB_CWD, JOB_CWD_TTL):
xce gives a job only its -cwd or LSB_JOB_CWD, so the migrator leaves these
out saying why, and xce.yaml refuses them written by hand."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError
from xce.config.migrate import migrate

from tests.lib.builders import site, site_yaml

LSF = {
    "lsf.shared": "Begin Cluster\nClusterName\nc\nEnd Cluster\n",
    "lsf.cluster.c": "Begin Host\nHOSTNAME model type server\n"
                     "h1 ! ! 1\nEnd Host\n",
    "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                  "End Queue\n",
    "lsb.params": "Begin Parameters\nDEFAULT_JOB_CWD = /scratch/%U/%J\n"
                  "JOB_CWD_TTL = 24\nEnd Parameters\n",
    "lsb.applications": "Begin Application\nNAME = a1\n"
                        "JOB_CWD = /apps/%J\nJOB_CWD_TTL = 2\n"
                        "End Application\n",
}


def test_the_keys_are_left_out_with_why():
    for scope in ("params", "application"):
        for name in ("JOB_CWD_TTL",) + (("DEFAULT_JOB_CWD",)
                                        if scope == "params"
                                        else ("JOB_CWD",)):
            key = keys.lookup(scope, name)
            assert key.status == keys.NOT_CARRIED, (scope, name)
            assert "bsub -cwd" in key.why


def test_the_migrator_reports_them_and_the_result_loads(tmp_path):
    src = tmp_path / "lsf"
    src.mkdir()
    for name, body in LSF.items():
        (src / name).write_text(body)
    result = migrate(str(src), str(tmp_path / "etc"))
    dropped = {e.label.split(" = ")[0] for e in result.migration.entries
               if e.status == keys.NOT_CARRIED}
    assert {"parameters DEFAULT_JOB_CWD", "parameters JOB_CWD_TTL",
            "application a1 JOB_CWD", "application a1 JOB_CWD_TTL"} <= \
        dropped, dropped
    assert "DEFAULT_JOB_CWD" not in (result.tree.get("parameters") or {})
    assert "JOB_CWD" not in result.tree["applications"]["a1"]


@pytest.mark.parametrize("params", [{"DEFAULT_JOB_CWD": "/s/%U"},
                                    {"JOB_CWD_TTL": 4}])
def test_hand_written_parameters_are_refused(tmp_path, params):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, site_yaml("c", {"h1": {"launch": "none"}},
                                 params=params))
    name = next(iter(params))
    assert f"{name}: not supported by xce: " in str(e.value)


def test_a_hand_written_profile_key_is_refused(tmp_path):
    text = site_yaml("c", {"h1": {"launch": "none"}}) + \
        "applications:\n  a1:\n    JOB_CWD: /apps/%J\n"
    with pytest.raises(ConfigError) as e:
        site(tmp_path, text)
    assert "JOB_CWD: not supported by xce: " in str(e.value)
