"""bhist -n: the jobs submitted in the N newest event log files (or in a
range of archives), their histories read from the store, history.db
included; -n 0 and no -n: the whole history."""

import sqlite3

from tests.lib.xcecluster import wait_for


def _job_new_in(cluster, name, jobid):
    return name in {f for f, _ in cluster.lsb_file_records(
        "lsb.events", "JOB_NEW", jobid, rotated=True)}


def _moved(cluster, jobid):
    db = sqlite3.connect(f"file:{cluster.spool / 'store' / 'xce.db'}"
                         "?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM jobs WHERE jobid=?",
                          (jobid,)).fetchone()[0] == 0
    finally:
        db.close()


def _ids(cluster, *args):
    r = cluster.run("bhist", "-a", "-w", *args)
    assert r.rc == 0, r
    return [int(line.split()[0]) for line in r.out.splitlines()[2:] if line]


def test_bhist_n_searches_the_newest_files(make_cluster):
    cluster = make_cluster(extra_params="  MAX_JOB_NUM: 2\n"
                           "  CLEAN_PERIOD: 3\n")
    a = cluster.submit("true")
    cluster.wait_stat(a, "DONE")
    b = cluster.submit("true")
    cluster.wait_stat(b, "DONE")        # lsb.events switched: a, b in .1
    c = cluster.submit("sleep 1000")
    wait_for(lambda: _job_new_in(cluster, "lsb.events", c),
             what="job c's JOB_NEW in lsb.events")
    assert _job_new_in(cluster, "lsb.events.1", a)
    # a and b leave xce.db for history.db: -n finds them there.
    wait_for(lambda: _moved(cluster, a) and _moved(cluster, b),
             timeout=30, what="a and b moved to history.db")
    assert _ids(cluster, "-n", "1") == [c]
    assert _ids(cluster, "-n", "2") == [a, b, c]
    assert _ids(cluster, "-n", "5") == [a, b, c]
    assert _ids(cluster, "-n", "1,1") == [a, b]
    assert _ids(cluster, "-n", "0") == _ids(cluster) == [a, b, c]
    # A job named by id is found only in the files searched.
    r = cluster.run("bhist", "-n", "1", str(a))
    assert (r.rc, r.out) == (255, "No matching job found\n")
    whole = cluster.run("bhist", "-l", str(a))
    assert whole.rc == 0 and cluster.run(
        "bhist", "-l", "-n", "2", str(a)).out == whole.out
    r = cluster.run("bhist", "-n", "2,1")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("bhist: 2,1: The range of event log files must be "
                     "min_logfile,max_logfile with 1 <= min <= max.\n")
    cluster.run("bkill", str(c))


def test_bhist_f_shows_the_jobs_submitted_in_that_file(cluster, tmp_path):
    a = cluster.submit("true")
    wait_for(lambda: _job_new_in(cluster, "lsb.events", a),
             what="job a's JOB_NEW in lsb.events")
    copy = tmp_path / "old.events"
    copy.write_text((cluster.logdir / "lsb.events").read_text())
    b = cluster.submit("true")
    wait_for(lambda: _job_new_in(cluster, "lsb.events", b),
             what="job b's JOB_NEW in lsb.events")
    r = cluster.run("bhist", "-a", "-w", "-f", "old.events", cwd=tmp_path)
    assert r.rc == 0, r
    assert [int(x.split()[0]) for x in r.out.splitlines()[2:] if x] == [a]
    assert _ids(cluster, "-f", str(cluster.logdir / "lsb.events")) == \
        [a, b]
    r = cluster.run("bhist", "-a", "-f", str(copy), str(b))
    assert (r.rc, r.out) == (255, "No matching job found\n")


def test_bhist_f_bad_file_or_with_n_is_refused(cluster, tmp_path):
    missing = tmp_path / "nosuch"
    r = cluster.run("bhist", "-a", "-f", str(missing))
    assert (r.rc, r.out) == (255, "")
    assert r.err == f"bhist: {missing}: No such file or directory\n"
    r = cluster.run("bhist", "-f", str(missing), "-n", "1")
    assert (r.rc, r.out) == (255, "")
    assert r.err.splitlines()[0] == "bhist: -f and -n cannot be used together"
    r = cluster.run("bhist", "-f", "-")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("bhist: -f -: reading the event log from standard "
                     "input is not supported by xce\n")
