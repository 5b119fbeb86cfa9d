"""A command's request is fsynced only when it is left spooled: a reply
means the controller has committed its effect (xce-spool(5))."""

import os
import socket
from types import SimpleNamespace

import pytest

from xce.spool import client


@pytest.fixture
def spool(tmp_path):
    for name in ("tmp", "incoming", "replies"):
        (tmp_path / name).mkdir(mode=0o700)
    tmp_path.chmod(0o700)
    return tmp_path


@pytest.fixture
def fsyncs(monkeypatch):
    """The inodes fsynced, in order."""
    done = []
    real = os.fsync

    def fsync(fd):
        done.append(os.fstat(fd).st_ino)
        real(fd)
    monkeypatch.setattr(client.oslite, "fsync", fsync)
    return done


def _doorbell(spool):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(str(spool / "doorbell"))
    return s


def _request(spool):
    return client.Request(SimpleNamespace(spool=spool), "ping", {})


def test_an_answered_request_is_never_fsynced(spool, fsyncs):
    bell = _doorbell(spool)
    try:
        req = _request(spool)
        (spool / "replies" / f"{req.id}.json").write_text('{"ok":true}')
        assert req.wait(timeout=5) == {"ok": True}
    finally:
        bell.close()
    assert fsyncs == []


def test_a_request_left_spooled_is_fsynced_first(spool, fsyncs):
    bell = _doorbell(spool)
    try:
        req = _request(spool)
        with pytest.raises(client.Spooled):
            req.wait(timeout=0.05)
    finally:
        bell.close()
    left = spool / "incoming" / f"{req.id}.json"
    assert fsyncs == [left.stat().st_ino]


def test_a_request_to_a_stopped_controller_is_fsynced_at_once(spool, fsyncs):
    req = _request(spool)       # no doorbell: the controller is down
    with pytest.raises(client.Spooled):
        req.wait(timeout=0.05)
    assert set(fsyncs) == {(spool / "incoming" / f"{req.id}.json")
                           .stat().st_ino}


def test_a_request_the_controller_took_needs_no_fsync(spool, fsyncs):
    bell = _doorbell(spool)
    try:
        req = _request(spool)
        (spool / "incoming" / f"{req.id}.json").unlink()    # taken
        with pytest.raises(client.Spooled):
            req.wait(timeout=0.05)
    finally:
        bell.close()
    assert fsyncs == []


def test_write_request_alone_is_durable(spool, fsyncs):
    req_id = client.write_request(spool, "ping", {})
    ino = (spool / "incoming" / f"{req_id}.json").stat().st_ino
    assert fsyncs == [ino, ino]     # the data, then the rename
