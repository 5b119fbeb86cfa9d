"""The newcomer's path: xce start on the shipped configuration, a job, xce stop."""

import re
import shutil
import socket
import sqlite3

from tests.lib.xcecluster import (BIN, Cluster, add_refused_ssh_host,
                                  wait_for)

REPO_ETC = BIN.parent.parent / "etc"


def test_start_submit_stop_with_the_shipped_configuration(tmp_path):
    c = Cluster(tmp_path)       # for its commands; its daemons stay down
    envdir = c.envdir
    shutil.copy(REPO_ETC / "xce.yaml", envdir / "xce.yaml")
    try:
        r = c.run("xce", "start", "--envdir", str(envdir))
        assert r.rc == 0, r
        assert r.out.startswith("xce-controller started (pid ")
        assert ": ok, " in r.out
        r = c.run("bsub", "-o", "out.%J", "echo", "hello")
        assert r.rc == 0
        assert r.out.endswith("> is submitted to default queue <normal>.\n")
        jobid = int(r.out.split("<")[1].split(">")[0])
        c.wait_stat(jobid, "DONE")
        assert (tmp_path / f"out.{jobid}").read_text().startswith("hello\n")
        r = c.run("xce", "status", "--envdir", str(envdir))
        assert r.rc == 0 and r.out.startswith("xce-controller: running")
        r = c.run("xce", "start", "--envdir", str(envdir))
        assert r.out.startswith("xce-controller is already running")
    finally:
        r = c.run("xce", "stop", "--envdir", str(envdir))
        c.stop()
    assert r.rc == 0 and "xce-controller" in r.out and "stopped" in r.out
    r = c.run("xce", "status", "--envdir", str(envdir))
    assert r.rc == 1 and r.out.startswith("xce-controller: stopped")
    r = c.run("bjobs", "-a")
    assert r.rc == 0 and "DONE" in r.out


def test_finished_jobs_leave_bjobs_a_after_the_clean_period(make_cluster):
    cluster = make_cluster(extra_params="  CLEAN_PERIOD: 2")
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    wait_for(lambda: cluster.run("bjobs", "-a").err == "No job found\n",
             what="the job to age out of bjobs -a")
    # By id it is known until the controller forgets it, at its next look
    # (within a CLEAN_PERIOD): then "is not found", as xce.yaml(5) says.
    wait_for(lambda: cluster.run("bjobs", str(jobid)).err ==
             f"Job <{jobid}> is not found\n", what="bjobs to forget the job")


def test_xce_start_says_so_when_the_controller_dies_at_start_up(tmp_path):
    c = Cluster(tmp_path)
    store = c.spool / "store"
    store.mkdir(parents=True)
    # A store written by a newer xce: the controller refuses it and exits.
    db = sqlite3.connect(store / "xce.db")
    db.execute("PRAGMA user_version=999")
    db.close()
    try:
        r = c.run("xce", "start", "--envdir", str(c.envdir))
    finally:
        c.stop()
    assert r.rc == 255, r
    first, *tail = r.err.splitlines()
    assert re.fullmatch(r"xce-controller (\(pid \d+\) exited during "
                        r"start-up|did not start); the end of .*"
                        r"controller\.log:", first), r.err
    assert any("store schema 999 is newer than this xce" in line
               for line in tail), r.err
    r = c.run("xce", "status", "--envdir", str(c.envdir))
    assert r.rc == 1


def test_xce_start_says_at_once_why_a_hosts_agent_cannot_start(tmp_path):
    # deadhost's agent is started over SSH, and its sshd refuses.
    c = Cluster(tmp_path, mxj=2)
    add_refused_ssh_host(c, "deadhost")
    try:
        r = c.run("xce", "start", "--envdir", str(c.envdir))
        status = c.run("xce", "status", "--envdir", str(c.envdir))
        bhosts = c.run("bhosts", "-l", "deadhost")
    finally:
        c.run("xce", "stop", "--envdir", str(c.envdir))
        c.stop()
    # The controller runs (exit 0); the host that works is listed, the
    # one that does not is named with the controller's reason, and no
    # "not up yet" warning: nothing was left to wait for.
    assert r.rc == 0, r
    assert f"host {socket.gethostname()}: ok, 2 slots\n" in r.out, r
    assert r.err == "host deadhost: unavail: [Errno 111] Connection " \
        "refused\n", r
    assert status.rc == 0 and status.out.startswith("xce-controller: running")
    assert "LINK FAILURE: [Errno 111] Connection refused" in bhosts.out, \
        bhosts


def test_xce_start_says_why_the_local_agent_ended_at_start_up(tmp_path):
    # The agent's lock file is a directory: the agent cannot take it and
    # ends at once, saying why in its log.
    c = Cluster(tmp_path, mxj=2)
    host = socket.gethostname()
    (c.spool / "agents" / host / "agent.lock").mkdir(parents=True)
    try:
        r = c.run("xce", "start", "--envdir", str(c.envdir))
        status = c.run("xce", "status", "--envdir", str(c.envdir))
    finally:
        c.run("xce", "stop", "--envdir", str(c.envdir))
        c.stop()
    assert r.rc == 0, r
    line, = r.err.splitlines()
    assert line.startswith(f"host {host}: unavail: the agent ended without "
                           "listening on its socket: "), r
    assert "agent.lock" in line, r
    assert status.rc == 0 and status.out.startswith("xce-controller: running")


def test_xce_start_stops_waiting_for_hosts_when_the_controller_dies(
        tmp_path):
    # hungssh's sshd accepts the connection and never says anything, so
    # xce start waits for that host; the controller is killed meanwhile.
    import os
    import signal
    import subprocess
    from xce import daemon
    c = Cluster(tmp_path, mxj=2)
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(4)
    add_refused_ssh_host(c, "hungssh")
    yaml = c.envdir / "xce.yaml"
    port = hung.getsockname()[1]
    text = re.sub(r"(  hungssh:\n(?:    .*\n)*?    port: )\d+",
                  rf"\g<1>{port}\n    ssh_timeout: 120", yaml.read_text())
    yaml.write_text(text)
    start = subprocess.Popen([str(BIN / "xce"), "start", "--envdir",
                              str(c.envdir)], env=c.env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        host = socket.gethostname()
        wait_for(lambda: " ok " in c.run("bhosts", host).out,
                 what="the local host to be up")
        pid = daemon.read_pid(c.spool / "store" / "controller.pid")
        os.kill(pid, signal.SIGKILL)
        # Well below the hung host's 120 s, which it must not wait out.
        out, err = start.communicate(timeout=60)
    finally:
        if start.poll() is None:
            start.kill()
            start.communicate()
        c.stop()
        hung.close()
    assert start.returncode == 255, (out, err)
    first = err.splitlines()[0]
    assert first.startswith(f"xce-controller (pid {pid}) exited during "
                            "start-up; "), err
    assert "host " not in out, out
