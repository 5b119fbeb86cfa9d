"""xce start's wait for the hosts, on made-up store rows and a made-up
clock: a host the controller cannot use is named, with its reason, as
soon as the store has the reason; one that neither answers nor fails is
waited for READY_TIMEOUT seconds at most."""

from xce.cli import xce as xcecli

REFUSED = "[Errno 111] Connection refused"


def _host(name, status, reason=None, held=False):
    return {"name": name, "status": status, "mxj": 2,
            "conf": {"reason": reason}, "held": held}


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def pause(self, seconds):
        self.now += seconds


def _wait(rows, clock=None):
    """Run the wait over ROWS (one list of host rows per look, the last
    repeated); the number of looks it took."""
    clock = clock or _Clock()
    looks = []

    def read():
        looks.append(clock.now)
        return rows[min(len(looks), len(rows)) - 1]
    xcecli._wait_hosts(None, read=read, clock=clock, pause=clock.pause)
    return len(looks)


def test_a_hosts_reason_is_printed_once_and_ends_its_wait(capsys):
    looks = _wait([[_host("a", "unavail"), _host("b", "unavail")],
                   [_host("a", "ok"), _host("b", "unavail", REFUSED)]])
    out, err = capsys.readouterr()
    assert looks == 2
    assert out == "host a: ok, 2 slots\n"
    assert err == f"host b: unavail: {REFUSED}\n"


def test_the_reason_is_printed_while_other_hosts_still_start(capsys):
    seen = []
    failing = _host("b", "unavail", REFUSED)
    rows = [[_host("a", "unavail"), failing]] * 3 + [[_host("a", "ok"),
                                                      failing]]
    clock = _Clock()
    looks = []

    def read():
        # What was printed before this look.
        seen.append(capsys.readouterr().err)
        looks.append(1)
        return rows[min(len(looks), len(rows)) - 1]
    xcecli._wait_hosts(None, read=read, clock=clock, pause=clock.pause)
    out, err = capsys.readouterr()
    assert seen == ["", f"host b: unavail: {REFUSED}\n", "", ""]
    assert out == "host a: ok, 2 slots\n" and err == ""


def test_a_host_that_never_answers_is_waited_for_a_bounded_time(capsys):
    clock = _Clock()
    looks = _wait([[_host("a", "ok"), _host("b", "unavail")]], clock)
    out, err = capsys.readouterr()
    assert xcecli.READY_TIMEOUT < clock.now < xcecli.READY_TIMEOUT + 1
    assert looks > 100
    assert out == "host a: ok, 2 slots\n"
    assert err == "warning: not every host is up yet; see bhosts\n"


def test_an_unreach_host_with_its_reason_is_named(capsys):
    # sshd answered, the agent did not start (a bad python path).
    why = "bash: /no/python: No such file or directory"
    _wait([[_host("a", "unreach", why)]])
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"host a: unreach: {why}\n")


def test_an_attached_host_is_waited_for_until_its_agent_talks(capsys):
    # sshd answered (unreach), the agent has not said hello yet.
    assert _wait([[_host("a", "unreach")]] * 3 + [[_host("a", "ok")]]) == 4
    assert capsys.readouterr() == ("host a: ok, 2 slots\n", "")


def test_a_held_host_does_not_hold_start_up(capsys):
    # badmin hshutdown: unreach, and nothing failed.
    assert _wait([[_host("a", "unreach", held=True)]]) == 1
    assert capsys.readouterr() == ("host a: unreach, 2 slots\n", "")


def test_no_host_row_yet_is_waited_for(capsys):
    clock = _Clock()
    _wait([[]], clock)
    assert clock.now > xcecli.READY_TIMEOUT
    assert capsys.readouterr().err == \
        "warning: not every host is up yet; see bhosts\n"


def test_a_controller_that_exits_ends_the_wait_with_an_error(tmp_path,
                                                              capsys):
    import pytest
    from types import SimpleNamespace
    from xce.errors import XceError
    clock = _Clock()
    looks = []

    def read():
        looks.append(clock.now)
        return [_host("a", "ok"), _host("b", "unavail")]
    with pytest.raises(XceError) as e:
        xcecli._wait_hosts(SimpleNamespace(spool=tmp_path), pid=4321,
                           read=read, clock=clock, pause=clock.pause,
                           alive=lambda pid: len(looks) < 3)
    assert len(looks) == 3 and clock.now < xcecli.READY_TIMEOUT
    assert str(e.value).startswith(
        "xce-controller (pid 4321) exited during start-up; see ")
    assert capsys.readouterr().out == ""
