"""One daemon per directory: the instance lock and its pid file."""

import os
import subprocess
import sys

import pytest

from xce import daemon


def test_a_second_instance_is_refused_while_the_first_holds_the_lock(tmp_path):
    first = daemon.Instance(tmp_path / "d.lock", tmp_path / "d.pid")
    first.acquire()
    assert (tmp_path / "d.pid").read_text() == f"{os.getpid()}\n"
    second = daemon.Instance(tmp_path / "d.lock", tmp_path / "d.pid")
    with pytest.raises(daemon.AlreadyRunning) as e:
        second.acquire()
    assert f"pid {os.getpid()}" in str(e.value)
    first.release()
    assert not (tmp_path / "d.pid").exists()
    second.acquire()        # free again once released
    second.release()


def test_another_process_is_refused_until_the_holder_releases(tmp_path):
    lock, pid = tmp_path / "d.lock", tmp_path / "d.pid"
    held = daemon.Instance(lock, pid)
    held.acquire()
    # The lock is the kernel's (flock), so it holds against another
    # process, which may take it once ours is released.
    probe = ("import sys; from xce import daemon; "
             "i = daemon.Instance(sys.argv[1], sys.argv[2]); "
             "i.acquire(); print('got it')")
    busy = subprocess.run([sys.executable, "-c", probe, str(lock),
                           str(tmp_path / "child.pid")],
                          capture_output=True, text=True)
    assert busy.returncode != 0 and "AlreadyRunning" in busy.stderr
    held.release()
    free = subprocess.run([sys.executable, "-c", probe, str(lock),
                           str(tmp_path / "child.pid")],
                          capture_output=True, text=True)
    assert free.returncode == 0 and free.stdout == "got it\n", free.stderr
