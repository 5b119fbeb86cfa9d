"""Rootless podman containers of another user: a podman job of a real
user runs its container in that user's own storage, which the agent
(root) does not see; a container of such a job left behind while the
agent was down is removed at the agent's next start, as that user, and
one of another agent is left alone; a user left with none is forgotten.
Skipped where rootless podman cannot start a container from a local
root file system.  Run under the real-users lock."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.cli.test_app_containers import _rootfs, _tag
from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("pc")

users = users_fixture(NAMES)

# Rootless podman here: runc (crun refuses cgroups in hybrid mode) and no
# network (no /dev/net/tun for slirp4netns).
_CONF = """[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
"""


@pytest.fixture(scope="module")
def rootfs():
    if shutil.which("podman") is None or not os.path.exists("/bin/busybox"):
        pytest.skip("needs podman and /bin/busybox")
    top = tempfile.mkdtemp(prefix="xce-rootfs-")
    os.chmod(top, 0o755)
    try:
        yield _rootfs(Path(top) / "rootfs")
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _podman(user, env, *argv):
    return subprocess.run(
        ["/usr/bin/setpriv", f"--reuid={user.uid}", f"--regid={user.gid}",
         "--init-groups", "--", "podman", *argv],
        env=dict(env, PATH=os.environ["PATH"]), capture_output=True,
        text=True, timeout=120)


@pytest.fixture(scope="module")
def ann(users, rootfs):
    """The user, with the environment their rootless podman runs in."""
    user = users[0]
    # Rootless podman writes into the root file system (/etc/mtab ...).
    for path in [rootfs, *rootfs.rglob("*")]:
        os.lchown(path, user.uid, user.gid)
    conf = Path(user.home) / "containers.conf"
    conf.write_text(_CONF)
    os.chown(conf, user.uid, user.gid)
    env = {"HOME": user.home, "CONTAINERS_CONF": str(conf)}
    r = _podman(user, env, "run", "--rm", "--network=none", "--rootfs",
                str(rootfs), "/bin/sh", "-c", "cat /etc/marker")
    if r.returncode != 0 or "inside" not in r.stdout:
        why = (r.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"rootless podman cannot run a container here: {why}")
    return user, env


@pytest.fixture(scope="module")
def cluster(rootfs):
    apps = f"""
applications:
  pod:
    CONTAINER: podman[image({rootfs}) options(--network=none)]
"""
    with shared_cluster("xce-pc-", extra=apps, mxj=2) as c:
        yield c


def _named(user, env, name):
    r = _podman(user, env, "ps", "-a", "--filter", f"name=^{name}$",
                "--format", "{{.Names}}")
    return r.stdout


def test_an_agent_removes_another_users_rootless_containers_it_left(
        cluster, ann, rootfs):
    user, env = ann
    r = cluster.run("bsub", "-app", "pod", "-o", "pod.out",
                    "id -u; cat /etc/marker", user=user.name, cwd=user.home,
                    env=env)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    cluster.wait_stat(jobid, "DONE", timeout=90)
    out = (Path(user.home) / "pod.out").read_text()
    assert f"{user.uid}\ninside the container\n" in out, out
    agent = cluster.spool / "agents" / socket.gethostname()
    tag = _tag(cluster)
    places = (agent / "container-places").read_text().splitlines()
    assert [json.loads(p)["uid"] for p in places] == [user.uid]
    # Left by a job that ended while the agent was down (job 999 is no
    # job of this agent's); one of another agent is left alone.
    mine = f"xce-{cluster.name}-999-0-1-{tag}"
    other = f"xce-{cluster.name}-999-0-1-x{tag}"
    for name, label in ((mine, tag), (other, "x" + tag)):
        r = _podman(user, env, "run", "-d", "--network=none", "--name", name,
                    "--label", f"xce.agent={label}", "--rootfs",
                    str(rootfs), "/bin/sh", "-c", "sleep 100")
        assert r.returncode == 0, r.stderr
    try:
        # root's podman, the agent's own, does not see them.
        r = subprocess.run(["podman", "ps", "-a", "--format",
                            "{{.Names}}"], capture_output=True, text=True,
                           timeout=120)
        assert mine not in r.stdout
        assert cluster.run("badmin", "hrestart",
                           socket.gethostname()).rc == 0
        wait_for(lambda: _named(user, env, mine) == "", timeout=60,
                 what="the agent to remove the user's container")
        assert _named(user, env, other) == other + "\n"
        # None of this agent's is left there now: the next start
        # forgets the user.
        assert cluster.run("badmin", "hrestart",
                           socket.gethostname()).rc == 0
        wait_for(lambda: (agent / "container-places").read_text() == "",
                 timeout=60, what="the user to be forgotten")
    finally:
        for name in (mine, other):
            _podman(user, env, "rm", "-f", "-t", "0", name)
