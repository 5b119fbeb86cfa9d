"""A user whose commands point at a cluster directory they may not read
gets one line saying so, not a Python traceback."""

import os
import shutil
import subprocess
import tempfile

import pytest

from tests.lib.xcecluster import BIN

NOBODY = 65534


@pytest.fixture
def private_envdir():
    """A cluster directory only root may enter, holding an lsf.conf."""
    root = tempfile.mkdtemp(prefix="xce-private-")
    os.chmod(root, 0o755)
    etc = os.path.join(root, "etc")
    os.mkdir(etc, 0o700)
    with open(os.path.join(etc, "lsf.conf"), "w") as f:
        f.write(f"XCE_SPOOL_DIR={root}/spool\n")
    yield etc
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("command", ["bjobs", "bsub", "bqueues", "lsid"])
def test_a_command_that_cannot_read_the_cluster_directory_says_so(
        private_envdir, command):
    argv = [str(BIN / command)] + (["true"] if command == "bsub" else [])
    done = subprocess.run(
        ["/usr/bin/setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
         "--clear-groups", "/usr/bin/env", "-i",
         f"XCE_ENVDIR={private_envdir}", *argv],
        capture_output=True, text=True, timeout=60, cwd="/")
    assert done.returncode == 255
    assert done.stdout == ""
    assert done.stderr == (f"Cannot read the cluster: {private_envdir}"
                           "/lsf.conf: Permission denied\n")
