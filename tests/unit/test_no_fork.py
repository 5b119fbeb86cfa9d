"""Invariant 6: the daemons start children with posix_spawn only."""

import re
from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"
DAEMON_PACKAGES = ("controller", "agent", "scheduler", "store", "spool")
FORBIDDEN = re.compile(
    r"\bos\.(fork|forkpty|system|popen|spawn[lv]p?e?)\b|"
    r"^\s*(import|from)\s+(subprocess|multiprocessing|pty)\b|"
    r"\bsubprocess\.|\bmultiprocessing\.")


def violations(root):
    found = []
    for path in sorted(root.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if FORBIDDEN.search(line) and "# xce-fork-ok:" not in line:
                found.append(f"{path.relative_to(root.parent)}:{n}: "
                             f"{line.strip()}")
    return found


def test_daemon_packages_never_fork():
    found = []
    for pkg in DAEMON_PACKAGES:
        found += violations(XCE / pkg)
    # The helpers both daemons share live at the top of the package.
    found += [v for v in violations(XCE) if v.startswith("xce/daemon.py")]
    assert found == []


def test_the_scan_catches_a_violation(tmp_path):
    pkg = tmp_path / "xce"
    pkg.mkdir()
    (pkg / "bad.py").write_text("import subprocess\nos.system('x')\n"
                                "os.fork()  # xce-fork-ok: test\n")
    assert len(violations(pkg)) == 2
