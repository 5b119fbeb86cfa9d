"""A profile's CONTAINER: LSF's syntax read (and what xce refuses), the
command line the agent runs a job with, and hosts without the runtime
kept from the job with a reason naming it."""

import json

import pytest

from xce.agent import container
from xce.config import containerconf
from xce.config.containerconf import BadContainer, Container
from xce.scheduler import hostfit
from xce.scheduler.views import HostView, QueueView


@pytest.mark.parametrize("value, parsed", [
    ("docker[image(centos:7)]", Container("docker", "centos:7")),
    ("podman[image(/srv/root) options(--net=none -v /a:/a)]",
     Container("podman", "/srv/root", ("--net=none", "-v", "/a:/a"))),
    ("singularity[ image(/img/x.sif)  options(--cleanenv) ]",
     Container("singularity", "/img/x.sif", ("--cleanenv",))),
    ("apptainer[image($LSB_CONTAINER_IMAGE)]",
     Container("apptainer", "$LSB_CONTAINER_IMAGE")),
    ("podman[image(r) options(-e 'A=(x y)')]",
     Container("podman", "r", ("-e", "A=(x y)"))),
])
def test_lsf_syntax_reads(value, parsed):
    assert containerconf.parse(value) == parsed


@pytest.mark.parametrize("value, said", [
    ("docker", "must be runtime[image(name) options(run options)]"),
    ("docker[image(x)", "must be runtime[image(name)"),
    ("shifter[image(x)]", "runtime shifter is not supported"),
    ("podman[options(-q)]", "image(name) is missing"),
    ("docker[image(/srv/root)]", "docker cannot run a root file system"),
    ("podman[image(x) options(@/etc/opts.sh)]", "options script"),
    ("podman[image(x) options(--user=5)]", "option --user is reserved"),
    ("docker[image(x) options(-w /tmp)]", "option -w is reserved"),
    ("podman[image(x) job_pre_post()]", "keyword job_pre_post() is not"),
    ("docker[image(x) starter(lsfadmin)]", "runs as the job's user"),
    ("podman[image(x) options(-e 'A)]", "must be runtime"),
])
def test_bad_values_are_refused_with_the_reason(value, said):
    with pytest.raises(BadContainer) as e:
        containerconf.parse(value)
    assert said in str(e.value)


def test_the_image_may_come_from_the_job():
    box = containerconf.parse("podman[image($LSB_CONTAINER_IMAGE)]")
    assert containerconf.image_of(box, {"LSB_CONTAINER_IMAGE": "ub"}) == "ub"
    assert containerconf.image_of(box, {}) is None
    # A value the runtime would take for an option is no image.
    assert containerconf.image_of(
        box, {"LSB_CONTAINER_IMAGE": "--privileged"}) is None


def test_podman_runs_the_job_as_its_user_in_its_directory():
    box = {"runtime": "podman", "image": "/srv/root", "options": ["-q"]}
    words = container.argv(box, 1000, 100, "/home/u/w", {"A": "1"},
                           "/home/u/.xce/7.job")
    assert words[:5] == ["podman", "run", "--rm", "-i", "--init"]
    assert "--userns=keep-id" in words      # rootless: the same uid
    at = words.index("--user")
    assert words[at + 1] == "1000:100"
    assert words[words.index("-w") + 1] == "/home/u/w"
    assert "/home/u/w:/home/u/w" in words
    assert "/home/u/.xce/7.job:/home/u/.xce/7.job:ro" in words
    assert words[words.index("-e") + 1] == "A"
    assert words[-3:] == ["-q", "--rootfs", "/srv/root"]
    root = container.argv(box, 0, 0, "/w", {}, None)
    assert "--userns=keep-id" not in root and "0:0" in root


def test_docker_and_apptainer_lines():
    words = container.argv({"runtime": "docker", "image": "centos"},
                           5, 6, "/w", {}, None)
    assert words[-1] == "centos" and "5:6" in words
    words = container.argv({"runtime": "singularity", "image": "/i.sif",
                            "options": ["--cleanenv"]}, 5, 6, "/w", {}, None)
    assert words == ["singularity", "exec", "--pwd", "/w", "--bind",
                     "/w:/w", "--cleanenv", "/i.sif"]
    line = container.command({"runtime": "docker", "image": "c"}, 5, 6,
                             {}, "echo 'a b'")
    assert line.startswith("exec docker run ")
    # Where the wrapper runs it: the job's directory, or /tmp.
    assert ' -w "$PWD" -v "$PWD:$PWD" ' in line
    assert line.endswith("c /bin/sh -c 'echo '\"'\"'a b'\"'\"''")


def test_runtimes_detected():
    have = {"podman", "docker", "singularity"}
    found = container.detect(lambda n: n in have and "/usr/bin/" + n,
                             docker_up=lambda: False)
    assert found == ["apptainer", "podman"]
    found = container.detect(lambda n: n == "docker", docker_up=lambda: True)
    assert found == ["docker"]


def test_a_host_without_the_runtime_is_blocked_with_its_name():
    q = QueueView("normal", 30)
    bare = HostView("h1", "ok", 4)
    boxed = HostView("h2", "ok", 4, runtimes=frozenset({"podman"}))
    assert hostfit.host_blocked(bare, q, None, None, runtime="podman") == \
        "The host does not have the container runtime podman"
    assert hostfit.host_blocked(boxed, q, None, None, runtime="podman") \
        is None
    assert hostfit.host_blocked(bare, q, None, None) is None


def test_a_rootless_users_place_is_what_locates_their_store(tmp_path):
    from xce.agent import boxes
    place = boxes.place_of(1001, 1002, {
        "HOME": "/home/a", "CONTAINERS_CONF": "/home/a/c.conf",
        "SECRET": "x", "XDG_RUNTIME_DIR": 7})
    assert place == {"uid": 1001, "gid": 1002, "env": {
        "HOME": "/home/a", "CONTAINERS_CONF": "/home/a/c.conf"}}
    # The noted places: each once; a torn or strange line is skipped,
    # and never root's (its containers are the agent's own).
    table = boxes.Boxes()
    table._init_boxes(tmp_path)
    good = json.dumps(place)
    (tmp_path / "container-places").write_text("\n".join([
        good, good, '{"uid": 0, "gid": 0, "env": {}}',
        '{"uid": "5", "gid": 1, "env": {}}', '{"uid": 5, "gid": 1, "env": []}',
        '[1]', '{"uid": 5, "gid"']) + "\n")
    assert table.noted_places() == [place]
