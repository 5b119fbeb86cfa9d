"""LSF's cluster-wide and profile working directories (lsb.params
DEFAULT_JOB_CWD, JOB_CWD_TTL; lsb.applications JOB_CWD, JOB_CWD_TTL):
the migrator carries them into xce.yaml, the loader checks them (a bad
value is a one-line error naming its key and line, and the migrator
leaves it out and reports it), and the controller gives a job without
its own -cwd the profile's, else the cluster's, directory (LSF's order)."""

import pytest

from xce.config import cwdconf, keys
from xce.config.load import ConfigError
from xce.config.migrate import migrate
from xce.controller import jobdir

from tests.lib.builders import site, site_yaml

LSF = {
    "lsf.shared": "Begin Cluster\nClusterName\nc\nEnd Cluster\n",
    "lsf.cluster.c": "Begin Host\nHOSTNAME model type server\n"
                     "h1 ! ! 1\nEnd Host\n",
    "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                  "End Queue\n",
    "lsb.params": "Begin Parameters\nDEFAULT_JOB_CWD = \"/scratch/%U/%J\"\n"
                  "JOB_CWD_TTL = 24\nEnd Parameters\n",
    "lsb.applications": "Begin Application\nNAME = a1\n"
                        "JOB_CWD = /apps/my dir/%J\nJOB_CWD_TTL = 0\n"
                        "End Application\n",
}


def _migrate(tmp_path, files):
    src = tmp_path / "lsf"
    src.mkdir()
    for name, body in files.items():
        (src / name).write_text(body)
    return migrate(str(src), str(tmp_path / "etc"))


def test_the_keys_are_enforced():
    for scope, name in (("params", "DEFAULT_JOB_CWD"),
                        ("params", "JOB_CWD_TTL"),
                        ("application", "JOB_CWD"),
                        ("application", "JOB_CWD_TTL")):
        assert keys.lookup(scope, name).status == keys.ENFORCED


def test_the_migrator_carries_them_and_the_result_loads(tmp_path):
    result = _migrate(tmp_path, LSF)
    params = result.tree["parameters"]
    # Quotes dropped, blanks inside a path kept.
    assert params["DEFAULT_JOB_CWD"] == "/scratch/%U/%J"
    assert params["JOB_CWD_TTL"] == 24
    app = result.tree["applications"]["a1"]
    assert (app["JOB_CWD"], app["JOB_CWD_TTL"]) == ("/apps/my dir/%J", 0)
    dropped = [e.label for e in result.migration.entries
               if e.status == keys.NOT_CARRIED]
    assert not [d for d in dropped if "CWD" in d], dropped


def test_bad_values_are_left_out_and_reported_by_the_migrator(tmp_path):
    files = dict(LSF)
    files["lsb.params"] = ("Begin Parameters\nDEFAULT_JOB_CWD = /" +
                           "x" * 4100 + "\nJOB_CWD_TTL = -1\n"
                           "End Parameters\n")
    result = _migrate(tmp_path, files)
    params = result.tree.get("parameters") or {}
    assert "DEFAULT_JOB_CWD" not in params
    assert "JOB_CWD_TTL" not in params
    dropped = " ".join(f"{e.label} {e.why}" for e in result.migration.entries
                       if e.status == keys.NOT_CARRIED)
    assert "DEFAULT_JOB_CWD" in dropped and "4094 characters" in dropped
    assert "JOB_CWD_TTL" in dropped and "0 to 2147483647" in dropped


@pytest.mark.parametrize("params, said", [
    ({"DEFAULT_JOB_CWD": ""}, None),                 # unset
    ({"DEFAULT_JOB_CWD": "/s/" + "x" * 4100},
     "DEFAULT_JOB_CWD: the directory is over 4094 characters"),
    ({"DEFAULT_JOB_CWD": "/s/a\nb"},
     "DEFAULT_JOB_CWD: the directory contains a NUL character or a line "
     "break"),
    ({"DEFAULT_JOB_CWD": True},
     "DEFAULT_JOB_CWD: must be a directory, absolute or relative"),
    ({"JOB_CWD_TTL": -1},
     "JOB_CWD_TTL: -1: must be a whole number from 0 to 2147483647 "
     "(hours)"),
    ({"JOB_CWD_TTL": "soon"}, "JOB_CWD_TTL: soon: must be a whole number"),
    ({"JOB_CWD_TTL": 2147483648}, "JOB_CWD_TTL: 2147483648: must be"),
])
def test_bad_parameters_are_refused_in_one_line(tmp_path, params, said):
    text = site_yaml("c", {"h1": {"launch": "none"}}, params=params)
    if said is None:
        site(tmp_path, text)
        return
    with pytest.raises(ConfigError) as e:
        site(tmp_path, text)
    assert len(e.value.errors) == 1, e.value.errors
    error = e.value.errors[0]
    assert said in error and "\n" not in error, error
    assert ":" in error.split(said)[0]          # file:line before the key


@pytest.mark.parametrize("key, value, said", [
    ("JOB_CWD", '"/a\\0b"', "JOB_CWD: the directory contains a NUL"),
    ("JOB_CWD", "[a, b]", "JOB_CWD: must be a directory"),
    ("JOB_CWD_TTL", "1.5", "JOB_CWD_TTL: 1.5: must be a whole number"),
])
def test_a_bad_profile_value_is_refused(tmp_path, key, value, said):
    text = site_yaml("c", {"h1": {"launch": "none"}}) + \
        f"applications:\n  a1:\n    {key}: {value}\n"
    with pytest.raises(ConfigError) as e:
        site(tmp_path, text)
    assert len(e.value.errors) == 1 and said in e.value.errors[0], \
        e.value.errors


def _cfg(tmp_path, params=None, app=""):
    text = site_yaml("c", {"h1": {"launch": "none"}}, params=params or {})
    if app:
        text += "applications:\n  a1:\n" + app
    return site(tmp_path, text)


def _spec(**kw):
    return {"subcwd": "/home/ann", "cwd": "/home/ann", **kw}


def test_lsfs_order_of_the_working_directory(tmp_path):
    cfg = _cfg(tmp_path, {"DEFAULT_JOB_CWD": "/scratch/%U/%J_%I"},
               "    JOB_CWD: run/%J\n    JOB_CWD_TTL: 3\n")
    own = _spec(specified_cwd="mine", app="a1")    # -cwd or LSB_JOB_CWD
    jobdir.fill(cfg, own)
    assert (own["cwd"], own.get("conf_cwd")) == ("/home/ann/mine", None)
    by_app = _spec(app="a1")
    jobdir.fill(cfg, by_app)
    assert (by_app["cwd"], by_app["conf_cwd"]) == ("/home/ann/run/%J",
                                                   "run/%J")
    by_default = _spec()
    jobdir.fill(cfg, by_default)
    assert by_default["cwd"] == "/scratch/%U/%J_%I"
    # Back to the submission directory once neither applies.
    none = _cfg(tmp_path / "n")
    jobdir.fill(none, by_default)
    assert (by_default["cwd"], by_default.get("conf_cwd")) == (
        "/home/ann", None)


def test_the_ttl_is_the_profiles_else_the_clusters(tmp_path):
    cfg = _cfg(tmp_path, {"JOB_CWD_TTL": 5}, "    JOB_CWD_TTL: 0\n")
    assert jobdir.ttl_field(cfg, {"app": "a1"}, True) == {"cwd_ttl": 0}
    assert jobdir.ttl_field(cfg, {}, True) == {"cwd_ttl": 5}
    assert jobdir.ttl_field(cfg, {}, False) == {}     # nothing created
    never = _cfg(tmp_path / "n", {"JOB_CWD_TTL": cwdconf.TTL_NEVER})
    assert jobdir.ttl_field(never, {}, True) == {}
    assert jobdir.ttl_field(_cfg(tmp_path / "u"), {}, True) == {}


def test_a_configured_directory_too_long_here_refuses_the_job(tmp_path):
    cfg = _cfg(tmp_path, {"DEFAULT_JOB_CWD": "d" * 4000})
    with pytest.raises(jobdir.BadDir) as e:
        jobdir.fill(cfg, _spec(subcwd="/" + "s" * 200))
    assert str(e.value) == ("DEFAULT_JOB_CWD: the working directory is "
                            "over 4094 characters under the submission "
                            "directory")


def test_a_request_without_a_submission_directory_is_resolved_once(
        tmp_path):
    # Made from its "cwd": the -cwd is under that, not under itself.
    from xce.controller import submit
    spec = {"cwd": "/home/ann", "specified_cwd": "run"}
    submit.check_cwd(spec)
    jobdir.fill(_cfg(tmp_path), spec)
    assert (spec["cwd"], spec["subcwd"]) == ("/home/ann/run", "/home/ann")
