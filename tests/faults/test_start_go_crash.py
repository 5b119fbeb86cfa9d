"""A held start (agent protocol 14) runs only on its go: a controller
killed between the start it sent ahead of its commit and that commit
leaves no job running, and the job runs exactly once after the restart;
a link dropped before the go makes the agent discard the held start.

The controller is stopped at that point by a sitecustomize module put on
its PYTHONPATH (as bench/profhook does for profiling): it wraps
xce.controller.startgo.send_held and, once the held start is sent, waits
for the agent to prepare it (its wrapper spawned and waiting), notes the
waiting wrappers, then kills the controller with SIGKILL or cuts its
agent links.  It acts once: its marker file is removed first."""

import signal
import subprocess

from tests.lib.xcecluster import BIN, wait_for

HOOK = r'''
import os, sys
_SPEC = os.environ.get("XCE_TEST_START_FAULT")
if _SPEC and "xce-controller" in " ".join(getattr(sys, "orig_argv", [])):
    _MODE, _MARKER = _SPEC.split(":", 1)
    import signal, socket, time
    from xce.controller import startgo
    _real = startgo.send_held

    def _waiting_wrappers(spool):
        pids = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            # this cluster's job wrappers (their files are in its spool)
            if b"xce-job" in argv and any(spool in a for a in argv):
                pids.append(pid)
        return pids

    def send_held(ctl):
        sent = bool(ctl.held_starts)
        _real(ctl)
        if not sent or not os.path.exists(_MARKER):
            return
        os.unlink(_MARKER)
        spool = str(ctl.cfg.spool).encode()
        deadline = time.time() + 5
        while not _waiting_wrappers(spool) and time.time() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)     # long enough for a wrapper not held to run
        # written whole, then renamed: the test waits for the name
        with open(_MARKER + ".part", "w") as f:
            f.write(" ".join(_waiting_wrappers(spool)))
        os.rename(_MARKER + ".part", _MARKER + ".waiting")
        if _MODE == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        for link in ctl.links.values():
            if link.sock is not None:
                link.sock.shutdown(socket.SHUT_RDWR)

    startgo.send_held = send_held
'''


def _started(make_cluster, mode):
    """A cluster whose controller strikes (*mode*) at its first held
    start; its marker file; the file the test's job appends to."""
    cluster = make_cluster(start=False)
    marker = _armed(cluster, mode)
    cluster.start()
    return cluster, marker, cluster.root / "ran"


def _armed(cluster, mode):
    hook = cluster.root / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    marker = cluster.root / "armed"
    marker.write_text("")
    path = cluster.env.get("PYTHONPATH")
    cluster.env["PYTHONPATH"] = str(hook) + (f":{path}" if path else "")
    cluster.env["XCE_TEST_START_FAULT"] = f"{mode}:{marker}"
    return marker


def _waited(marker):
    """The pids of the wrappers that waited when the hook struck (the
    hook renames its file into place once written: an empty file read
    while it was being written made this [] under load)."""
    path = marker.parent / (marker.name + ".waiting")
    wait_for(path.exists, what="the hook to strike")
    return [int(p) for p in path.read_text().split()]


def _gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1].startswith("Z")
    except OSError:
        return True


def test_controller_killed_before_the_commit_leaves_no_job_run(
        make_cluster):
    cluster, marker, ran = _started(make_cluster, "kill")
    bsub = subprocess.Popen(
        [str(BIN / "bsub"), f"echo ran >> {ran}"], cwd=cluster.root,
        env=cluster.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        waited = _waited(marker)
        assert waited, "no wrapper was spawned ahead, waiting"
        cluster.proc.wait(timeout=20)
        assert cluster.proc.returncode == -signal.SIGKILL
        # The agent saw its controller go: the waiting wrapper is killed,
        # and the job never ran.
        wait_for(lambda: all(_gone(p) for p in waited),
                 what="the held wrapper to be killed")
        assert not ran.exists()
        cluster.start()
        out, err = bsub.communicate(timeout=60)
    finally:
        if bsub.poll() is None:
            bsub.kill()
    assert bsub.returncode == 0, err
    jobid = int(out.split("<", 1)[1].split(">", 1)[0])
    assert cluster.wait_stat(jobid, "DONE", "EXIT") == "DONE"
    assert ran.read_text() == "ran\n"
    agent_log = (cluster.spool / "agents").glob("*/agent.log")
    assert any("held start discarded" in p.read_text() for p in agent_log)


def test_a_link_dropped_before_the_go_discards_the_held_start(
        make_cluster):
    cluster, marker, ran = _started(make_cluster, "drop")
    # The START is committed and the agent, back, does not have the job:
    # as for any start lost with its link, a job that may run again (-r)
    # is requeued, any other ends EXIT (TERM_ZOMBIE).
    jobid = cluster.submit("-r", f"echo ran >> {ran}")
    waited = _waited(marker)
    assert waited, "no wrapper was spawned ahead, waiting"
    wait_for(lambda: all(_gone(p) for p in waited),
             what="the held wrapper to be killed")
    assert cluster.wait_stat(jobid, "DONE", "EXIT") == "DONE"
    assert ran.read_text() == "ran\n"
    log = "".join(p.read_text() for p in
                  (cluster.spool / "agents").glob("*/agent.log"))
    assert "held start discarded" in log
    assert cluster.proc.poll() is None
