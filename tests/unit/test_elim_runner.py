"""The agent's elim runner: real elim scripts, an injected clock.

Good values are kept with their types; undefined names, garbage and
over-long lines are logged and ignored; a crashed elim's values go unknown
and it is restarted no sooner than LSF's 90 seconds; ELIM_ABORT_VALUE
stops it for good; a flooding one is killed; a hanging one blocks nothing.
"""

import logging
import os
import selectors
import time

import pytest

from xce.agent import elim

DEFS = {"myres": {"type": "Numeric", "interval": 5, "dynamic": True},
        "fast": {"type": "Boolean", "interval": 5, "dynamic": True},
        "os": {"type": "String", "interval": 5, "dynamic": True}}


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.fixture
def runner(tmp_path):
    sel = selectors.DefaultSelector()
    clock = Clock()
    r = elim.ElimRunner(sel, "hostA", now=clock)
    r.clock = clock
    r.serverdir_path = tmp_path
    yield r
    r.stop()
    sel.close()


def _elim(path, name, body):
    p = path / name
    p.write_text("#!/bin/sh\n" + body)
    p.chmod(0o755)
    return p


def _turns(r, until, timeout=10.0):
    """Run the runner's turns until until() holds; reap its children."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r.run_timers()
        for key, _ in r.sel.select(0.05):
            r.readable(key.fd)
        for pid in list(r.by_pid):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                r.exited(pid, status)
        if until():
            return
    raise AssertionError("condition not reached")


def _configure(r):
    r.configure({"serverdir": str(r.serverdir_path), "resources": DEFS,
                 "master": True})


def test_values_are_kept_with_their_types_and_undefined_names_logged(
        runner, caplog):
    _elim(runner.serverdir_path, "elim.site",
          'echo "4 myres 7.5 fast 1 os rhel8 nosuch 3"\nexec sleep 60\n')
    caplog.set_level(logging.INFO, "xce.agent")
    _configure(runner)
    _turns(runner, lambda: runner.values() == {
        "myres": 7.5, "fast": True, "os": "rhel8"})
    assert "reports resource nosuch, which is not defined" in caplog.text


def test_the_elim_environment_is_lsfs(runner):
    out = runner.serverdir_path / "env.out"
    _elim(runner.serverdir_path, "elim.env",
          f'env > {out}\necho "1 myres 1"\nexec sleep 60\n')
    _configure(runner)
    _turns(runner, lambda: runner.values().get("myres") == 1.0)
    env = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert env["LSF_MASTER"] == "Y"
    assert env["LSF_RESOURCES"] == "fast myres os"
    assert env["ELIM_ABORT_VALUE"] == "97"
    assert env["LSF_SERVERDIR"] == str(runner.serverdir_path)
    assert env["XCE_HOST"] == "hostA"


def test_garbage_is_logged_and_values_go_stale(runner, caplog):
    _elim(runner.serverdir_path, "elim.bad",
          'echo "1 myres 3"\necho "two myres"\necho "1 myres abc"\n'
          'exec sleep 60\n')
    _configure(runner)
    _turns(runner, lambda: "not a load update string" in caplog.text)
    assert runner.values() == {"myres": 3.0}
    runner.clock.t += elim.STALE_MIN + 1
    assert runner.values() == {}


def test_a_crashed_elim_goes_unknown_and_restarts_after_90_seconds(
        runner, caplog):
    count = runner.serverdir_path / "starts"
    _elim(runner.serverdir_path, "elim.crash",
          f'echo x >> {count}\necho "1 myres 2"\nsleep 0.3\nexit 3\n')
    _configure(runner)
    _turns(runner, lambda: "ended (exit code 3)" in caplog.text)
    assert runner.values() == {}
    assert runner.next_deadline() == pytest.approx(
        runner.clock.t + elim.RESTART_EVERY)
    runner.clock.t += 30
    runner.run_timers()
    assert len(count.read_text().split()) == 1      # not yet
    runner.clock.t += 61
    _turns(runner, lambda: len(count.read_text().split()) == 2)


def test_elim_abort_value_is_not_restarted(runner, caplog):
    caplog.set_level(logging.INFO, "xce.agent")
    _elim(runner.serverdir_path, "elim.notmine", "exit 97\n")
    _configure(runner)
    _turns(runner, lambda: "ELIM_ABORT_VALUE" in caplog.text)
    runner.clock.t += 1000
    runner.run_timers()
    assert runner.by_pid == {} and runner.next_deadline() is None


def test_a_flooding_elim_is_killed_and_an_overlong_line_dropped(
        runner, caplog):
    _elim(runner.serverdir_path, "elim.flood", "exec yes 1 myres 5\n")
    _configure(runner)
    _turns(runner, lambda: "killed: it wrote more than" in caplog.text)
    assert "longer than" not in caplog.text


def test_an_overlong_line_is_garbage(runner, caplog):
    _elim(runner.serverdir_path, "elim.long",
          "head -c 70000 /dev/zero | tr '\\0' x\necho\n"
          'echo "1 myres 4"\nexec sleep 60\n')
    _configure(runner)
    _turns(runner, lambda: runner.values() == {"myres": 4.0})
    assert "a line longer than" in caplog.text


def test_a_hanging_partial_line_is_dropped_after_the_blocktime(
        runner, caplog):
    _elim(runner.serverdir_path, "elim.hang",
          'printf "1 myres"\nexec sleep 60\n')
    _configure(runner)
    _turns(runner, lambda: runner.by_fd and
           next(iter(runner.by_fd.values())).partial_since is not None)
    runner.clock.t += elim.BLOCKTIME
    runner.run_timers()
    assert "no complete load update string" in caplog.text
    assert runner.values() == {}


def test_files_that_are_not_elims_are_not_run(runner):
    _elim(runner.serverdir_path, "eexec", "exit 0\n")
    _elim(runner.serverdir_path, "elimx", "exit 0\n")
    (runner.serverdir_path / "elim.noexec").write_text("#!/bin/sh\n")
    _configure(runner)
    assert runner.elims == {}


def test_an_overlong_line_read_whole_is_garbage_too(runner, caplog):
    """However the pipe cuts it: a line that arrives complete in one read
    is refused as too long, not parsed."""
    e = elim._Elim("elim.x")
    runner.defs = DEFS
    runner._feed(e, b"1 myres " + b"9" * elim.MAX_LINE + b"\n", 1.0)
    assert "a line longer than" in caplog.text and e.values == {}


def test_blocktime_set_restarts_and_restarts_are_limited(runner, caplog):
    """LSF_ELIM_BLOCKTIME set: an elim stuck in a line is killed and
    restarted; LSF_ELIM_RESTARTS=1: after one restart it stays down."""
    _elim(runner.serverdir_path, "elim.stuck",
          'printf "1 myres"\nexec sleep 60\n')
    runner.configure({"serverdir": str(runner.serverdir_path),
                      "resources": DEFS, "blocktime": 2, "restarts": 1})
    for starts in (1, 2):
        _turns(runner, lambda: runner.by_fd and next(
            iter(runner.by_fd.values())).partial_since is not None)
        runner.clock.t += 2
        runner.run_timers()
        assert "killed: LSF_ELIM_BLOCKTIME or LSF_ELIM_DEBUG is set" \
            in caplog.text
        _turns(runner, lambda: not runner.by_pid)
        runner.clock.t += elim.RESTART_EVERY
    runner.run_timers()
    assert "not restarted: it was restarted LSF_ELIM_RESTARTS=1 times" \
        in caplog.text
    assert runner.next_deadline() is None


def test_debug_logs_every_string(runner, caplog):
    caplog.set_level(logging.INFO, "xce.agent")
    _elim(runner.serverdir_path, "elim.site",
          'echo "1 myres 5"\nexec sleep 60\n')
    runner.configure({"serverdir": str(runner.serverdir_path),
                      "resources": DEFS, "debug": True})
    _turns(runner, lambda: runner.values() == {"myres": 5.0})
    assert "elim elim.site: 1 myres 5" in caplog.text


def test_elimargs_reach_every_elim(runner):
    out = runner.serverdir_path / "args.out"
    _elim(runner.serverdir_path, "elim.args",
          f'echo "$@" > {out}\necho "1 myres 1"\nexec sleep 60\n')
    runner.configure({"serverdir": str(runner.serverdir_path),
                      "resources": DEFS, "args": ["-v", "two words"]})
    _turns(runner, lambda: runner.values() == {"myres": 1.0})
    assert out.read_text() == "-v two words\n"


def test_an_elim_others_may_change_is_not_run(runner, caplog):
    """It would run as the agent's user (root): a group- or world-
    writable elim, or one in such a directory, is refused and logged."""
    loose = _elim(runner.serverdir_path, "elim.loose", "exit 0\n")
    loose.chmod(0o777)
    _elim(runner.serverdir_path, "elim.tight", "exec sleep 60\n")
    _configure(runner)
    assert [e.name for e in runner.elims.values()] == ["elim.tight"]
    assert "elim.loose not run: it may be changed" in caplog.text
    runner.stop()
    runner.serverdir_path.chmod(0o777)
    try:
        runner.configure({"serverdir": str(runner.serverdir_path) + "/",
                          "resources": DEFS})
        assert runner.elims == {}
        assert "not run: its directory may be changed" in caplog.text
    finally:
        runner.serverdir_path.chmod(0o755)


def test_elims_an_earlier_agent_left_running_are_ended(tmp_path):
    """An agent killed without stopping its elims: the next one ends
    them (by pid and start time) before starting its own."""
    serverdir = tmp_path / "sd"
    serverdir.mkdir()
    _elim(serverdir, "elim.site", "exec sleep 60\n")
    pidfile = str(tmp_path / "elims.pids")
    first = elim.ElimRunner(selectors.DefaultSelector(), "hostA",
                            pidfile=pidfile)
    first.configure({"serverdir": str(serverdir), "resources": DEFS})
    first.run_timers()
    (left,) = first.by_pid
    # The first agent dies here, without stop().
    second = elim.ElimRunner(selectors.DefaultSelector(), "hostA",
                             pidfile=pidfile)
    second.kill_leftovers()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and os.waitpid(left, os.WNOHANG) == (
            0, 0):
        time.sleep(0.02)
    with pytest.raises(ChildProcessError):
        os.waitpid(left, os.WNOHANG)        # ended, and reaped above
    assert open(pidfile).read() == ""


def test_a_changed_value_asks_for_a_report_within_its_interval(runner):
    _elim(runner.serverdir_path, "elim.site",
          'echo "1 myres 1"\nwhile :; do read x; echo "1 myres $x"; done\n')
    _configure(runner)
    _turns(runner, lambda: runner.values() == {"myres": 1.0})
    runner.names_changed = False
    assert runner.changed_within is None
    e = next(iter(runner.elims.values()))
    runner._line(e, "1 myres 1", runner.clock.t)      # the same value
    assert runner.changed_within is None
    runner._line(e, "1 myres 2", runner.clock.t)
    assert runner.changed_within == 5     # myres's INTERVAL
    assert not runner.names_changed


def test_builtin_indices_are_overrides_not_site_values(runner, caplog):
    _elim(runner.serverdir_path, "elim.load",
          'echo "5 r1m 3.5 ut 0.8 pg 40 it 0 myres 2"\nexec sleep 60\n')
    caplog.set_level(logging.INFO, "xce.agent")
    _configure(runner)
    _turns(runner, lambda: runner.overrides() == {
        "r1m": 3.5, "ut": 0.8, "pg": 40.0, "it": 0.0})
    assert runner.values() == {"myres": 2.0}
    assert runner.names_changed
    assert "elim elim.load overrides the built-in load index pg" in \
        caplog.text
    # LIM's update interval: 15 s for pg, 30 s for it; three of them
    # unrefreshed (and at least STALE_MIN) and the agent measures again.
    runner.clock.t += elim.STALE_MIN + 1
    assert runner.overrides() == {"it": 0.0}
    runner.clock.t += 45
    assert runner.overrides() == {}


def test_the_builtin_indices_are_lsfs_load_indices():
    from xce.config.load import LOAD_INDICES
    from xce.model import resources
    assert tuple(elim.BUILTIN_INTERVALS) == LOAD_INDICES == \
        resources.LOAD_INDICES


@pytest.mark.parametrize("raw, why", [
    ("abc", "'abc' is not a number"), ("nan", "'nan' is not a number"),
    ("-2", "'-2' is negative"), ("inf", "'inf' is not a number")])
def test_a_bad_builtin_value_is_logged_and_the_hosts_own_is_used(
        runner, caplog, raw, why):
    _elim(runner.serverdir_path, "elim.load",
          'echo "2 r1m 3 pg 9"\nwhile :; do read x; echo "$x"; done\n')
    _configure(runner)
    _turns(runner, lambda: runner.overrides() == {"r1m": 3.0, "pg": 9.0})
    e = next(iter(runner.elims.values()))
    runner.names_changed = False
    runner._line(e, f"2 r1m {raw} pg 10", runner.clock.t)
    # The bad value drops the override at once; the good one is kept.
    assert runner.overrides() == {"pg": 10.0}
    assert runner.names_changed
    assert f"elim elim.load: built-in load index r1m: {why}; ignored, " \
        "the host's own r1m is used" in caplog.text


def test_ut_above_one_and_aliases_are_refused(runner, caplog):
    _elim(runner.serverdir_path, "elim.load",
          'echo "4 ut 85 cpu 2 swap 100 swp 100"\nexec sleep 60\n')
    _configure(runner)
    _turns(runner, lambda: "swap, an alias" in caplog.text)
    assert runner.overrides() == {"swp": 100.0}
    assert runner.values() == {}
    assert "built-in load index ut: '85' is above 1 (ut is a fraction of " \
        "the CPU time, 0 to 1)" in caplog.text
    assert "reports cpu, an alias of the built-in load index r1m: an elim " \
        "overrides an index by its formal name only; ignored" in caplog.text


def test_an_unknown_builtin_value_gives_the_index_back(runner):
    _elim(runner.serverdir_path, "elim.load",
          'echo "1 mem 512"\nwhile :; do read x; echo "$x"; done\n')
    _configure(runner)
    _turns(runner, lambda: runner.overrides() == {"mem": 512.0})
    e = next(iter(runner.elims.values()))
    runner.names_changed = False
    runner._line(e, "1 mem -", runner.clock.t)
    assert runner.overrides() == {} and runner.names_changed
    runner._line(e, "1 mem 600", runner.clock.t)
    runner.changed_within = None
    runner._line(e, "1 mem 700", runner.clock.t)
    assert runner.changed_within == 15      # LIM updates mem every 15 s


def test_an_ended_elims_overrides_go_with_it(runner):
    _elim(runner.serverdir_path, "elim.load", 'echo "1 tmp 20"\nsleep 1\n')
    _configure(runner)
    _turns(runner, lambda: runner.overrides() == {"tmp": 20.0})
    _turns(runner, lambda: not runner.by_pid)
    assert runner.overrides() == {}
