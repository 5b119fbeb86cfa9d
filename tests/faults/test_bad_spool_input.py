"""Bad spool files: rejected with a reason, kept for inspection, nothing else harmed."""

import json
import os

from tests.lib.xcecluster import wait_for

NAME = "00000000000000000001-1-0000000{}"


def _rejected(cluster, name):
    return (cluster.spool / "rejected" / name).exists()


def _drop(cluster, name, data):
    path = cluster.spool / "incoming" / name
    path.write_bytes(data)
    return path


def _still_serves(cluster):
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    assert cluster.proc.poll() is None


def test_truncated_and_malformed_requests_are_rejected(cluster):
    bad = {
        NAME.format(1) + ".json": b'{"version":1,"kind":"sub',
        NAME.format(2) + ".json": b"[1,2,3]",
        NAME.format(3) + ".json": json.dumps(
            {"version": 99, "kind": "submit",
             "id": NAME.format(3)}).encode(),
        NAME.format(4) + ".json": json.dumps(
            {"version": 1, "kind": "submit", "id": "other"}).encode(),
        "not-a-request.json": b"{}",
    }
    for name, data in bad.items():
        _drop(cluster, name, data)
    cluster.run("bjobs")       # any request rings the doorbell
    for name in bad:
        wait_for(lambda: _rejected(cluster, name), what=f"{name} rejected")
    _still_serves(cluster)
    assert "rejected spool file" in cluster.log_tail()


def test_symlink_in_spool_is_rejected_and_target_untouched(cluster):
    target = cluster.root / "secret"
    target.write_text("keep me")
    name = NAME.format(5) + ".json"
    os.symlink(target, cluster.spool / "incoming" / name)
    _still_serves(cluster)
    wait_for(lambda: _rejected(cluster, name), what="symlink rejected")
    assert target.read_text() == "keep me"
    assert os.path.islink(cluster.spool / "rejected" / name)


def test_fifo_in_spool_does_not_block_the_controller(cluster):
    name = NAME.format(6) + ".json"
    os.mkfifo(cluster.spool / "incoming" / name)
    _still_serves(cluster)
    wait_for(lambda: _rejected(cluster, name), what="fifo rejected")


def test_request_with_wrong_fields_gets_an_error_reply(cluster):
    """The command refuses it before spooling; written anyway, the
    controller refuses it with a one-line reply."""
    import pytest
    from xce.envdir import Site
    from xce.errors import XceError
    from xce.spool.client import call
    site = Site(cluster.envdir)
    with pytest.raises(XceError, match=r"missing field 'command'"):
        call(site, "submit", {"spec": {"queue": "normal"}}, timeout=20)
    with pytest.raises(XceError, match="unknown request kind"):
        call(site, "frobnicate", {}, timeout=20)
    name = NAME.format(7)
    _drop(cluster, name + ".json", json.dumps(
        {"version": 1, "kind": "submit", "id": name,
         "spec": {"queue": "normal"}}).encode())
    _still_serves(cluster)
    wait_for(lambda: _rejected(cluster, name + ".json"), what="rejected")
    reply = json.loads((cluster.spool / "replies" / f"{name}.json")
                       .read_text())
    assert reply == {"ok": False, "error": "Bad request: Object missing "
                     "required field `command` - at `$.spec`"}


def test_bkill_zero_with_no_jobs_says_no_matching_job(cluster):
    r = cluster.run("bkill", "-u", "all", "0")
    assert (r.rc, r.out, r.err) == (255, "", "No matching job found\n")


def test_a_link_planted_in_the_spool_tree_stops_the_start_not_the_target(
        make_cluster, tmp_path):
    """Where the spool's own directory was writable by others (a fresh
    tmpfs is 1777), a user could plant replies -> elsewhere before the
    first start: the controller refuses it and changes nothing there."""
    c = make_cluster(start=False)
    target = tmp_path / "elsewhere"
    target.mkdir(mode=0o755)
    c.spool.mkdir()
    os.symlink(target, c.spool / "replies")
    c.start(wait_hosts=False)
    assert c.proc.wait(timeout=30) != 0
    assert "replies is not a directory owned by uid" in c.log_tail()
    assert os.stat(target).st_mode & 0o7777 == 0o755
