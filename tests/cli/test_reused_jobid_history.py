"""A job id given again once MAX_JOBID wrapped names two jobs in the
history: bhist and bacct show each apart, oldest first, before and after
the newer one, too, moves to history.db (CLEAN_PERIOD)."""

import sqlite3

from tests.cli.test_max_jobid import set_next_jobid
from tests.lib.xcecluster import wait_for


def _rows(cluster, db, jobid):
    conn = sqlite3.connect(f"file:{cluster.spool / 'store' / db}?mode=ro",
                           uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM jobs WHERE jobid=?",
                            (jobid,)).fetchone()[0]
    finally:
        conn.close()


def _blocks(text):
    return [b for b in text.split("-" * 78) if "Job <1>" in b]


def test_a_job_id_given_twice_shows_two_jobs(make_cluster):
    cluster = make_cluster(extra_params="  CLEAN_PERIOD: 3\n")
    old = cluster.submit("-J", "first", "exit 3")
    assert old == 1
    cluster.wait_stat(old, "EXIT")
    wait_for(lambda: _rows(cluster, "xce.db", 1) == 0, timeout=30,
             what="job 1 moved to history.db")
    cluster.stop()
    set_next_jobid(cluster, 999999)
    cluster.start()
    last = cluster.submit("true")
    assert last == 999999
    new = cluster.submit("-J", "second", "true")
    assert new == 1                     # the id wrapped
    cluster.wait_stat(new, "DONE")
    cluster.wait_stat(last, "DONE")

    def check():
        table = cluster.run("bhist", "-a", "-w")
        names = [line.split()[2] for line in table.out.splitlines()[2:]
                 if line.split()[:1] == ["1"]]
        assert names == ["first", "second"], table.out
        long = cluster.run("bhist", "-l", "1")
        assert long.rc == 0, long
        first, second = _blocks(long.out)
        assert "Exited with exit code 3" in first
        assert "Done successfully" not in first
        assert "Done successfully" in second and "exit code" not in second
        assert first.count("Submitted from host") == 1
        assert second.count("Submitted from host") == 1
        acct = cluster.run("bacct", "1")
        assert "Total number of done jobs:       1" in acct.out
        assert "Total number of exited jobs:     1" in acct.out
        return long.out

    before = check()
    wait_for(lambda: _rows(cluster, "xce.db", 1) == 0, timeout=30,
             what="the new job 1 moved to history.db")
    assert _rows(cluster, "history.db", 1) == 2
    assert check() == before
