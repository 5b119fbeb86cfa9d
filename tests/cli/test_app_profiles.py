"""Application profiles applied (bsub -app, DEFAULT_APPLICATION), end to
end through a real controller and agent: limits, RES_REQ, pre-exec and
the job starter from the profile; unknown profiles refused; bapp -l marks
the keys xce does not act on."""

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for


def _apps(log):
    return f"""
applications:
  quick:
    DESCRIPTION: ends fast
    RUNLIMIT: 0.02
  long:
    RUNLIMIT: 600
  big:
    RES_REQ: select[bigmem]
  wrapped:
    PRE_EXEC: echo app_pre $(id -un) >> {log}
    POST_EXEC: echo app_post >> {log}
    JOB_STARTER: echo started_by_app >> {log}; %USRCMD
  boxed:
    RESIZABLE_JOBS: Y
  tuned:
    ENV_VARS: TUNE_A='one two', TUNE_B=2
    SUCCESS_EXIT_VALUES: 3 7
  mpi:
    TASKLIMIT: 2 3 4
  oldmpi:
    PROCLIMIT: 2
  estimated:
    RUNTIME: 1:30
  retried:
    REQUEUE_EXIT_VALUES: 5
    MAX_JOB_REQUEUE: 2
  capped:
    CPULIMIT: 0.05
    MEMLIMIT: 400000
resources:
  bigmem:
    TYPE: Boolean
    DESCRIPTION: hosts with a lot of memory
"""


def _lines(path):
    return path.read_text().splitlines() if path.exists() else []


@pytest.fixture
def apps(make_cluster, tmp_path):
    log = tmp_path / "steps.log"
    cluster = make_cluster(extra=_apps(log), mxj=8)
    return cluster, log


def test_profile_runlimit_ends_the_job(apps):
    cluster, _ = apps
    jobid = cluster.submit("-app", "quick", "-o", "rl.out", "sleep 60")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_RUNLIMIT" in (cluster.root / "rl.out").read_text()
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Application <quick>" in r.joined, r
    # The job's own -W wins over the profile's.
    own = cluster.submit("-app", "quick", "-W", "5", "true")
    cluster.wait_stat(own, "DONE")


def test_profile_cpu_and_memory_limits_apply_to_its_jobs(apps, tmp_path):
    """The profile's CPULIMIT (0.05 min = 3 s of CPU) ends a busy loop
    as a job's own -c would; its MEMLIMIT is the job's."""
    cluster, _ = apps
    out = tmp_path / "capped.out"
    jobid = cluster.submit("-app", "capped", "-o", str(out),
                           "while :; do :; done")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit" \
        in out.read_text()
    long = cluster.run("bjobs", "-l", str(jobid)).joined
    assert " CPULIMIT\n 0.05 min" in long, long     # not rounded
    assert "MEMLIMIT" in long and "390.6 M" in long, long


def test_queue_ceiling_checks_the_profile_value(apps):
    """The queue short's RUNLIMIT is 60 minutes: a profile asking more is
    refused there, as a job's own -W would be."""
    cluster, _ = apps
    r = cluster.run("bsub", "-q", "short", "-app", "long", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "RUNLIMIT: Cannot exceed queue's hard limit(s). "
        "Job not submitted.\n")
    jobid = cluster.submit("-q", "normal", "-app", "long", "true")
    cluster.wait_stat(jobid, "DONE")


def test_profile_select_keeps_the_job_off_a_host_without_it(apps):
    cluster, _ = apps
    jobid = cluster.submit("-app", "big", "true")
    wait_for(lambda: "PENDING REASONS" in
             cluster.run("bjobs", "-l", str(jobid)).joined,
             what="a pending reason")
    assert cluster.stat(jobid) == "PEND"
    plain = cluster.submit("true")
    cluster.wait_stat(plain, "DONE")
    assert cluster.stat(jobid) == "PEND"
    # bmod keeps the profile's requirement under the job's new one.
    r = cluster.run("bmod", "-R", "order[mem]", str(jobid))
    assert r.rc == 0, r
    other = cluster.submit("true")
    cluster.wait_stat(other, "DONE")
    assert cluster.stat(jobid) == "PEND"


def test_profile_pre_exec_post_exec_and_job_starter_run(apps):
    cluster, log = apps
    jobid = cluster.submit("-app", "wrapped", f"echo job >> {log}")
    wait_for(lambda: len(_lines(log)) == 4, what="every step")
    assert _lines(log)[0].startswith("app_pre ")
    assert _lines(log)[1:] == ["started_by_app", "job", "app_post"]
    cluster.wait_stat(jobid, "DONE")


def test_default_application_applies(make_cluster, tmp_path):
    cluster = make_cluster(extra=_apps(tmp_path / "log"),
                           extra_params="  DEFAULT_APPLICATION: quick")
    jobid = cluster.submit("-o", "d.out", "sleep 60")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_RUNLIMIT" in (cluster.root / "d.out").read_text()
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Application <quick>" in r.joined, r


def test_unknown_profile_is_refused(apps):
    cluster, _ = apps
    r = cluster.run("bsub", "-app", "nope", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "Application profile does not exist. Job not submitted.\n")
    assert cluster.run("bjobs").rc == 0
    assert cluster.proc.poll() is None


def test_bapp_marks_keys_not_acted_on(apps):
    cluster, _ = apps
    r = cluster.run("bapp", "-l", "boxed")
    assert r.rc == 0, r
    assert "RESIZABLE_JOBS = Y  (not acted on by xce)" in r.out, r
    # A limit is shown as bqueues -l shows a queue's, not as KEY = value.
    r = cluster.run("bapp", "-l", "quick")
    # 0.02 min (XCE_FRACTIONAL_RUNLIMIT) with its decimals, not 0.0.
    assert "\nPARAMETERS:\n\n RUNLIMIT\n 0.02 min\n" in r.out, r
    assert "RUNLIMIT =" not in r.out, r
    r = cluster.run("bapp", "-l", "long")
    assert "\n RUNLIMIT\n 600.0 min\n" in r.out, r


def test_controller_warns_about_profile_keys_not_applied(apps):
    cluster, _ = apps
    log = cluster.spool / "store" / "controller.log"
    for key in ("RESIZABLE_JOBS",):
        wanted = (f"application key {key} (boxed): carried but not acted "
                  "on; xce does not enforce it yet")
        wait_for(lambda: wanted in log.read_text(), what=key)
    text = log.read_text()
    for applied in ("RUNLIMIT", "RES_REQ", "PRE_EXEC", "JOB_STARTER"):
        assert f"application key {applied} " not in text


def test_profile_env_vars_and_success_exit_values(apps):
    cluster, _ = apps
    jobid = cluster.submit("-app", "tuned", "-o", "env.out",
                           "echo A=$TUNE_A B=$TUNE_B")
    cluster.wait_stat(jobid, "DONE")
    assert "A=one two B=2" in (cluster.root / "env.out").read_text()
    # 3 and 7 count as success; another exit code does not.
    ok = cluster.submit("-app", "tuned", "exit 7")
    bad = cluster.submit("-app", "tuned", "exit 4")
    plain = cluster.submit("exit 7")
    cluster.wait_stat(ok, "DONE")
    cluster.wait_stat(bad, "EXIT")
    cluster.wait_stat(plain, "EXIT")
    r = cluster.run("bapp", "-l", "tuned")
    assert "not acted on" not in r.out, r


def test_profile_task_limit_defaults_and_bounds_the_tasks(apps):
    """TASKLIMIT 2 3 4: no -n gives 3 tasks; -n below 2 or above 4 is
    refused with LSF's message; a range overlapping 2..4 is taken."""
    cluster, _ = apps
    jobid = cluster.submit("-app", "mpi", "true")
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [3, 3]
    for n, why in (("1", "Too few"), ("5", "Too many"),
                   ("5,8", "Too many")):
        r = cluster.run("bsub", "-app", "mpi", "-n", n, "true")
        assert (r.rc, r.out, r.err) == (
            255, "", f"{why} processors requested. Job not submitted.\n"), r
    ranged = cluster.submit("-app", "mpi", "-n", "1,2", "true")
    assert cluster.stored_job(ranged)["spec"]["nslots"] == [1, 2]
    # PROCLIMIT, the older name: one number is the maximum, default 1.
    old = cluster.submit("-app", "oldmpi", "true")
    assert cluster.stored_job(old)["spec"]["nslots"] == [1, 1]
    r = cluster.run("bsub", "-app", "oldmpi", "-n", "3", "true")
    assert r.rc == 255 and "Too many processors" in r.err, r
    # TASKLIMIT among the limits, not as KEY = value; PROCLIMIT, its
    # older name, shown as TASKLIMIT.
    r = cluster.run("bapp", "-l", "mpi")
    assert "\nPARAMETERS:\n\n TASKLIMIT\n 2 3 4\n" in r.out, r
    assert "TASKLIMIT =" not in r.out, r
    r = cluster.run("bapp", "-l", "oldmpi")
    assert "\n TASKLIMIT\n 2\n" in r.out, r
    assert "PROCLIMIT" not in r.out, r
    assert cluster.proc.poll() is None


def test_profile_runtime_is_the_jobs_estimate(apps):
    """RUNTIME 1:30 is the estimate of a job without -We (bjobs -l's
    ESTIMATED_RUNTIME block), never a limit; -We wins over it."""
    cluster, _ = apps
    jobid = cluster.submit("-app", "estimated", "sleep 60")
    assert cluster.stored_job(jobid)["spec"]["estimate"] == 90
    r = cluster.run("bjobs", "-l", str(jobid))
    assert " ESTIMATED_RUNTIME:" in r.joined, r
    assert "90.0 min of" in r.joined and \
        "based on application configured runtime estimation." in r.joined, r
    own = cluster.submit("-app", "estimated", "-We", "5", "true")
    assert cluster.stored_job(own)["spec"]["estimate"] == 5
    r = cluster.run("bjobs", "-l", str(own))
    assert "user provided runtime estimation." in r.joined, r
    r = cluster.run("bapp", "-l", "estimated")
    assert "RUNTIME = 1:30\n" in r.out, r
    cluster.run("bkill", str(jobid))


def test_profile_max_job_requeue_bounds_automatic_requeues(apps):
    """REQUEUE_EXIT_VALUES 5 with MAX_JOB_REQUEUE 2: the job runs three
    times (two requeues), then its exit 5 ends it as EXIT."""
    cluster, _ = apps
    count = cluster.root / "runs.log"
    jobid = cluster.submit("-app", "retried", f"echo run >> {count}; exit 5")
    cluster.wait_stat(jobid, "EXIT", timeout=60)
    assert _lines(count) == ["run"] * 3
    assert cluster.stored_job(jobid)["spec"]["auto_requeues"] == 2
    r = cluster.run("bapp", "-l", "retried")
    assert "MAX_JOB_REQUEUE = 2\n" in r.out, r


def test_max_job_requeue_of_the_profile_the_queue_and_the_cluster(
        make_cluster, tmp_path):
    """MAX_JOB_REQUEUE: the profile's (2) over the queue's (1) over the
    cluster's (3), each bounding the requeues of exit value 5."""
    cluster = make_cluster(
        extra=_apps(tmp_path / "s.log"), mxj=4,
        extra_params="  MAX_JOB_REQUEUE: 3",
        extra_queues="  rq:\n    PRIORITY: 35\n    REQUEUE_EXIT_VALUES: 5\n"
        "    MAX_JOB_REQUEUE: 1\n  rq2:\n    PRIORITY: 36\n"
        "    REQUEUE_EXIT_VALUES: 5\n")
    runs = {}
    for name, argv in (("queue", ("-q", "rq")),
                       ("profile", ("-q", "rq", "-app", "retried")),
                       ("cluster", ("-q", "rq2"))):
        log = cluster.root / f"{name}.log"
        runs[name] = (cluster.submit(*argv, f"echo run >> {log}; exit 5"),
                      log)
    for name, (jobid, log) in runs.items():
        cluster.wait_stat(jobid, "EXIT", timeout=60)
    assert {name: len(_lines(log)) for name, (_, log) in runs.items()} == \
        {"queue": 2, "profile": 3, "cluster": 4}
    assert_reconfig_refuses(cluster, "MAX_JOB_REQUEUE: 3",
                            "MAX_JOB_REQUEUE: -1", "MAX_JOB_REQUEUE: ")
    assert cluster.proc.poll() is None


def test_queue_task_limit_and_the_profile_default_first(make_cluster,
                                                       tmp_path):
    """The queue's TASKLIMIT 2 4 (default 2) bounds and defaults -n as a
    profile's does; a profile's default comes first, and the queue still
    bounds the count."""
    cluster = make_cluster(extra=_apps(tmp_path / "s.log"), mxj=8,
                           extra_queues="  par:\n    PRIORITY: 35\n"
                           "    TASKLIMIT: 2 4\n")
    jobid = cluster.submit("-q", "par", "true")
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [2, 2]
    r = cluster.run("bsub", "-q", "par", "-n", "5", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "Too many processors requested. Job not submitted.\n"), r
    r = cluster.run("bsub", "-q", "par", "-n", "1", "true")
    assert r.rc == 255 and r.err.startswith("Too few processors"), r
    # mpi's default 3 is within 2..4; oldmpi's default 1 is below 2.
    jobid = cluster.submit("-q", "par", "-app", "mpi", "true")
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [3, 3]
    r = cluster.run("bsub", "-q", "par", "-app", "oldmpi", "true")
    assert r.rc == 255 and r.err.startswith("Too few processors"), r
    assert cluster.proc.poll() is None
