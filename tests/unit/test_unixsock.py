"""UNIX sockets whose path is longer than a socket address holds are bound,
connected and sent to through their directory (xce.unixsock); where that
cannot be done the error says which path and why, in one line."""

import os
import socket
import stat

import pytest

from xce import unixsock
from xce.controller import agents
from xce.config.model import HostConf
from xce.controller.agents import AgentLink


@pytest.fixture
def deep(tmp_path):
    """A directory whose socket paths are longer than 107 bytes."""
    d = tmp_path.joinpath(*["d" * 50] * 3)
    d.mkdir(parents=True)
    assert len(str(d / "agent.sock")) > unixsock.SUN_PATH_MAX
    return d


def _listener(path, kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_UNIX, kind)
    old = os.umask(0o177)
    try:
        unixsock.bind(s, path)
    finally:
        os.umask(old)
    return s


def test_a_long_path_is_bound_and_connected_with_the_umask_mode(deep):
    path = deep / "agent.sock"
    with _listener(path) as server:
        server.listen(1)
        st = os.lstat(path)         # the socket is where its path says
        assert stat.S_ISSOCK(st.st_mode)
        assert stat.S_IMODE(st.st_mode) == 0o600
        with socket.socket(socket.AF_UNIX) as client:
            unixsock.connect(client, path)
            conn, _ = server.accept()
            client.sendall(b"hello")
            assert conn.recv(5) == b"hello"
            conn.close()
    # The directory's descriptor is not left open.
    assert not [f for f in os.listdir("/proc/self/fd")
                if os.path.realpath(f"/proc/self/fd/{f}") == str(deep)]


def test_a_datagram_reaches_a_long_path(deep):
    with _listener(deep / "doorbell", socket.SOCK_DGRAM) as bell, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        unixsock.sendto(s, b"r", str(deep / "doorbell"))
        assert bell.recv(4) == b"r"


def test_a_short_path_and_an_abstract_name_are_used_as_they_are(tmp_path):
    short = tmp_path / "s"
    with _listener(short) as server:
        assert server.getsockname() == str(short)
    name = b"\0xce-test-" + os.urandom(4).hex().encode() + b"x" * 80
    with _listener(name, socket.SOCK_DGRAM) as server:
        assert server.getsockname() == name
    assert unixsock.fits(short) and unixsock.fits(name)


def test_nothing_listening_is_an_os_error_as_with_a_short_path(deep):
    with socket.socket(socket.AF_UNIX) as s:
        with pytest.raises(FileNotFoundError):
            unixsock.connect(s, deep / "agent.sock")
        with pytest.raises(FileNotFoundError):
            unixsock.connect(s, deep / "missing" / "agent.sock")
    unixsock.check(deep / "agent.sock")     # reachable once it listens


def test_a_link_in_place_of_the_directory_is_refused(deep, tmp_path):
    link = deep.parent / ("l" * 60)
    link.symlink_to(tmp_path)
    path = link / "agent.sock"
    with socket.socket(socket.AF_UNIX) as s:
        with pytest.raises(unixsock.SocketPathError) as e:
            unixsock.bind(s, path)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"Cannot use the UNIX socket {path}: its "
                              f"path is {len(str(path))} bytes, more than "
                              "the 107 a socket address holds, and its "
                              "directory is a symbolic link")
    assert not (tmp_path / "agent.sock").exists()
    with pytest.raises(unixsock.SocketPathError):
        unixsock.check(path)
    # A site's own path (docker's) may pass through links.
    with _listener(tmp_path / "agent.sock") as server:
        server.listen(1)
        with socket.socket(socket.AF_UNIX) as s:
            unixsock.connect(s, path, nofollow=False)


def test_without_proc_or_with_a_long_last_name_it_says_so(deep, monkeypatch):
    with pytest.raises(unixsock.SocketPathError, match="its last name"):
        unixsock.check(deep / ("n" * 100))
    monkeypatch.setattr(unixsock, "_PROC_FD", b"/nonexistent/fd/")
    with pytest.raises(unixsock.SocketPathError, match="is /proc mounted"):
        unixsock.check(deep / "agent.sock")


def test_the_controller_shows_why_and_launches_no_agent(deep, monkeypatch):
    link = AgentLink("h1", deep, HostConf(name="h1"))
    link.dir.mkdir(parents=True)
    launched = []
    monkeypatch.setattr(agents.daemon, "detach",
                        lambda *a: launched.append(a) or 1)
    monkeypatch.setattr(unixsock, "_PROC_FD", b"/nonexistent/fd/")
    assert not link.try_connect(10.0)
    assert launched == []
    assert link.reason.startswith("Cannot use the UNIX socket ")
    assert link.retry_in(10.0) == agents.UNUSABLE_RETRY


def test_an_agent_that_dies_before_listening_is_reported(tmp_path,
                                                         monkeypatch):
    link = AgentLink("h1", tmp_path, HostConf(name="h1"))
    link.dir.mkdir(parents=True)
    monkeypatch.setattr(agents.daemon, "detach", lambda *a: 1)
    assert not link.try_connect(0.0)        # launched
    assert link.reason is None
    (link.dir / "agent.log").write_text("starting\nxce-agent: it broke\n")
    assert not link.try_connect(agents.LAUNCH_GRACE + 1)    # again
    assert link.reason == ("the agent ended without listening on its "
                           "socket: xce-agent: it broke")
