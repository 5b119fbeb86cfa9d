"""The newcomer's path: xce start on the shipped configuration, a job, xce stop."""

import re
import shutil
import sqlite3

from tests.lib.xcecluster import BIN, Cluster, wait_for

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
             timeout=20, what="the job to age out of bjobs -a")
    r = cluster.run("bjobs", str(jobid))      # by id it is still known
    assert r.rc == 0 and "DONE" in r.out


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
