"""Nothing is ignored silently: a key xce carries but does not act on is
logged by the controller at start and at every reconfig, and a key xce
leaves out (no such feature) is refused by reconfig with the reason."""

import re

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

NIGHT = """\
  night:
    PRIORITY: 10
    NEW_JOB_SCHED_DELAY: 2
"""


def _log(cluster):
    return (cluster.spool / "store" / "controller.log").read_text()


def test_controller_warns_at_start_and_reconfig(make_cluster):
    cluster = make_cluster(extra_queues=NIGHT,
                           extra_params="  MAX_SCHED_STAY: 3\n")
    wanted = ("queue key NEW_JOB_SCHED_DELAY (night): not needed in xce, "
              "not acted on: mbschd's wait")
    wait_for(lambda: wanted in _log(cluster), what="the start warning")
    log = _log(cluster)
    assert "WARNING" in log.split(wanted)[0].splitlines()[-1]
    assert "params key MAX_SCHED_STAY (parameters): not needed in xce, " \
        "not acted on: mbatchd's time limit on one scheduling pass" in log
    # Enforced keys (PRIORITY, RUNLIMIT) are not mentioned.
    assert "key PRIORITY" not in log and "key RUNLIMIT" not in log
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r
    wait_for(lambda: _log(cluster).count(wanted) == 2,
             what="the reconfig warning")
    # A job exception threshold (xce has none) written by hand is refused
    # with the key table's reason; the controller goes on as it was.
    assert_reconfig_refuses(
        cluster, "NEW_JOB_SCHED_DELAY: 2", "JOB_OVERRUN: 60",
        re.escape("JOB_OVERRUN: not supported by xce: job exceptions "
                  "(eadmin's idle, overrun and underrun actions) have no "
                  "xce equivalent"))
    assert cluster.proc.poll() is None
    assert cluster.run("bqueues", "night").rc == 0
    # So is a parameter the migrator leaves out (lsb.params MAX_SBD_FAIL).
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("JOB_OVERRUN: 60",
                                             "NEW_JOB_SCHED_DELAY: 2"))
    assert_reconfig_refuses(
        cluster, "MAX_SCHED_STAY: 3", "MAX_SBD_FAIL: 3",
        re.escape("MAX_SBD_FAIL: not supported by xce: xce counts no failed "
                  "contacts: a host is unavail as soon as its agent's link "
                  "is lost"))
    assert cluster.proc.poll() is None
