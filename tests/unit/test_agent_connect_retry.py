"""How soon the controller reaches its agents: launched before it loads,
tried again soon while they start."""

import os
import subprocess

from pytest import approx

from xce.config.model import HostConf
from xce.controller import agentctl, agents
from xce.controller.agents import AgentLink
from xce.errors import text
from xce.store.writer import Store


def _link(tmp_path, name, launch="local"):
    link = AgentLink(name, tmp_path, HostConf(name=name, launch=launch))
    link.dir.mkdir(parents=True)
    return link


def test_a_launched_agent_is_tried_again_within_its_start_time(tmp_path):
    link = _link(tmp_path, "h1")
    # Its agent is starting (its pid is alive) and was launched just now.
    (link.dir / "agent.pid").write_text(f"{os.getpid()}\n")
    link.launched_at, link.launched_pid = 100.0, os.getpid()
    assert not link.try_connect(100.0)
    assert agents.retry_wait({"h1": link}, set(), 100.0) == \
        approx(agents.LAUNCHED_RETRY)
    # Past its grace, an agent that never listened is tried at the pace
    # of any other.
    later = 100.0 + agents.LAUNCH_GRACE
    assert not link.try_connect(later)
    assert agents.retry_wait({"h1": link}, set(), later) == \
        approx(agents.RETRY)


def test_an_agent_not_launched_here_is_tried_every_retry(tmp_path):
    link = _link(tmp_path, "h2", launch="none")
    assert not link.try_connect(50.0)
    assert agents.retry_wait({"h2": link}, set(), 50.0) == approx(agents.RETRY)
    assert agents.retry_wait({"h2": link}, set(), 50.1) == \
        approx(agents.RETRY - 0.1)


def test_held_and_connected_hosts_are_not_waited_for(tmp_path):
    link = _link(tmp_path, "h3", launch="none")
    assert not link.try_connect(0.0)
    assert agents.retry_wait({"h3": link}, {"h3"}, 0.0) is None
    assert agents.retry_wait({}, set(), 0.0) is None


def test_the_hosts_held_down_are_read_before_the_store_is_opened(tmp_path):
    db = tmp_path / "xce.db"
    assert agentctl.saved_held(db) == set()         # a first start
    store = Store(db)
    store.set_meta(agentctl.META_KEY, '["h1", "h2"]')
    store.commit()
    # While the committed rows are still in the WAL (a controller killed)...
    assert agentctl.saved_held(db) == {"h1", "h2"}
    store.close()
    # ...and once folded into the file by a clean stop.
    assert agentctl.saved_held(db) == {"h1", "h2"}
    db.write_bytes(b"not a database" * 100)
    assert agentctl.saved_held(db) is None           # then: launch later


def test_an_agent_that_ends_in_its_grace_is_said_dead_at_once(
        tmp_path, monkeypatch):
    link = _link(tmp_path, "h4")
    (link.dir / "agent.log").write_text("starting\nOSError: no room\n")
    ended = subprocess.Popen(["true"])
    ended.wait()
    link.launched_at, link.launched_pid = 100.0, ended.pid
    launched = []
    monkeypatch.setattr(agents.daemon, "detach",
                        lambda argv, log: launched.append(argv) or 4242)
    # Half a second in: why it ended is known (bhosts -l, xce start)...
    assert not link.try_connect(100.5)
    assert link.reason == text("AGENT_DIED", why="OSError: no room")
    # ...and it is launched again when its grace is over, not before.
    assert launched == []
    assert link.retry_in(100.5) == approx(agents.LAUNCH_GRACE - 0.5)
    assert not link.try_connect(100.0 + agents.LAUNCH_GRACE)
    assert len(launched) == 1 and link.launched_pid == 4242
    assert link.retry_in(100.0 + agents.LAUNCH_GRACE) == \
        approx(agents.LAUNCHED_RETRY)
