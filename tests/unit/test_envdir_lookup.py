"""Where a command looks for its cluster (xce.envdir), in LSF's order."""

from pathlib import Path

import pytest

from xce import envdir


@pytest.fixture
def system(tmp_path, monkeypatch):
    """The system locations moved under tmp_path; no variables set."""
    for var in ("XCE_ENVDIR", "LSF_ENVDIR"):
        monkeypatch.delenv(var, raising=False)
    etc = tmp_path / "etc"
    etc.mkdir()
    monkeypatch.setattr(envdir, "SYSTEM_DIRS", (etc / "xce",))
    monkeypatch.setattr(envdir, "LSF_SYSTEM_CONF", etc / "lsf.conf")
    return etc


def test_the_variables_come_first_xce_then_lsf(system, monkeypatch):
    monkeypatch.setenv("LSF_ENVDIR", str(system / "lsf"))
    assert envdir.envdir() == system / "lsf"
    monkeypatch.setenv("XCE_ENVDIR", str(system / "x"))
    assert envdir.envdir() == system / "x"


def test_etc_xce_holds_the_cluster(system):
    (system / "xce").mkdir()
    (system / "xce" / "lsf.conf").write_text("XCE_SPOOL_DIR=/s\n")
    assert envdir.system_envdir() == system / "xce"


def test_etc_lsf_conf_names_its_envdir_as_lsf_does(system):
    (system / "lsf.conf").write_text("LSF_ENVDIR=/opt/site/conf\n")
    assert envdir.system_envdir() == Path("/opt/site/conf")
    (system / "lsf.conf").write_text("XCE_SPOOL_DIR=/s\n")
    assert envdir.system_envdir() == system


def test_nothing_installed_names_etc_xce_never_the_python_installation(
        system):
    found = envdir.system_envdir()
    assert found == system / "xce"
    with pytest.raises(envdir.XceError) as err:
        envdir.Site(found)
    assert str(err.value).startswith(
        f"Cannot find the cluster: {system / 'xce' / 'lsf.conf'}: No such")
