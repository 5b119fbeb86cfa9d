"""No unused import, undefined or shadowed name anywhere in the code: such
slips (a module shadowed by a function of the same name, say) fail only
at run time, on the one path that uses them."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_pyflakes_is_clean():
    r = subprocess.run([sys.executable, "-m", "pyflakes", "xce", "tests",
                        "bench"], cwd=REPO, capture_output=True, text=True)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
