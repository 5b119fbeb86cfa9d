"""Commands reading a store of an older schema (before job messages, v4)
that no controller of this version has migrated: one clear line, exit 255,
never a traceback; the next controller start migrates it."""

import sqlite3

from tests.lib.xcecluster import wait_for
from xce.store import schema

READERS = (("bread",), ("bread", "-i", "0"), ("bstatus",))


def _downgrade_to_v3(cluster):
    db = sqlite3.connect(cluster.spool / "store" / "xce.db")
    # A v3 store had neither job messages (v4), job groups (v5), claims
    # (v6) nor gangs (v8), and kept job_data in xce.db (until v7).
    db.executescript("DROP TABLE job_messages; DROP TABLE job_groups; "
                     "DROP TABLE claims; DROP TABLE gangs; " +
                     schema.MIGRATIONS[1].split(";")[0] + ";"
                     "PRAGMA user_version=3;")
    db.close()


def test_commands_on_a_pre_v4_store_say_one_line(cluster):
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    cluster.stop()
    _downgrade_to_v3(cluster)
    for argv in READERS:
        r = cluster.run(*argv, str(jobid))
        assert (r.rc, r.out) == (255, ""), argv
        assert r.err == ("Cannot read the batch system state: no such table: "
                         "job_messages (the state store is older than this "
                         "xce: start the controller once to upgrade it)\n")
    # What does not need the new table still answers.
    for argv in (("bjobs", "-a"), ("bjdepinfo", "-p"), ("bhist", "-l")):
        r = cluster.run(*argv, str(jobid))
        assert r.rc == 0 and "Traceback" not in r.err, (argv, r)
    cluster.start()
    wait_for(lambda: cluster.run("bread", str(jobid)).err ==
             f"Job <{jobid}>: No message available\n",
             what="the migrated store to answer bread")
    r = cluster.run("bstatus", "-d", "x", str(jobid))
    assert (r.rc, r.err) == (255, f"Job <{jobid}>: Job has already "
                             "finished\n")
