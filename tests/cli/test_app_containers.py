"""A profile's CONTAINER end to end: a job runs inside podman as its
submitting user, in its own directory (in /tmp when that is missing, as
other jobs do); the image may come from the job's
LSB_CONTAINER_IMAGE; a runtime no host has is refused at submit with the
runtime named; a pending job whose profile comes to need a runtime its
host lacks pends with that reason; a bad CONTAINER is refused by
reconfig.  The podman test runs where podman can start a container from
a local root file system (no image registry needed) and is skipped with
the reason elsewhere."""

import shutil
import socket
import subprocess

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

BUSYBOX = "/bin/busybox"
# What podman needs on a host like the test machines (no systemd cgroup
# manager, hard limits lower than podman's default ulimits); a site puts
# its own in containers.conf.
_CONF = """[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
cgroup_manager = "cgroupfs"
{runtime}"""


def _rootfs(path):
    """A root file system of a static busybox, with a marker file."""
    (path / "bin").mkdir(parents=True)
    for name in ("etc", "tmp", "proc", "dev", "sys"):
        (path / name).mkdir()
    shutil.copy(BUSYBOX, path / "bin" / "busybox")
    for name in ("sh", "id", "cat", "pwd", "echo"):
        (path / "bin" / name).symlink_to("busybox")
    (path / "etc" / "marker").write_text("inside the container\n")
    return path


def _podman_env(tmp_path, rootfs):
    """The environment podman runs a container in here, or skip."""
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed")
    if not shutil.os.path.exists(BUSYBOX):
        pytest.skip(f"no {BUSYBOX} to make a root file system of")
    why = ""
    for runtime in ('runtime = "runc"\n', ""):
        conf = tmp_path / "containers.conf"
        conf.write_text(_CONF.format(runtime=runtime))
        env = dict(shutil.os.environ, CONTAINERS_CONF=str(conf))
        r = subprocess.run(["podman", "run", "--rm", "--rootfs", str(rootfs),
                            "/bin/sh", "-c", "cat /etc/marker"], env=env,
                           capture_output=True, text=True, timeout=120)
        if r.returncode == 0 and "inside" in r.stdout:
            return {"CONTAINERS_CONF": str(conf)}
        why = (r.stderr.strip().splitlines() or ["no output"])[-1]
    pytest.skip(f"podman cannot run a container here: {why}")


def _apps(rootfs):
    return f"""
applications:
  pod:
    CONTAINER: podman[image({rootfs}) options(--network=none)]
  podimg:
    CONTAINER: podman[image($LSB_CONTAINER_IMAGE)]
  dock:
    CONTAINER: docker[image(centos:7)]
  plain:
    DESCRIPTION: no container yet
"""


_QUEUES = """\
  dockq:
    PRIORITY: 20
    CONTAINER: docker[image(centos:7)]
"""


@pytest.fixture
def boxes(make_cluster, tmp_path):
    rootfs = _rootfs(tmp_path / "rootfs")
    return make_cluster(extra=_apps(rootfs), mxj=4,
                        extra_queues=_QUEUES), rootfs


def test_podman_job_runs_inside_as_its_user_in_its_directory(boxes,
                                                             tmp_path):
    cluster, rootfs = boxes
    env = _podman_env(tmp_path, rootfs)
    work = cluster.root / "work"
    work.mkdir()
    (work / "input").write_text("from the host\n")
    jobid = cluster.submit(
        "-app", "pod", "-o", "pod.out",
        "id -u; cat /etc/marker; pwd; cat input; echo $LSB_JOBID",
        cwd=work, env=env)
    cluster.wait_stat(jobid, "DONE", timeout=90)
    out = (work / "pod.out").read_text()
    assert f"0\ninside the container\n{work}\nfrom the host\n{jobid}\n" \
        in out, out
    # The image from the job's environment.
    r = cluster.run("bsub", "-app", "podimg", "true", env=env)
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == ("Application profile <podimg> takes its container "
                     "image from LSB_CONTAINER_IMAGE, which the job does "
                     "not set. Job not submitted.\n"), r
    jobid = cluster.submit(
        "-app", "podimg", "-o", "img.out", "cat /etc/marker",
        cwd=work, env=dict(env, LSB_CONTAINER_IMAGE=str(rootfs)))
    cluster.wait_stat(jobid, "DONE", timeout=90)
    assert (work / "img.out").read_text().count("inside the container")
    # bmod -app to that profile checks the image as bsub does.
    held = cluster.submit("-H", "true", env=env)
    r = cluster.run("bmod", "-app", "podimg", str(held))
    assert r.rc == 255 and "takes its container image from " \
        "LSB_CONTAINER_IMAGE, which the job does not set" in r.err, r
    assert "app" not in cluster.stored_job(held)["spec"]
    # bkill's signals reach the job inside: it ends, and so does its
    # container.
    jobid = cluster.submit("-app", "pod", "-o", "kill.out",
                           "echo up; sleep 100", cwd=work, env=env)
    wait_for(lambda: (work / "kill.out").exists() and
             "up" in (work / "kill.out").read_text(), what="the job")
    assert cluster.run("bkill", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    wait_for(lambda: str(work) not in _containers(env),
             what="its container to go")


def test_a_container_job_whose_directory_is_missing_runs_in_tmp(boxes,
                                                                tmp_path):
    """As every other job: /tmp is its working directory, mounted in the
    container, and bjobs -l says so (podman is not given the missing
    directory, which it would refuse to mount)."""
    cluster, rootfs = boxes
    env = _podman_env(tmp_path, rootfs)
    missing = cluster.root / "gone"
    out = cluster.root / "box.out"
    jobid = cluster.submit("-app", "pod", "-cwd", str(missing), "-o",
                           str(out), "pwd; cat /etc/marker", env=env)
    assert cluster.wait_stat(jobid, "DONE", "EXIT", timeout=90) == "DONE", \
        out.read_text()
    lines = out.read_text().splitlines()
    assert lines[:2] == ["/tmp", "inside the container"], lines
    assert "</tmp> was used as the working directory." in out.read_text()
    assert "Execution CWD </tmp>" in cluster.long(jobid)
    assert not missing.exists()


def test_bkill_leaves_no_container_behind(boxes, tmp_path):
    """A job that ignores bkill's first signals inside its container is
    ended by the last, SIGKILL, which podman cannot hand on: its client
    dies and the container would run on; the agent removes it by name."""
    cluster, rootfs = boxes
    env = _podman_env(tmp_path, rootfs)
    work = cluster.root / "work"
    work.mkdir()
    jobid = cluster.submit("-app", "pod", "-o", "deaf.out",
                           "trap '' INT TERM; echo up; sleep 100",
                           cwd=work, env=env)
    wait_for(lambda: "up" in _read(work / "deaf.out"), what="the job")
    name = f"xce-testclu-{jobid}-0-1-{_tag(cluster)}"
    assert _named(name, env) == name + "\n"
    assert cluster.run("bkill", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    wait_for(lambda: _named(name, env) == "", what="its container to go")


def test_a_restarted_agent_removes_containers_of_jobs_it_does_not_run(
        boxes, tmp_path):
    cluster, rootfs = boxes
    env = _podman_env(tmp_path, rootfs)
    tag = _tag(cluster)
    # Left by a job that ended while the agent was down (job 999 is no
    # job of this agent's); one of another agent is left alone.
    mine, other = f"xce-testclu-999-0-1-{tag}", f"xce-testclu-999-0-1-x{tag}"
    for name, label in ((mine, tag), (other, "x" + tag)):
        r = subprocess.run(
            ["podman", "run", "-d", "--name", name, "--label",
             f"xce.agent={label}", "--rootfs", str(rootfs), "/bin/sh", "-c",
             "sleep 100"], env=dict(shutil.os.environ, **env),
            capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    try:
        (_agent_dir(cluster) / "container-runtimes").write_text("podman\n")
        assert cluster.run("badmin", "hrestart",
                           socket.gethostname()).rc == 0
        wait_for(lambda: _named(mine, env) == "",
                 what="the agent to remove its container")
        assert _named(other, env) == other + "\n"
    finally:
        for name in (mine, other):
            subprocess.run(["podman", "rm", "-f", "-t", "0", name],
                           env=dict(shutil.os.environ, **env),
                           capture_output=True, timeout=60)


def _agent_dir(cluster):
    return cluster.spool / "agents" / socket.gethostname()


def _tag(cluster):
    from xce.agent import container
    return container.agent_tag(_agent_dir(cluster))


def _named(name, env):
    """The container called *name* (any state), or ""."""
    r = subprocess.run(["podman", "ps", "-a", "--filter", f"name=^{name}$",
                        "--format", "{{.Names}}"], capture_output=True,
                       text=True, env=dict(shutil.os.environ, **env))
    return r.stdout


def _read(path):
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


def _containers(env):
    """The mounts of the containers running here, one line each."""
    r = subprocess.run(["podman", "ps", "--format", "{{.ID}} {{.Mounts}}"],
                       capture_output=True, text=True,
                       env=dict(shutil.os.environ, **env))
    return r.stdout


@pytest.mark.parametrize("where, owner", [
    (("-app", "dock"), "application profile <dock>"),
    (("-q", "dockq"), "queue <dockq>")])
def test_a_runtime_no_host_has_is_refused_at_submit(boxes, where, owner):
    cluster, _ = boxes
    if "docker" in _runtimes(cluster):
        pytest.skip("this host runs a docker engine")
    r = cluster.run("bsub", *where, "true")
    assert (r.rc, r.out, r.err) == (
        255, "", f"No host has the container runtime docker that {owner} "
        "needs. Job not submitted.\n")
    assert cluster.run("bjobs", "-a").out == ""
    assert cluster.proc.poll() is None


def test_a_queue_container_applies_unless_the_profile_has_one(boxes,
                                                            tmp_path):
    cluster, rootfs = boxes
    if "docker" in _runtimes(cluster):
        pytest.skip("this host runs a docker engine")
    r = cluster.run("bsub", "-q", "dockq", "-app", "plain", "true")
    assert r.rc == 255 and "queue <dockq> needs" in r.err, r
    # The profile's CONTAINER wins over the queue's, as in LSF.
    env = _podman_env(tmp_path, rootfs)
    work = cluster.root / "work"
    work.mkdir()
    jobid = cluster.submit("-q", "dockq", "-app", "pod", "-o", "q.out",
                           "cat /etc/marker", cwd=work, env=env)
    cluster.wait_stat(jobid, "DONE", timeout=90)
    assert "inside the container" in (work / "q.out").read_text()


def test_a_job_whose_profile_comes_to_need_a_missing_runtime_pends(boxes):
    cluster, _ = boxes
    if "docker" in _runtimes(cluster):
        pytest.skip("this host runs a docker engine")
    jobid = cluster.submit("-app", "plain", "-H", "true")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        "DESCRIPTION: no container yet", "CONTAINER: docker[image(c)]"))
    assert cluster.run("badmin", "reconfig").rc == 0
    assert cluster.run("bresume", str(jobid)).rc == 0
    wait_for(lambda: "The host does not have the container runtime docker"
             in cluster.run("bjobs", "-p", str(jobid)).out,
             what="the runtime's pend reason")
    assert cluster.stat(jobid) == "PEND"


def test_a_bad_container_is_refused_by_reconfig(boxes):
    cluster, _ = boxes
    assert_reconfig_refuses(
        cluster, "docker[image(centos:7)]", "shifter[image(centos:7)]",
        "CONTAINER: runtime shifter is not supported by xce")
    assert_reconfig_refuses(
        cluster, "shifter[image(centos:7)]",
        "docker[image(centos:7) options(--user=7)]",
        "CONTAINER: option --user is reserved")
    r = cluster.run("bapp", "-l", "dock")
    assert "CONTAINER = docker[image(centos:7)]\n" in r.out, r


def _runtimes(cluster):
    from xce.agent import container
    return container.detect()
