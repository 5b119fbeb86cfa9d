"""JOB_INCLUDE_POSTPROC, end to end: with Y (the cluster's, in
lsb.params) a job stays RUN until its post-exec has ended, a controller
restart meanwhile included; a profile's N wins, and its job is DONE while
its post-exec still runs."""

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import wait_for


def _apps(gates):
    # Each post-exec says it runs, then waits for the test's gate file.
    post = (f"touch {gates}/in.$LSB_JOBID; "
            f"while [ ! -e {gates}/gate.$LSB_JOBID ]; do sleep 0.1; done")
    return f"""
applications:
  inpost:
    POST_EXEC: {post}
  apart:
    POST_EXEC: {post}
    JOB_INCLUDE_POSTPROC: N
"""


@pytest.fixture
def cluster(make_cluster, tmp_path):
    gates = tmp_path / "gates"
    gates.mkdir()
    gates.chmod(0o777)
    cluster = make_cluster(extra=_apps(gates), mxj=4,
                           extra_params="  JOB_INCLUDE_POSTPROC: Y")
    return cluster, gates


def _in_post(gates, jobid):
    wait_for(lambda: (gates / f"in.{jobid}").exists(),
             what=f"the post-exec of job {jobid}")


def test_post_exec_is_part_of_the_job_with_y(cluster):
    cluster, gates = cluster
    held = cluster.submit("-app", "inpost", "true")
    apart = cluster.submit("-app", "apart", "true")
    _in_post(gates, held)
    _in_post(gates, apart)
    # N: DONE at once, its post-exec still running.
    cluster.wait_stat(apart, "DONE")
    assert cluster.stored_job(apart)["spec"].get("post") == "RUN"
    # Y: RUN, its slot still taken, while its post-exec runs.
    assert cluster.stat(held) == "RUN"
    r = cluster.run("bhosts", "-w")
    head, row = (line.split() for line in r.out.splitlines()[:2])
    assert row[head.index("NJOBS")] == row[head.index("RUN")] == "1", r
    # A controller restart meanwhile keeps it RUN.
    cluster.kill_controller()
    cluster.start()
    assert cluster.stat(held) == "RUN"
    (gates / f"gate.{held}").touch()
    cluster.wait_stat(held, "DONE")
    job = cluster.stored_job(held)
    assert job["spec"].get("post") == "POST_DONE", job
    # Its finish time is the end of its post-exec, not of its command.
    assert job["end_time"] >= (gates / f"gate.{held}").stat().st_mtime - 0.05
    (gates / f"gate.{apart}").touch()
    wait_for(lambda: cluster.stored_job(apart)["spec"].get("post") ==
             "POST_DONE", what="the post-exec of the N job")
    r = cluster.run("bapp", "-l", "apart")
    assert "JOB_INCLUDE_POSTPROC = N\n" in r.out, r
    assert "not acted on" not in r.out, r
    # A value that is neither Y nor N: refused, the controller runs on.
    assert_reconfig_refuses(cluster, "JOB_INCLUDE_POSTPROC: N",
                            "JOB_INCLUDE_POSTPROC: maybe",
                            "JOB_INCLUDE_POSTPROC: .*must be Y or N")
    assert cluster.proc.poll() is None
