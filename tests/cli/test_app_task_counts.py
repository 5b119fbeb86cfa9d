"""A profile's task counts kept after submission, end to end: JOB_SIZE_LIST
(a job's size one of the list, the first its default); TASKLIMIT and the
list checked again by bmod, and by a reconfiguration that changes them
(the pending job stays and pends with the reason); a pending job whose
profile a reconfiguration removes pends saying so; profile keys xce
leaves out are refused by reconfig with the reason."""

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for

APPS = """
applications:
  sized:
    JOB_SIZE_LIST: 2 4 8
  mpi:
    TASKLIMIT: 2 3 4
  doomed:
    DESCRIPTION: removed by a reconfig
"""


SIZED_QUEUE = """\
  sizedq:
    PRIORITY: 20
    JOB_SIZE_LIST: 3 6
"""


@pytest.fixture
def cluster(make_cluster):
    return make_cluster(extra=APPS, mxj=8, extra_queues=SIZED_QUEUE)


def _pend_reason(cluster, jobid, text):
    wait_for(lambda: text in cluster.run("bjobs", "-p", str(jobid)).out,
             what=text)
    assert cluster.stat(jobid) == "PEND"


def _edit(cluster, old, new):
    yaml = cluster.envdir / "xce.yaml"
    assert old in yaml.read_text()
    yaml.write_text(yaml.read_text().replace(old, new))
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r


def test_job_size_list_gives_the_default_and_refuses_other_sizes(cluster):
    jobid = cluster.submit("-app", "sized", "-H", "true")
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [2, 2]
    four = cluster.submit("-app", "sized", "-n", "4", "true")
    assert cluster.stored_job(four)["spec"]["nslots"] == [4, 4]
    for n in ("3", "2,4"):
        r = cluster.run("bsub", "-app", "sized", "-n", n, "true")
        assert (r.rc, r.out, r.err) == (
            255, "", f"Job size ({n}) is not in the application profile's "
            "JOB_SIZE_LIST (2 4 8). Job not submitted.\n"), r
    r = cluster.run("bmod", "-n", "3", str(jobid))
    assert r.rc == 255 and "Job size (3) is not in the application " \
        "profile's JOB_SIZE_LIST (2 4 8)" in r.err, r
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [2, 2]
    assert cluster.run("bmod", "-n", "8", str(jobid)).rc == 0
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [8, 8]
    r = cluster.run("bapp", "-l", "sized")
    assert "JOB_SIZE_LIST = 2 4 8\n" in r.out and "not acted" not in r.out


def test_a_queue_job_size_list_applies_unless_the_profile_has_one(
        cluster):
    jobid = cluster.submit("-q", "sizedq", "-H", "true")
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [3, 3]
    r = cluster.run("bsub", "-q", "sizedq", "-n", "4", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "Job size (4) is not in the queue's JOB_SIZE_LIST (3 6). "
        "Job not submitted.\n"), r
    # The profile's list wins over the queue's, as in LSF.
    sized = cluster.submit("-q", "sizedq", "-app", "sized", "-n", "4",
                           "-H", "true")
    assert cluster.stored_job(sized)["spec"]["nslots"] == [4, 4]
    # bmod checks it again; bmod -q into the queue too.
    r = cluster.run("bmod", "-n", "5", str(jobid))
    assert r.rc == 255 and "Job size (5) is not in the queue's " \
        "JOB_SIZE_LIST (3 6)" in r.err, r
    assert cluster.run("bmod", "-n", "6", str(jobid)).rc == 0
    other = cluster.submit("-n", "2", "-H", "true")
    r = cluster.run("bmod", "-q", "sizedq", str(other))
    assert r.rc == 255 and "JOB_SIZE_LIST (3 6)" in r.err, r
    assert cluster.stored_job(other)["queue"] == "normal"
    assert len(cluster.run("bjobs", "-a").out.splitlines()) == 4


def test_task_limit_is_rechecked_by_bmod_and_by_reconfig(cluster):
    jobid = cluster.submit("-app", "mpi", "-n", "3", "-H", "true")
    r = cluster.run("bmod", "-n", "6", str(jobid))
    assert r.rc == 255 and "Too many processors requested" in r.err, r
    assert cluster.stored_job(jobid)["spec"]["nslots"] == [3, 3]
    # Moved to a profile whose limit it breaks: refused, nothing changed.
    other = cluster.submit("-n", "6", "-H", "true")
    r = cluster.run("bmod", "-app", "mpi", str(other))
    assert r.rc == 255 and "Too many processors requested" in r.err, r
    assert "app" not in cluster.stored_job(other)["spec"]
    _edit(cluster, "TASKLIMIT: 2 3 4", "TASKLIMIT: 1 2")
    assert cluster.run("bresume", str(jobid)).rc == 0
    _pend_reason(cluster, jobid, "The job's task count no longer fits its "
                 "application profile or queue: Too many processors "
                 "requested")
    assert cluster.run("bmod", "-n", "2", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "DONE")


def test_a_job_whose_profile_is_removed_pends_saying_so(cluster):
    jobid = cluster.submit("-app", "doomed", "-H", "true")
    _edit(cluster, "  doomed:\n    DESCRIPTION: removed by a reconfig\n", "")
    assert cluster.run("bresume", str(jobid)).rc == 0
    _pend_reason(cluster, jobid, "The job's application profile <doomed> "
                 "no longer exists; bmod -app or -appn moves the job")
    assert cluster.run("bmod", "-appn", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "DONE")


LEFT_OUT = [
    ("CHKPNT_DIR", "/ckpt", "xce does not checkpoint jobs"),
    ("CHUNK_JOB_SIZE", "4", "xce dispatches every job alone"),
    ("MAX_JOB_PREEMPT", "3", "xce preempts by job slots only"),
    ("NO_PREEMPT_RUN_TIME", "10", "xce preempts by job slots only"),
    ("EXEC_DRIVER", "context[user(lsfadmin)]", "xce runs the container "
     "runtime itself"),
    ("BIND_JOB", "BALANCE", "xce does not bind job processes to CPUs"),
    ("DJOB_ENV_SCRIPT", "env.sh", "xce's blaunch tasks are run and "
     "watched by its agents"),
]


def test_keys_xce_leaves_out_are_refused_with_the_reason(cluster):
    yaml = cluster.envdir / "xce.yaml"
    kept = yaml.read_text()
    line = "    DESCRIPTION: removed by a reconfig\n"
    for key, value, why in LEFT_OUT:
        assert_reconfig_refuses(cluster, line, f"{line}    {key}: {value}\n",
                                f"{key}: not supported by xce: {why}")
        yaml.write_text(kept)
    assert cluster.proc.poll() is None
    assert cluster.run("badmin", "reconfig").rc == 0
