"""CLEAN_PERIOD: a finished job leaves bjobs and the store after it, and
is still known to bhist and bacct (history.db), as LSF's mbatchd forgets
it while lsb.events and lsb.acct keep it."""

import sqlite3

from tests.lib.lsbevents_reader import read_file
from tests.lib.xcecluster import wait_for


def _store_rows(cluster, table, jobid):
    db = sqlite3.connect(f"file:{cluster.spool / 'store' / table[0]}"
                         "?mode=ro", uri=True)
    try:
        return db.execute(f"SELECT COUNT(*) FROM {table[1]} WHERE jobid=?",
                          (jobid,)).fetchone()[0]
    finally:
        db.close()


def test_finished_job_leaves_store_after_clean_period(make_cluster):
    # 10 s: bjobs, bhist and bacct read the job before it leaves, on a
    # loaded machine too.
    cluster = make_cluster(extra_params="  CLEAN_PERIOD: 10")
    old = cluster.submit("-J", "oldjob", "-o", "o.txt", "exit 3")
    cluster.wait_stat(old, "EXIT")
    assert cluster.run("bjobs", "-a", "-noheader").out.split()[0] == str(old)
    hist_before = cluster.run("bhist", "-l", str(old))
    acct_before = cluster.run("bacct", "-l", str(old))
    assert hist_before.rc == 0 and acct_before.rc == 0
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), old) == 0,
             timeout=30, what="the finished job's row to leave xce.db")
    assert _store_rows(cluster, ("xce.db", "events"), old) == 0
    assert _store_rows(cluster, ("history.db", "jobs"), old) == 1
    # bjobs no longer knows it, by -a or by id (LSF's message).
    r = cluster.run("bjobs", "-a")
    assert str(old) not in r.out
    r = cluster.run("bjobs", str(old))
    assert (r.rc, r.out, r.err) == (255, "", f"Job <{old}> is not found\n")
    # bhist and bacct show it as before.
    hist = cluster.run("bhist", "-l", str(old))
    assert (hist.rc, hist.out, hist.err) == (0, hist_before.out, "")
    acct = cluster.run("bacct", "-l", str(old))
    assert (acct.rc, acct.err) == (0, "")
    assert acct.out == acct_before.out
    assert str(old) in cluster.run("bhist", "-a").out
    assert cluster.lsb_records("lsb.acct", job=old)
    # bkill: LSF's answer for a job mbatchd has cleaned.
    r = cluster.run("bkill", str(old))
    assert r.rc != 0 and r.err == f"Job <{old}>: No matching job found\n"
    # A new dependency on it is refused as on a job LSF cannot find.
    r = cluster.run("bsub", "-w", f"exit({old})", "true")
    assert r.rc != 0 and "No matching job found" in r.err
    # A restart after the deletion: still gone, still in the history.
    cluster.stop()
    # Read with the controller stopped (no -wal and -shm files).
    assert cluster.run("bhist", "-l", str(old)).out == hist_before.out
    assert cluster.run("bacct", "-l", str(old)).out == acct_before.out
    cluster.start()
    assert cluster.run("bjobs", str(old)).rc == 255
    assert cluster.run("bhist", "-l", str(old)).out == hist_before.out
    new = cluster.submit("true")
    cluster.wait_stat(new, "DONE")
    assert new > old


def test_array_elements_leave_one_by_one(make_cluster):
    """Elements that ended at different times leave the store each
    CLEAN_PERIOD after its own end; bhist and bacct show them all."""
    cluster = make_cluster(extra_params="  CLEAN_PERIOD: 3")
    gate = cluster.root / "go"
    jobid = cluster.submit(
        "-J", "arr[1-2]", "-o", "/dev/null",
        f"if [ $LSB_JOBINDEX = 2 ]; then while [ ! -e {gate} ]; do "
        "sleep 0.2; done; fi")
    cluster.wait_stat(f"{jobid}[1]", "DONE")
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), jobid) == 1,
             timeout=30, what="element 1 to leave xce.db")
    r = cluster.run("bjobs", "-a", "-noheader", str(jobid))
    assert r.rc == 0 and [line.split()[2] for line in
                          r.out.splitlines()] == ["RUN"]
    assert f"{jobid}[1]" not in r.out
    assert cluster.run("bjobs", f"{jobid}[1]").rc == 255
    hist = cluster.run("bhist", "-l", str(jobid))
    assert hist.joined.count("Job <") >= 2, hist.out
    assert f"Job <{jobid}[1]>" in hist.joined and \
        f"Job <{jobid}[2]>" in hist.joined
    gate.write_text("")
    cluster.wait_stat(f"{jobid}[2]", "DONE")
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), jobid) == 0,
             timeout=30, what="element 2 to leave xce.db")
    assert _store_rows(cluster, ("history.db", "jobs"), jobid) == 2
    acct = cluster.run("bacct", str(jobid))
    assert acct.rc == 0 and "Total number of done jobs:       2" in acct.out


def _listed(cluster, *args):
    r = cluster.run("bjobs", "-noheader", *args)
    return {int(line.split()[0]) for line in r.out.splitlines()
            if line.split() and line.split()[0].isdigit()}


def test_done_and_exit_jobs_leave_at_their_own_times(make_cluster):
    """CLEAN_PERIOD_DONE: 2 beside CLEAN_PERIOD: 20: the DONE job leaves
    bjobs -a/-d and the store after 2 s, the EXIT job of the same moment
    stays until 20 s; bparams -l shows both."""
    cluster = make_cluster(
        extra_params="  CLEAN_PERIOD: 20\n  CLEAN_PERIOD_DONE: 2")
    done = cluster.submit("-o", "/dev/null", "true")
    failed = cluster.submit("-o", "/dev/null", "exit 3")
    cluster.wait_stat(done, "DONE")
    cluster.wait_stat(failed, "EXIT")
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), done) == 0,
             timeout=30, what="the DONE job's row to leave xce.db")
    assert _store_rows(cluster, ("history.db", "jobs"), done) == 1
    assert _store_rows(cluster, ("xce.db", "jobs"), failed) == 1
    assert _listed(cluster, "-a") == {failed}
    assert _listed(cluster, "-d") == {failed}
    assert cluster.run("bjobs", str(done)).rc == 255
    assert cluster.run("bjobs", str(failed)).rc == 0
    r = cluster.run("bkill", str(done))
    assert r.err == f"Job <{done}>: No matching job found\n"
    params = cluster.run("bparams", "-l").out
    assert "    CLEAN_PERIOD_DONE = 2 (seconds)" in params
    assert "    CLEAN_PERIOD = 20 (seconds)" in params
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), failed) == 0,
             timeout=40, what="the EXIT job's row to leave xce.db")
    assert _listed(cluster, "-a") == set()
    assert cluster.run("bhist", "-l", str(done)).rc == 0
    assert cluster.run("bhist", "-l", str(failed)).rc == 0



def test_a_new_log_directory_is_written_with_the_moved_jobs(make_cluster,
                                                            tmp_path):
    """lsb.events and lsb.acct removed while the controller is stopped:
    written again at its start, the jobs moved to history.db included,
    as they were."""
    cluster = make_cluster(extra_params="  CLEAN_PERIOD: 3")
    old = cluster.submit("-J", "oldjob", "exit 3")
    cluster.wait_stat(old, "EXIT")
    wait_for(lambda: _store_rows(cluster, ("xce.db", "jobs"), old) == 0,
             timeout=30, what="the finished job's row to leave xce.db")
    cluster.stop()
    logdir = cluster.logdir
    before = {p.name: p.read_text() for p in logdir.iterdir()}
    assert cluster.lsb_records("lsb.acct", job=old)
    for path in logdir.iterdir():
        path.unlink()
    cluster.start()
    cluster.wait_lsb_records("lsb.acct", job=old, timeout=30)
    (tmp_path / "lsb.events").write_text(before["lsb.events"])
    was = _masked(read_file(tmp_path / "lsb.events"))
    cluster.wait_lsb_events(until=lambda r: _masked(r)[:len(was)] == was)
    acct = before["lsb.acct"].splitlines()
    assert (logdir / "lsb.acct").read_text().splitlines()[:len(acct)] == acct


def _masked(records):
    """The records, JOB_NEW's schedHostType left out: it is the type
    the submission host's agent reported, which a log written again at
    the controller's start, before the agent's hello, does not know."""
    return [dict(r, schedHostType=None) for r in records]
