"""Queue job controls on a running cluster, as LSF 10.1 applies them: a
queue's STOP_COND suspends a job with its JOB_CONTROLS SUSPEND signal
and RESUME_COND resumes it with RESUME's; TERMINATE_WHEN = LOAD ends the
job with TERMINATE's signal (TERM_LOAD) instead; bqueues -l shows the
keys in LSF's layout; a bad value is refused by reconfig naming the key.
The conditions are always true or false (r15s >= 0, r15s < 0), so no
load needs to be made; STOP_COND turns true (by a reconfig) once the jobs
are ready to catch their signals."""

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

# Each signal the job catches is written down, so that which one the
# action sent can be checked; `sleep` dies of it and the loop goes on.
CATCHER = ("trap 'echo USR1 >> sig.$LSB_JOBID' USR1; "
           "trap 'echo USR2 >> sig.$LSB_JOBID' USR2; "
           "echo READY >> sig.$LSB_JOBID; while :; do sleep 0.2; done")
NEVER, ALWAYS = "select[r15s < -1]", "select[r15s >= 0]"


def _suspended(cluster, jobs):
    return next((j for j in jobs if cluster.stat(j) == "SSUSP"), None)


def _ready_then_stop(cluster, jobs):
    """Wait until *jobs* catch their signals, then make STOP_COND true."""
    for jobid in jobs:
        wait_for(lambda: "READY" in cluster.caught(jobid),
                 what=f"job {jobid} to set its traps")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(NEVER, ALWAYS))
    assert cluster.run("badmin", "reconfig").rc == 0


def _long(cluster, *argv):
    r = cluster.run(*argv)
    assert r.rc == 0 and r.err == "", r
    return r.out


def test_stop_and_resume_conditions_use_the_queues_signals(make_cluster):
    cluster = make_cluster(mxj=2, extra_queues="""\
  ctl:
    PRIORITY: 20
    JOB_CONTROLS: SUSPEND[SIGUSR1] RESUME[SIGUSR2]
    STOP_COND: select[r15s < -1]
    RESUME_COND: select[r15s < 0]
""")
    jobs = [cluster.submit("-q", "ctl", CATCHER) for _ in range(2)]
    _ready_then_stop(cluster, jobs)
    stopped = wait_for(lambda: _suspended(cluster, jobs),
                       what="a job suspended by STOP_COND")
    wait_for(lambda: "USR1" in cluster.caught(stopped),
             what="the SUSPEND signal")
    assert " STOP_COND is true with current host load;" in \
        cluster.long(stopped)
    out = _long(cluster, "bqueues", "-l", "ctl")
    assert "RESUME_COND:  select[r15s < 0]\nSTOP_COND:  select[r15s >= 0]" \
        "\n\nJOB_CONTROLS:\n    SUSPEND:     [SIGUSR1]\n" \
        "    RESUME:      [SIGUSR2]\n" in out, out
    # RESUME_COND false: it stays suspended whatever its thresholds say.
    assert cluster.stat(stopped) == "SSUSP"
    assert "USR2" not in cluster.caught(stopped)
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("select[r15s < 0]", ALWAYS))
    assert cluster.run("badmin", "reconfig").rc == 0
    wait_for(lambda: "USR2" in cluster.caught(stopped),
             what="the RESUME signal")
    for jobid in jobs:
        assert cluster.run("bkill", str(jobid)).rc == 0
    for jobid in jobs:
        cluster.wait_stat(jobid, "EXIT")


def test_terminate_when_load_ends_the_job_with_its_terminate_action(
        make_cluster):
    cluster = make_cluster(mxj=2, extra_queues="""\
  term:
    PRIORITY: 20
    TERMINATE_WHEN: LOAD
    STOP_COND: select[r15s >= 0]
  caught:
    PRIORITY: 20
    JOB_CONTROLS: TERMINATE[SIGUSR1]
    TERMINATE_WHEN: LOAD
    STOP_COND: select[r15s < -1]
""")
    # LSF's TERMINATE (SIGINT, SIGTERM, SIGKILL) instead of a suspension.
    jobs = [cluster.submit("-q", "term", "sleep 600") for _ in range(2)]
    ended = wait_for(lambda: next((j for j in jobs if cluster.stat(j) ==
                                   "EXIT"), None), timeout=30,
                     what="a job ended by TERMINATE_WHEN")
    assert cluster.stored_job(ended)["exit_reason"] == "TERM_LOAD"
    assert "SSUSP" not in [cluster.stat(j) for j in jobs]
    out = _long(cluster, "bqueues", "-l", "term")
    assert "STOP_COND:  select[r15s >= 0]\n\nTERMINATE_WHEN = LOAD\n" \
        in out, out
    for jobid in jobs:
        cluster.run("bkill", str(jobid))
        cluster.wait_stat(jobid, "EXIT")
    # The queue's TERMINATE signal: the job catches it and runs on.
    jobs = [cluster.submit("-q", "caught", CATCHER) for _ in range(2)]
    _ready_then_stop(cluster, jobs)
    caught = wait_for(lambda: next((j for j in jobs if "USR1" in
                                    cluster.caught(j)), None),
                      what="the TERMINATE signal")
    assert cluster.stat(caught) == "RUN"
    out = _long(cluster, "bqueues", "-l", "caught")
    assert "JOB_CONTROLS:\n    TERMINATE:    [SIGUSR1]\n\n" \
        "TERMINATE_WHEN = LOAD\n" in out, out
    for jobid in jobs:
        cluster.run("bkill", "-r", str(jobid))
        cluster.wait_stat(jobid, "EXIT")


def test_reconfig_refuses_a_bad_job_control(make_cluster):
    cluster = make_cluster(mxj=2)
    assert_reconfig_refuses(
        cluster, "DESCRIPTION: the default queue",
        "JOB_CONTROLS: SUSPEND[SIGNOPE]",
        r"JOB_CONTROLS: bad job control: SUSPEND\[SIGNOPE\]: SIGNOPE is "
        r"not a signal name")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        "JOB_CONTROLS: SUSPEND[SIGNOPE]", "DESCRIPTION: the default queue"))
    assert_reconfig_refuses(
        cluster, "DESCRIPTION: the default queue",
        "STOP_COND: select[r1m >]",
        r"STOP_COND: bad job control: 'select\[r1m >\]' is not a select "
        r"expression")
    # The controller runs on, on the configuration it had.
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
