"""A command ended by ^C, SIGTERM or SIGHUP once its request is spooled
says that the request stays (exit 3), whenever the signal comes: while it
waits, or between the spooling and the wait."""

import signal
import threading
from types import SimpleNamespace

import pytest

from tests.unit import test_request_durability
from xce.spool import client

ENDING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
spool = test_request_durability.spool     # a spool directory, the fixture


@pytest.fixture
def default_handlers():
    """The handlers of a command: ^C raises KeyboardInterrupt, SIGTERM and
    SIGHUP end the process (a test runner's worker may have others)."""
    old = {s: signal.signal(s, signal.SIG_DFL) for s in ENDING[1:]}
    old[signal.SIGINT] = signal.signal(signal.SIGINT,
                                       signal.default_int_handler)
    yield
    for signum, handler in old.items():
        signal.signal(signum, handler)


@pytest.mark.parametrize("signum", ENDING, ids=lambda s: s.name)
def test_a_signal_just_after_spooling_says_the_request_stays(
        spool, monkeypatch, default_handlers, signum):
    real = client.write_request

    def write_then_signal(*args, **kwargs):
        req_id = real(*args, **kwargs)
        # To this thread (a test runner has others, which do not hold it),
        # before the wait has begun.
        signal.pthread_kill(threading.get_ident(), signum)
        return req_id
    monkeypatch.setattr(client, "write_request", write_then_signal)
    with pytest.raises(client.Spooled) as caught:
        client.call(SimpleNamespace(spool=spool), "ping", {}, timeout=30)
    assert "the command was interrupted" in str(caught.value)
    assert caught.value.exit_code == 3
    assert len(list((spool / "incoming").iterdir())) == 1
    # As they were: the handlers, and no signal left blocked.
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
    assert not set(ENDING) & signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_an_ignored_sighup_stays_ignored(spool, monkeypatch,
                                         default_handlers):
    """nohup bsub ...: SIGHUP does not end it, before or during the wait."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    real = client.write_request

    def write_then_hangup(*args, **kwargs):
        req_id = real(*args, **kwargs)
        signal.pthread_kill(threading.get_ident(), signal.SIGHUP)
        return req_id
    monkeypatch.setattr(client, "write_request", write_then_hangup)
    with pytest.raises(client.Spooled) as caught:
        client.call(SimpleNamespace(spool=spool), "ping", {}, timeout=0.05)
    assert "the controller is not running" in str(caught.value)
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


def test_a_request_not_written_leaves_the_signals_as_they_were(
        spool, monkeypatch, default_handlers):
    def refuse(*args, **kwargs):
        raise client.XceError("refused")
    monkeypatch.setattr(client, "write_request", refuse)
    with pytest.raises(client.XceError, match="refused"):
        client.call(SimpleNamespace(spool=spool), "ping", {})
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    assert not set(ENDING) & signal.pthread_sigmask(signal.SIG_BLOCK, [])
