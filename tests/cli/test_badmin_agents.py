"""badmin hrestart / hshutdown / hstartup: the agent stops, starts and
restarts while its jobs keep running and keep their exit statuses."""

import socket

from tests.lib.xcecluster import wait_for

HOST = socket.gethostname()


def _gated_job(cluster, code=0):
    """A running job that ends with CODE once its gate file appears."""
    gate = cluster.root / f"gate.{code}"
    jobid = cluster.submit("-o", "out.%J",
                           f"while [ ! -e {gate} ]; do sleep 0.05; done; "
                           f"exit {code}")
    cluster.wait_stat(jobid, "RUN")
    return jobid, gate


def _bhosts_status(cluster):
    return cluster.run("bhosts", "-w").out.splitlines()[1].split()[1]


def _stats_seen(cluster, jobid, until):
    """Every state the job shows while polling until UNTIL() is true."""
    seen = set()

    def look():
        seen.add(cluster.stat(jobid))
        return until()
    wait_for(look, what="the condition while watching the job")
    return seen


def test_hrestart_restarts_the_agent_and_keeps_its_job_running(cluster):
    jobid, gate = _gated_job(cluster, 3)
    pid = cluster.agent_pid()
    log = cluster.spool / "agents" / HOST / "agent.log"
    before = log.read_text().count("serving on")
    r = cluster.run("badmin", "hrestart", HOST)
    assert (r.rc, r.out, r.err) == (
        0, "", f"Restart slave batch daemon on <{HOST}> ...... done\n")
    # The agent re-executed itself in place and re-adopted the job.
    seen = _stats_seen(cluster, jobid, lambda: log.read_text().count(
        "serving on") > before and _bhosts_status(cluster) == "ok")
    assert cluster.agent_pid() == pid
    assert "re-adopted running pid" in log.read_text()
    assert seen == {"RUN"}
    gate.write_text("")
    cluster.wait_stat(jobid, "EXIT")
    r = cluster.run("bjobs", "-o", "exit_code", "-noheader", str(jobid))
    assert r.out.strip() == "3"


def test_hshutdown_stops_the_agent_until_hstartup(cluster):
    jobid, gate = _gated_job(cluster, 0)
    pid = cluster.agent_pid()
    r = cluster.run("badmin", "hshutdown", HOST)
    assert (r.rc, r.out, r.err) == (
        0, "", f"Shut down slave batch daemon on <{HOST}> ...... done\n")
    wait_for(lambda: cluster.agent_pid() is None, what="the agent to stop")
    wait_for(lambda: _bhosts_status(cluster) == "unreach",
             what="bhosts to show the host unreach")
    cluster.wait_stat(jobid, "UNKWN")
    assert cluster.agent_pid() is None      # not launched again
    # A stopped agent cannot be restarted or stopped again.
    r = cluster.run("badmin", "hrestart", HOST)
    assert (r.rc, r.out, r.err) == (
        255, "", f"Restart slave batch daemon on <{HOST}> ...... Host "
        "control failed: Unable to reach slave batch server\n")
    gate.write_text("")     # the job ends while no agent watches it
    r = cluster.run("badmin", "hstartup", "-f", HOST)
    assert (r.rc, r.out, r.err) == (
        0, "", f"Start up slave batch daemon on <{HOST}> ...... done\n")
    cluster.wait_stat(jobid, "DONE")
    assert cluster.agent_pid() not in (None, pid)
    assert _bhosts_status(cluster) == "ok"


def test_a_shut_down_agent_stays_down_across_a_controller_restart(cluster):
    assert cluster.run("badmin", "hshutdown", HOST).rc == 0
    wait_for(lambda: cluster.agent_pid() is None, what="the agent to stop")
    cluster.kill_controller()
    cluster.start(wait_hosts=False)
    wait_for(lambda: _bhosts_status(cluster) == "unreach",
             what="bhosts to show the host unreach")
    assert cluster.agent_pid() is None
    assert cluster.run("badmin", "hstartup", "-f").rc == 0
    wait_for(lambda: _bhosts_status(cluster) == "ok",
             what="the agent to be back")


def test_all_asks_first_and_no_changes_nothing(cluster):
    pid = cluster.agent_pid()
    r = cluster.run("badmin", "hshutdown", "all", input="n\nn\n")
    assert r.rc == 0 and r.err == ""
    assert r.out == ("\nShut down slave batch daemon on all the hosts? [y/n] "
                     f"\nShut down slave batch daemon on <{HOST}>? [y/n] ")
    r = cluster.run("badmin", "hrestart", "all", input="")
    assert r.rc == 0 and r.err == ""
    assert cluster.agent_pid() == pid and _bhosts_status(cluster) == "ok"
    r = cluster.run("badmin", "hrestart", "all", input="y\n")
    assert r.rc == 0
    assert r.err == f"Restart slave batch daemon on <{HOST}> ...... done\n"


def test_bad_host_names_change_nothing(cluster):
    pid = cluster.agent_pid()
    for op in ("hrestart", "hshutdown", "hstartup"):
        r = cluster.run("badmin", op, "-f", "nosuchhost")
        assert (r.rc, r.out, r.err) == (
            255, "", "nosuchhost: Bad host name, host group name or cluster "
            "name\n")
    r = cluster.run("badmin", "hrestart", "-Z")
    assert r.rc == 255 and "illegal option -- Z" in r.err
    assert cluster.agent_pid() == pid and _bhosts_status(cluster) == "ok"
