"""The controller's pings of an agent and their deadline (pure)."""

from types import SimpleNamespace

from xce.config.model import HostConf
from xce.controller import heartbeat
from xce.controller.heartbeat import PING, SILENT, Heartbeat


def test_pings_every_third_of_the_deadline_and_gives_up_after_it():
    beat = Heartbeat(0.0)
    assert beat.check(1.0, 9.0, spoke=False) is None
    assert beat.check(3.0, 9.0, spoke=False) == PING
    assert beat.check(6.0, 9.0, spoke=False) == PING
    assert beat.check(12.0, 9.0, spoke=False) == PING
    assert beat.check(12.5, 9.0, spoke=False) == SILENT
    assert beat.silence(12.5) == 9.5


def test_an_answer_restarts_the_clock():
    beat = Heartbeat(0.0)
    assert beat.check(3.0, 9.0, spoke=False) == PING
    beat.heard()
    assert beat.check(11.0, 9.0, spoke=False) == PING
    assert beat.check(19.0, 9.0, spoke=False) == PING     # 8 s: not yet
    assert beat.check(20.5, 9.0, spoke=False) == SILENT


def test_unread_bytes_count_as_an_answer_for_a_busy_controller():
    beat = Heartbeat(0.0)
    assert beat.check(3.0, 9.0, spoke=False) == PING
    assert beat.check(60.0, 9.0, spoke=True) == PING


def test_the_deadline_is_the_parameter_else_three_ssh_timeouts():
    host = HostConf(name="h", ssh_timeout=5.0)
    assert heartbeat.timeout({}, host) == 15.0
    assert heartbeat.timeout({"XCE_AGENT_TIMEOUT": "4"}, host) == 4.0
    assert heartbeat.timeout({"XCE_AGENT_TIMEOUT": "-"}, host) == 15.0


def test_keep_alive_queues_pings_and_keeps_the_reason_of_a_silent_agent():
    link = SimpleNamespace(beat=Heartbeat(0.0), agent_timeout=3.0, out=[],
                           reason=None, host="h1")
    assert heartbeat.keep_alive(link, 1.0, False) is True
    assert link.out == [{"op": "ping"}]
    assert heartbeat.keep_alive(link, 4.5, False) is False
    assert link.reason == "the agent did not answer for 4 s"
