"""bsub and bjobs, run against a live cluster, load none of the modules
that would cost them more than their own work (the list, with what each
costs, is in tests/unit/test_imports.py), and their installed launchers
start Python without the site module."""

import subprocess

import pytest

from tests.lib.xcecluster import BIN
from tests.unit.test_imports import heavy_among

# Run a command's main() as its launcher does (python -S) and print, on
# stderr's last line, every module it had loaded when it exited.
PROBE = """
import atexit, sys
sys.path.append({libdir!r})
atexit.register(lambda: print("MODULES", *sorted(sys.modules),
                              file=sys.stderr))
sys.argv = {argv!r}
from xce.cli.{command} import main
main()
"""


def _libdir():
    out = subprocess.run([str(BIN / "python"), "-c",
                          "import sysconfig; "
                          "print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def run_counting_modules(cluster, command, *args):
    code = PROBE.format(libdir=_libdir(), argv=[command, *args],
                        command=command)
    r = cluster.run("python", "-S", "-c", code)
    *err, last = r.err.splitlines()
    assert last.startswith("MODULES "), r
    return r.rc, r.out, "\n".join(err), set(last.split()[1:])


@pytest.mark.parametrize("argv", [
    ("bsub", "true"),
    ("bsub", "-J", "x", "-n", "1", "-q", "normal", "-o", "/dev/null",
     "-e", "/dev/null", "sleep", "1")])
def test_bsub_loads_nothing_costly(cluster, argv):
    rc, out, err, loaded = run_counting_modules(cluster, *argv)
    assert (rc, err) == (0, "")
    assert out.startswith("Job <") and "is submitted" in out
    assert heavy_among(loaded, "bsub") == []
    # A submission shows no message of the catalogue (xce.errbase).
    assert "xce.errors" not in loaded


def test_bjobs_loads_nothing_costly(cluster):
    jobid = cluster.submit("sleep", "30")
    for args in ((), (str(jobid),), ("-a",), ("-w", str(jobid))):
        rc, out, err, loaded = run_counting_modules(cluster, "bjobs", *args)
        assert (rc, err) == (0, ""), args
        assert f"{jobid} " in out and "sleep 30" in out, args
        assert heavy_among(loaded, "bjobs") == [], args


def test_the_installed_commands_start_without_site():
    for name in ("bsub", "bjobs", "bkill"):
        first = (BIN / name).read_text().splitlines()[0]
        assert first.endswith("python -S"), (name, first)
    assert not (BIN / "xce-controller").read_text().splitlines()[0] \
        .endswith("-S")


@pytest.mark.parametrize("argv", [("bsub", "true"), ("bjobs",),
                                  ("bjobs", "-a")])
def test_installed_commands_find_no_module_by_searching_the_path(cluster,
                                                                 argv):
    # Every xce module and C extension a submission or a listing loads
    # comes from the bundle made at install (xce.cli.bundle): a module
    # found by searching sys.path costs a search of every directory on it.
    # (python -vv names each file the path finder tries.)
    r = cluster.run("python", "-S", "-vv", str(BIN / argv[0]), *argv[1:])
    assert r.rc == 0, r
    searched = [line for line in r.err.splitlines()
                if line.startswith("# trying ") and "/encodings/" not in line]
    assert searched == [], searched
