"""xce-migrate as a user runs it: a real process, its output and exit code.

The reports of ``xce-migrate --check`` on every corpus set are kept under
tests/unit/data/lsf/reports so that a change in what is carried shows up in
review; set XCE_UPDATE_GOLDEN=1 to rewrite them after an intended change.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "unit" / "data" / "lsf"
REPORTS = DATA / "reports"
CORPUS = REPO.parent / "shared" / "lsf-config-corpus"


def run(*args, cwd=None):
    """Run xce-migrate in a fresh interpreter; (exit code, out, err)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("XCE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "xce.cli.xce_migrate", *args], cwd=cwd,
        env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def corpus_sets():
    if not CORPUS.is_dir():
        return []
    dirs = {p.parent for p in CORPUS.rglob("*")
            if p.is_file() and p.name != "SOURCES.md"}
    return sorted(str(d.relative_to(CORPUS)) for d in dirs)


def test_migrates_a_site_and_writes_the_lsf_view(tmp_path):
    target = tmp_path / "etc"
    code, out, err = run("--from", str(DATA / "site"), "--to", str(target))
    assert (code, err) == (0, "")
    assert out.startswith("xce-migrate: LSF configuration in ")
    assert "Cluster: alpha\n" in out
    assert out.rstrip().endswith(
        "Wrote xce.yaml, lsf.conf, lsbatch/alpha/configdir/lsb.params.")
    assert sorted(p.relative_to(target).as_posix()
                  for p in target.rglob("*") if p.is_file()) == [
        "lsbatch/alpha/configdir/lsb.params", "lsf.conf", "xce.yaml"]
    conf = (target / "lsf.conf").read_text()
    for key in ("LSF_ENVDIR=", "LSF_CONFDIR=", "LSB_SHAREDIR=",
                "LSF_UNIT_FOR_LIMITS=MB", "LSF_VERSION="):
        assert f"\n{key}" in conf


def test_check_reports_and_writes_nothing(tmp_path):
    code, out, err = run("--from", str(DATA / "site"), "--to",
                         str(tmp_path / "etc"), "--check")
    assert (code, err) == (0, "")
    assert "Not carried (" in out and "Nothing written (--check)." in out
    assert not (tmp_path / "etc").exists()


def test_garbage_gives_warnings_with_line_numbers_and_exit_0():
    code, out, err = run("--from", str(DATA / "bad"), "--check")
    assert (code, err) == (0, "")
    assert "  lsb.queues:5 " in out
    assert "not a KEY = VALUE line, ignored: garbage line" in out
    assert "lsb.hosts:9 " in out and "group cycle: g1 -> g2 -> g1" in out
    assert "lsb.queues:15 " in out and "has no End" in out


def test_missing_include_is_one_line_on_stderr_and_exit_255(tmp_path):
    code, out, err = run("--from", str(DATA / "badinclude"), "--to",
                         str(tmp_path / "etc"))
    assert (code, out) == (255, "")
    assert err == ("xce-migrate: lsb.queues:5: #INCLUDE "
                   "queues.d/missing.queues: No such file or directory\n")
    assert not (tmp_path / "etc").exists()


def test_unreadable_file_exits_255(tmp_path):
    (tmp_path / "lsb.queues").symlink_to(tmp_path / "gone")
    code, out, err = run("--from", str(tmp_path), "--check")
    assert (code, out) == (255, "")
    assert err == "xce-migrate: lsb.queues: No such file or directory\n"


@pytest.mark.parametrize("args, message", [
    ((), "xce-migrate: Missing option '--from'."),
    (("--from", "/nonexistent-lsf-dir", "--check"),
     "xce-migrate: /nonexistent-lsf-dir: No such file or directory"),
    (("--from", "."), "xce-migrate: --to: an xce environment directory is "
     "required unless --check is given"),
    (("--from", ".", "--bogus"), "xce-migrate: No such option")])
def test_bad_command_lines_exit_255(args, message):
    code, out, err = run(*args, cwd=str(DATA / "site"))
    assert (code, out) == (255, "")
    assert err.splitlines()[0].startswith(message)


def test_installed_console_script_runs(tmp_path):
    script = Path(sys.executable).parent / "xce-migrate"
    if not script.exists():
        pytest.skip("xce-migrate console script not installed next to "
                    "this Python")
    done = subprocess.run([str(script), "--from", str(DATA / "site"),
                           "--check"], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert "Cluster: alpha" in done.stdout


def test_help_exits_0():
    code, out, err = run("--help")
    assert (code, err) == (0, "")
    assert "--from LSF_ENVDIR" in out and "--check" in out


def _report_name(set_name):
    return set_name.replace("/", "__") + ".txt"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="LSF config corpus not "
                    "found at ../shared/lsf-config-corpus next to the "
                    "repository")
@pytest.mark.parametrize("set_name", corpus_sets() or ["(none)"])
def test_corpus_set_report_matches_the_reviewed_one(set_name, tmp_path):
    code, out, err = run("--from", set_name, "--check", cwd=str(CORPUS))
    assert (code, err) == (0, "")
    golden = REPORTS / _report_name(set_name)
    if os.environ.get("XCE_UPDATE_GOLDEN"):
        REPORTS.mkdir(parents=True, exist_ok=True)
        golden.write_text(out)
    assert out == golden.read_text()
    code, out, err = run("--from", set_name, "--to", str(tmp_path / "etc"),
                         cwd=str(CORPUS))
    assert (code, err) == (0, "")
    assert (tmp_path / "etc" / "xce.yaml").is_file()
