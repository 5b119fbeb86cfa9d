"""A held start (agent protocol 14) runs only on its go: a controller
killed between the start it sent ahead of its commit and that commit
leaves no job running, and the job runs exactly once after the restart;
a link dropped before the go makes the agent discard the held start, and
its job goes back to PEND and runs once (protocol 15); a link dropped
after the agent read the go leaves the job running, reconciled as any.

The controller is stopped at that point by a sitecustomize module put on
its PYTHONPATH (as bench/profhook does for profiling): it wraps
xce.controller.startgo.send_held and, once the held start is sent, waits
for the agent to prepare it (its wrapper spawned and waiting), notes the
waiting wrappers, then kills the controller with SIGKILL or cuts its
agent links (and, in mode ``dropkill``, kills its agents -9 once they
have journalled the discard, before they can say hello again).  It acts
once: its marker file is removed first.  In mode
``go`` it strikes later instead: after the commit whose messages carried
the go, once the job has begun (the file the test's job appends to is
there), it cuts the links."""

import signal
import subprocess

from tests.lib.xcecluster import BIN, _alive, wait_for

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

    def _noted(pids):
        # written whole, then renamed: the test waits for the name
        with open(_MARKER + ".part", "w") as f:
            f.write(" ".join(pids))
        os.rename(_MARKER + ".part", _MARKER + ".waiting")

    def _cut(ctl):
        for link in ctl.links.values():
            if link.sock is not None:
                link.sock.shutdown(socket.SHUT_RDWR)

    def _kill_agents_once_discarded(ctl):
        # each agent killed -9 once its journal has the discard, before
        # this controller can connect again for its hello
        for host in ctl.links:
            d = os.path.join(str(ctl.cfg.spool), "agents", host)
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    with open(os.path.join(d, "journal")) as f:
                        if '"t":"discard"' in f.read():
                            break
                except OSError:
                    pass
                time.sleep(0.02)
            with open(os.path.join(d, "agent.pid")) as f:
                os.kill(int(f.read()), signal.SIGKILL)

    def send_held(ctl):
        sent = bool(ctl.held_starts)
        _real(ctl)
        if not sent or not os.path.exists(_MARKER):
            return
        if _MODE == "go":       # strike after the go (_after_commit)
            os.rename(_MARKER, _MARKER + ".go")
            return
        os.unlink(_MARKER)
        spool = str(ctl.cfg.spool).encode()
        deadline = time.time() + 30
        while not _waiting_wrappers(spool) and time.time() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)     # long enough for a wrapper not held to run
        _noted(_waiting_wrappers(spool))
        if _MODE == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        _cut(ctl)
        if _MODE == "dropkill":
            _kill_agents_once_discarded(ctl)

    startgo.send_held = send_held

    from xce.controller.main import Controller
    _real_after = Controller._after_commit

    def _after_commit(ctl):
        _real_after(ctl)        # the go goes with this commit's messages
        if not os.path.exists(_MARKER + ".go"):
            return
        os.unlink(_MARKER + ".go")
        ran = os.path.join(os.path.dirname(_MARKER), "ran")
        deadline = time.time() + 30
        while not os.path.exists(ran) and time.time() < deadline:
            time.sleep(0.02)
        _noted([])
        _cut(ctl)

    Controller._after_commit = _after_commit
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
    return not _alive(pid)


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


def _done_logged(kinds):
    """*kinds* once they hold the job's JOB_STATUS to DONE, else None."""
    return kinds if ("JOB_STATUS", 64) in [k[:2] for k in kinds] else None


def _history(cluster, jobid):
    r = cluster.run("bhist", "-l", str(jobid))
    assert r.rc == 0, r
    return r.joined


def _running_again(history):
    """UNKWN with its link, then RUN again (the agent's hello)."""
    cut = history.find("Unknown; unable to reach the execution host;")
    return cut >= 0 and "Running;" in history[cut:]


def _agent_log(cluster):
    return "".join(p.read_text() for p in
                   (cluster.spool / "agents").glob("*/agent.log"))


def _discarded_and_run_once(make_cluster, mode):
    """A job whose held start its agent discarded (the hook in *mode*):
    back to PEND (LSF's start failed), dispatched again, run once.  The
    cluster, the job, the agent's pid before."""
    cluster, marker, ran = _started(make_cluster, mode)
    agent = cluster.agent_pid()
    # Not rerunnable: a start lost with its link would end EXIT
    # (TERM_ZOMBIE); the agent says it discarded this one unrun.
    jobid = cluster.submit(f"echo ran >> {ran}")
    waited = _waited(marker)
    assert waited, "no wrapper was spawned ahead, waiting"
    wait_for(lambda: all(_gone(p) for p in waited),
             what="the held wrapper to be killed")
    assert cluster.wait_stat(jobid, "DONE", "EXIT") == "DONE"
    assert ran.read_text() == "ran\n"
    # Dispatched, back to pending (LSF's start failed), dispatched again.
    history = _history(cluster, jobid)
    failed = history.index(
        "Pending: Failed in talking to server to start the job;")
    assert history.count("Dispatched 1 Task(s)") == 2
    assert history.index("Dispatched 1 Task(s)") < failed < \
        history.rindex("Dispatched 1 Task(s)")
    assert "Exited" not in history and "requeued" not in history
    return cluster, jobid, agent


def test_a_start_discarded_before_the_go_goes_back_to_pend_and_runs_once(
        make_cluster):
    cluster, jobid, _ = _discarded_and_run_once(make_cluster, "drop")
    shown = cluster.run("bjobs", "-a", "-noheader", "-w", str(jobid))
    assert shown.rc == 0 and shown.out.split()[2] == "DONE", shown
    assert "auto_requeues" not in cluster.stored_job(jobid)["spec"]
    # lsb.events follows the commits the store shows: polled up to the
    # job's DONE (JOB_STAT_DONE, 64).
    kinds = wait_for(lambda: _done_logged(
        [(r["type"], r.get("jStatus"), r.get("reason"))
         for r in cluster.lsb_events(job=jobid)]), what="the DONE record")
    assert ("JOB_STATUS", 1, 1603) in kinds         # PEND_JOB_START_FAIL
    assert sum(k[0] == "JOB_START" for k in kinds) == 2
    assert not [k for k in kinds if k[0] == "JOB_REQUEUE" or k[1] == 32]
    assert "held start discarded" in _agent_log(cluster)
    assert cluster.proc.poll() is None


def test_a_start_discarded_by_an_agent_killed_before_its_hello_runs_once(
        make_cluster):
    # The agent discarded it, journalled that, and was killed -9 before
    # any hello could list it; the agent launched again lists it from its
    # journal.
    cluster, jobid, agent = _discarded_and_run_once(make_cluster,
                                                    "dropkill")
    assert agent not in cluster.agent_pids()
    assert cluster.proc.poll() is None


def test_a_link_dropped_after_the_go_leaves_the_job_running(make_cluster):
    cluster, marker, ran = _started(make_cluster, "go")
    release = cluster.root / "release"
    jobid = cluster.submit(
        f"echo ran >> {ran}; while [ ! -e {release} ]; do sleep 0.1; done")
    _waited(marker)     # the links were cut after the job began
    # The agent read the go: nothing was discarded; its hello says the
    # job runs, and the job is reconciled, not sent back.
    wait_for(lambda: _running_again(_history(cluster, jobid)),
             what="the job to be RUN again")
    release.write_text("")
    assert cluster.wait_stat(jobid, "DONE", "EXIT") == "DONE"
    assert ran.read_text() == "ran\n"
    history = _history(cluster, jobid)
    assert history.count("Dispatched 1 Task(s)") == 1
    assert "Failed in talking to server" not in history
    assert "held start discarded" not in _agent_log(cluster)
    assert cluster.proc.poll() is None
