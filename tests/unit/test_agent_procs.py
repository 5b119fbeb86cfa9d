"""The agent trusts a job's .pid file (written as the job's user) only for
a session leader whose parent is the agent's own GNU time process."""

import os
import signal

from xce.agent import procs


def test_a_session_leader_counts_only_under_its_own_parent():
    pid = os.posix_spawn("/bin/sleep", ["sleep", "30"], dict(os.environ),
                         setsid=True)
    try:
        assert procs.leads_session_under(pid, os.getpid())
        assert not procs.leads_session_under(pid, os.getpid() + 1)
        # Not a session leader (this very process), or no process at all.
        assert not procs.leads_session_under(os.getpid(), os.getppid())
        assert not procs.leads_session_under(999999999, os.getpid())
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def test_small_numbers_are_read_without_following_a_link(tmp_path):
    (tmp_path / "real").write_text("42\n")
    os.symlink(tmp_path / "real", tmp_path / "link")
    assert procs.read_small_int(str(tmp_path / "real")) == 42
    assert procs.read_small_int(str(tmp_path / "link")) is None
    assert procs.read_small_int(str(tmp_path / "none")) is None
    assert procs.read_peak_file(str(tmp_path / "none")) == 0


def test_a_fifo_where_a_number_is_read_neither_blocks_nor_counts(tmp_path):
    """The job's user owns the directory of the job's files: a FIFO under
    the exit status name must not hang the agent that reads it."""
    os.mkfifo(tmp_path / "status")
    assert procs.read_small_int(str(tmp_path / "status")) is None
    writer = os.open(tmp_path / "status", os.O_RDWR)     # one with data
    try:
        os.write(writer, b"7\n")
        assert procs.read_small_int(str(tmp_path / "status")) is None
    finally:
        os.close(writer)
