"""An agent's reports that the controller never read are not lost.

The agent drops its messages while no controller is connected, and a
controller that stops before it reads them loses them too.  What changes
what the controller believes is said again after the next hello: job
states and results from the journal (xce.agent.recovery), host steps when
the controller asks again (tests/cli/test_host_steps_restart.py), and a
running job's -o/-e fallback (here)."""

import signal

from tests.lib.xcecluster import wait_for

MISSING = "/nonexistent-xce-test-dir/out"


def _agent_file(cluster, name):
    """The text of the agent's *name* (agent.log, journal)."""
    [path] = cluster.spool.glob(f"agents/*/{name}")
    return path.read_text()


def test_a_fallback_said_to_a_controller_that_never_read_it_is_said_again(
        cluster, tmp_path):
    gate = tmp_path / "gate"
    jobid = cluster.submit(
        "-o", MISSING, "-E", f"while [ ! -e {gate} ]; do sleep 0.05; done",
        "sleep 300")
    cluster.wait_stat(jobid, "RUN")         # in its pre-exec
    # The controller stops reading; the job starts (past its pre-exec)
    # and its agent says where its output went; then the controller dies.
    cluster.proc.send_signal(signal.SIGSTOP)
    gate.touch()
    wait_for(lambda: f"job ({jobid}, 0, 1): output went to " in
             _agent_file(cluster, "agent.log"), what="the agent to say the fallback")
    cluster.kill_controller()
    said = f"Output file <{MISSING}> could not be opened"
    assert said not in cluster.long(jobid)
    cluster.start()
    wait_for(lambda: said in cluster.long(jobid), timeout=20,
             what="bjobs -l to say where the output went")
    assert cluster.stat(jobid) == "RUN"
    r = cluster.run("bkill", str(jobid))
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "EXIT")
    assert cluster.long(jobid).count(said) == 1


def test_an_exit_and_post_exec_said_to_a_controller_that_never_read_them(
        cluster, tmp_path):
    gate = tmp_path / "gate"
    jobid = cluster.submit("-Ep", "true",
                           f"while [ ! -e {gate} ]; do sleep 0.05; done; "
                           f"exit 3")
    cluster.wait_stat(jobid, "RUN")
    cluster.proc.send_signal(signal.SIGSTOP)
    gate.touch()
    wait_for(lambda: '"post_state":"POST_DONE"' in
             _agent_file(cluster, "journal"),
             what="the job's exit and post-exec to be journalled")
    cluster.kill_controller()
    assert cluster.stat(jobid) == "RUN"
    cluster.start()
    cluster.wait_stat(jobid, "EXIT")
    job = cluster.stored_job(jobid)
    assert (job["exit_code"], job["spec"].get("post")) == (3, "POST_DONE")
