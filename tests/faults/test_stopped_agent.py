"""A hung host: its agent stopped with SIGSTOP keeps its socket open and
answers nothing.  The controller's pings find it out: the host goes unavail,
its job UNKWN and, past the grace period, runs again elsewhere; when the
agent answers again, the stale copy is killed and leaves the output of the
new run alone.  Virtual hosts (launch: local) on this machine."""

import contextlib
import os
import signal

from tests.lib.xcecluster import _alive, virtual_names, wait_for

AGENT_TIMEOUT = 3       # seconds; XCE_AGENT_TIMEOUT
GRACE = 4               # seconds; XCE_HOST_LOST_GRACE
JOB = "echo $$ $LSB_HOSTS >> runs; while [ ! -e go ]; do sleep 0.1; done"


def _runs(cluster):
    """(pid, host) of each run of the job, in order."""
    try:
        text = (cluster.root / "runs").read_text()
    except FileNotFoundError:
        return []
    return [tuple(line.split()) for line in text.splitlines()]


def _host_status(cluster, name):
    r = cluster.run("bhosts", "-w", name)
    assert r.rc == 0, r
    return r.out.splitlines()[1].split()[1]


@contextlib.contextmanager
def _requeued_off_a_stopped_host(make_cluster):
    """A rerunnable job whose host's agent is stopped, run again on the
    other host: yields (cluster, jobid, stopped host, stale copy's pid,
    stopped agent's pid); the agent is continued in the end whatever
    happened."""
    cluster = make_cluster(
        virtual_hosts=virtual_names(2), mxj=1,
        extra_params=f"  XCE_AGENT_TIMEOUT: {AGENT_TIMEOUT}\n"
                     f"  XCE_HOST_LOST_GRACE: {GRACE}")
    jobid = cluster.submit("-r", "-o", "out", JOB)
    cluster.wait_stat(jobid, "RUN")
    pid, victim = wait_for(lambda: _runs(cluster), what="the first run")[0]
    agent = int((cluster.spool / "agents" / victim / "agent.pid")
                .read_text())
    os.kill(agent, signal.SIGSTOP)
    try:
        wait_for(lambda: len(_runs(cluster)) == 2, timeout=60,
                 what="the job to run again on the other host")
        yield cluster, jobid, victim, int(pid), agent
    finally:
        os.kill(agent, signal.SIGCONT)


def test_a_stopped_agent_makes_its_host_unavail_its_job_run_elsewhere_and_its_fenced_copy_leave_the_new_output_alone(
        make_cluster):
    # One stop-and-rerun (the timeout and the grace period take 8 s) for
    # both halves: the hung host while stopped, the fenced stale copy
    # once it is continued.
    with _requeued_off_a_stopped_host(make_cluster) as (cluster, jobid,
                                                        victim, stale, _):
        assert _host_status(cluster, victim) == "unavail"
        r = cluster.run("bhosts", "-l", victim)
        assert "the agent did not answer for" in r.out, r
        other = [h for h in virtual_names(2) if h != victim]
        assert _runs(cluster)[1][1] == other[0]
        assert cluster.stat(jobid) == "RUN"
    # The agent of the stopped host is continued: the stale copy is
    # killed and leaves the output of the new run alone.
    wait_for(lambda: not _alive(stale), timeout=30,
             what="the stale copy to be killed")
    wait_for(lambda: _host_status(cluster, victim) == "ok", timeout=30,
             what="the continued agent's host to be ok again")
    (cluster.root / "go").write_text("")
    cluster.wait_stat(jobid, "DONE")
    out = (cluster.root / "out").read_text()
    assert out.count("Sender: LSF System") == 1, out
    assert "Successfully completed." in out
    assert "Exited with exit code" not in out
    assert len(_runs(cluster)) == 2
