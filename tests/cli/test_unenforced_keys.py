"""Nothing is ignored silently: a key xce carries but does not act on is
logged by the controller at start and at every reconfig."""

from tests.lib.xcecluster import wait_for

NIGHT = """\
  night:
    PRIORITY: 10
    JOB_IDLE: 0.1
"""


def _log(cluster):
    return (cluster.spool / "store" / "controller.log").read_text()


def test_controller_warns_at_start_and_reconfig(make_cluster):
    cluster = make_cluster(extra_queues=NIGHT,
                           extra_params="  MAX_SBD_FAIL: 3\n")
    wanted = ("queue key JOB_IDLE (night): carried but not acted on; "
              "xce does not enforce it yet")
    wait_for(lambda: wanted in _log(cluster), what="the start warning")
    log = _log(cluster)
    assert "WARNING" in log.split(wanted)[0].splitlines()[-1]
    assert "params key MAX_SBD_FAIL (parameters): carried but not " \
        "acted on" in log
    # Enforced keys (PRIORITY, RUNLIMIT) are not mentioned.
    assert "key PRIORITY" not in log and "key RUNLIMIT" not in log
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r
    wait_for(lambda: _log(cluster).count(wanted) == 2,
             what="the reconfig warning")
