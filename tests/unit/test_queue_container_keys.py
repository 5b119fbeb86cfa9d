"""A queue's CONTAINER and JOB_SIZE_LIST are read as a profile's are (a
bad value is a configuration error naming the key); CHUNK_JOB_SIZE is
left out with its reason, in a queue as in a profile, and refused when
written in xce.yaml by hand."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError

from tests.lib.builders import site, site_yaml


def _load(tmp_path, **queue):
    return site(tmp_path, site_yaml("c", {"h1": {"launch": "none"}},
                                    queues={"normal": queue}))


def test_a_queue_container_and_size_list_are_read(tmp_path):
    cfg = _load(tmp_path, CONTAINER="podman[image(/srv/root) "
                "options(--network=none)]", JOB_SIZE_LIST="4 2 8")
    q = cfg.queues["normal"]
    assert (q.container.runtime, q.container.image, q.container.options) \
        == ("podman", "/srv/root", ("--network=none",))
    assert q.job_sizes == (4, 2, 8)


@pytest.mark.parametrize("key, value, message", [
    ("CONTAINER", "shifter[image(c)]",
     "CONTAINER: runtime shifter is not supported by xce"),
    ("CONTAINER", "docker[image(c) options(--name=x)]",
     "CONTAINER: option --name is reserved"),
    ("JOB_SIZE_LIST", "2 0", "JOB_SIZE_LIST: 2 0: must be default_size"),
])
def test_a_bad_queue_container_or_size_list_is_an_error(tmp_path, key,
                                                         value, message):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, **{key: value})
    assert any(message in str(err) for err in e.value.errors), \
        e.value.errors


def test_chunk_job_size_is_left_out_with_its_reason(tmp_path):
    for scope in ("queue", "application"):
        key = keys.lookup(scope, "CHUNK_JOB_SIZE")
        assert (key.status, key.why) == (
            keys.NOT_CARRIED, "xce dispatches every job alone; it has no "
            "chunk jobs")
    assert keys.lookup("queue", "CONTAINER").status == keys.ENFORCED
    assert keys.lookup("queue", "JOB_SIZE_LIST").status == keys.ENFORCED
    # Written by hand, the loader refuses it with that reason.
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, CHUNK_JOB_SIZE=4)
    assert any("CHUNK_JOB_SIZE" in str(err) and "not supported by xce: "
               "xce dispatches every job alone" in str(err)
               for err in e.value.errors), e.value.errors
