"""A profile's SUSPEND_CONTROL, RESUME_CONTROL and TERMINATE_CONTROL on a
running cluster: bstop, bresume and bkill send the profile's signals,
over its queue's JOB_CONTROLS (LSF 10.1: the profile wins); a command
or CHKPNT as an action is refused by reconfig with the reason."""

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

CATCHER = ("trap 'echo USR1 >> sig.$LSB_JOBID' USR1; "
           "trap 'echo USR2 >> sig.$LSB_JOBID' USR2; "
           "trap 'echo HUP >> sig.$LSB_JOBID; exit 3' HUP; "
           "echo READY >> sig.$LSB_JOBID; while :; do sleep 0.2; done")


def _caught(cluster, jobid, name):
    wait_for(lambda: name in cluster.caught(jobid), what=name)


def test_profile_controls_replace_the_queue_signals(make_cluster):
    cluster = make_cluster(mxj=2, extra_queues="""\
  ctl:
    PRIORITY: 20
    JOB_CONTROLS: SUSPEND[SIGTSTP] RESUME[SIGCONT]
""", extra="""
applications:
  ctl:
    SUSPEND_CONTROL: SIGUSR1
    RESUME_CONTROL: SIGUSR2
    TERMINATE_CONTROL: SIGHUP
""")
    jobid = cluster.submit("-q", "ctl", "-app", "ctl", CATCHER)
    _caught(cluster, jobid, "READY")
    assert cluster.run("bstop", str(jobid)).rc == 0
    _caught(cluster, jobid, "USR1")
    cluster.wait_stat(jobid, "USUSP")
    assert cluster.run("bresume", str(jobid)).rc == 0
    _caught(cluster, jobid, "USR2")
    cluster.wait_stat(jobid, "RUN")
    assert cluster.run("bkill", str(jobid)).rc == 0
    _caught(cluster, jobid, "HUP")
    cluster.wait_stat(jobid, "EXIT")
    r = cluster.run("bapp", "-l", "ctl")
    assert "SUSPEND_CONTROL = SIGUSR1\n" in r.out and \
        "not acted on" not in r.out, r
    assert_reconfig_refuses(
        cluster, "SUSPEND_CONTROL: SIGUSR1",
        "SUSPEND_CONTROL: kill -STOP $LSB_JOBPIDS",
        r"SUSPEND_CONTROL: bad job control: SUSPEND\[kill -STOP "
        r"\$LSB_JOBPIDS\]: xce runs signals only")
    assert_reconfig_refuses(
        cluster, "SUSPEND_CONTROL: kill -STOP $LSB_JOBPIDS",
        "SUSPEND_CONTROL: CHKPNT",
        r"SUSPEND_CONTROL: bad job control: SUSPEND\[CHKPNT\]: xce does "
        "not checkpoint jobs")
    assert cluster.proc.poll() is None
