"""Installed like LSF: outside a checkout, a command finds its cluster from
$XCE_ENVDIR, $LSF_ENVDIR, then the system location (/etc/xce), never from
a path inside the Python installation; a cron job's environment (env -i,
the command's absolute path only) can submit, query and kill."""

import os
import subprocess
from pathlib import Path

import pytest

from tests.lib.xcecluster import BIN, wait_for

SYSTEM_DIR = Path("/etc/xce")
# The system location is the machine's: one test puts a cluster there that
# another must not see, so these run with the machine alone.
pytestmark = pytest.mark.xdist_group("machine")


def cron(*argv, **env):
    """Run an installed command as cron would: no environment but *env*."""
    cmd = ["/usr/bin/env", "-i", *(f"{k}={v}" for k, v in env.items()),
           str(BIN / argv[0]), *argv[1:]]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                          cwd="/")
    return done.returncode, done.stdout, done.stderr


def _submit_query_kill(**env):
    code, out, err = cron("bsub", "-o", "/dev/null", "/bin/sleep 60", **env)
    assert (code, err) == (0, ""), err
    jobid = out.split("<", 1)[1].split(">", 1)[0]

    def stat():
        code, out, _ = cron("bjobs", "-noheader", jobid, **env)
        return out.split()[2] if code == 0 and out.strip() else None
    wait_for(lambda: stat() == "RUN", what="the cron-submitted job to run")
    code, out, err = cron("bkill", jobid, **env)
    assert (code, err) == (0, "") and f"Job <{jobid}> is being terminated" \
        in out
    wait_for(lambda: stat() == "EXIT", what="the job to be killed")


def test_installed_command_without_any_variable_names_the_system_location():
    if (SYSTEM_DIR / "lsf.conf").exists():
        pytest.skip("this machine has a cluster in /etc/xce")
    code, out, err = cron("bjobs")
    assert (code, out) == (255, "")
    assert err == ("Cannot find the cluster: /etc/xce/lsf.conf: No such "
                   "file or directory (set XCE_ENVDIR or LSF_ENVDIR to the "
                   "directory of its xce.yaml)\n")
    assert "site-packages" not in err


@pytest.mark.parametrize("var", ["XCE_ENVDIR", "LSF_ENVDIR"])
def test_cron_finds_the_cluster_through_the_variable(cluster, var):
    _submit_query_kill(**{var: str(cluster.envdir)})


def test_cron_finds_the_cluster_in_the_system_location(cluster):
    if os.geteuid() != 0 or os.path.lexists(SYSTEM_DIR):
        pytest.skip("needs root and no /etc/xce on this machine")
    SYSTEM_DIR.symlink_to(cluster.envdir)
    try:
        _submit_query_kill()
    finally:
        SYSTEM_DIR.unlink()
