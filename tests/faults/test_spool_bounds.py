"""One user cannot fill the spool: waiting requests and rejected files are
bounded per user (count and bytes), and rejected/ is pruned by age and
size."""

import os
import time

from tests.lib.xcecluster import wait_for

NAME = "00000000000000000001-1-{:08x}.json"


def _drop_empty(cluster, count, start=0):
    for n in range(start, start + count):
        (cluster.spool / "incoming" / NAME.format(n)).write_bytes(b"")


def test_a_flood_of_requests_keeps_only_the_users_bound(make_cluster):
    c = make_cluster(extra_params="  XCE_SPOOL_USER_REQUESTS: 50\n"
                                  "  XCE_REJECTED_USER_FILES: 10")
    c.kill_controller()
    _drop_empty(c, 2000)
    c.start()
    wait_for(lambda: not os.listdir(c.spool / "incoming"),
             what="incoming/ to be emptied")
    # The first 50 were read (empty: rejected), 10 of them kept; the rest
    # were refused unread and removed.
    assert len(os.listdir(c.spool / "rejected")) == 10
    log = (c.spool / "store" / "controller.log").read_text()
    assert "refused and removed 1950 spool files (0 bytes) of uid" in log
    jobid = c.submit("true")        # the others are served as before
    c.wait_stat(jobid, "DONE")


def test_rejected_files_are_pruned_by_age_and_size(make_cluster):
    c = make_cluster(extra_params="  XCE_REJECTED_KEEP_DAYS: 1\n"
                                  "  XCE_REJECTED_MAX_MB: 1")
    c.kill_controller()
    rejected = c.spool / "rejected"
    old = rejected / NAME.format(1)
    old.write_bytes(b"x")
    week_ago = time.time() - 7 * 86400
    os.utime(old, (week_ago, week_ago))
    # 3 MB of recent ones: the oldest go until 1 MB is left.
    for n in range(2, 5):
        path = rejected / NAME.format(n)
        path.write_bytes(b"x" * (1 << 20))
        recent = time.time() - 60 * (5 - n)
        os.utime(path, (recent, recent))
    c.start()       # housekeeping runs in the first turn
    wait_for(lambda: sorted(os.listdir(rejected)) == [NAME.format(4)],
             what="rejected/ to be pruned")
