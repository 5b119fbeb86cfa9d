"""Queue INTERACTIVE, as LSF 10.1 applies it: an INTERACTIVE = ONLY queue
refuses batch jobs and runs interactive ones (bsub -I), an INTERACTIVE =
NO queue the other way round; bqueues -l names the policy."""

QUEUES = """\
  ionly:
    PRIORITY: 20
    INTERACTIVE: ONLY
  batch:
    PRIORITY: 20
    INTERACTIVE: NO
"""


def test_only_interactive_queue_refuses_batch_jobs(make_cluster):
    cluster = make_cluster(extra_queues=QUEUES)
    r = cluster.run("bsub", "-q", "ionly", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("ionly: Queue only accepts interactive jobs. "
                     "Job not submitted.\n")
    r = cluster.run("bjobs", "-a", "-noheader")
    assert "ionly" not in r.out
    # The daemon goes on: a batch-only queue takes the job and runs it.
    job = cluster.submit("-q", "batch", "true")
    cluster.wait_stat(job, "DONE")
    r = cluster.run("bqueues", "-l", "ionly", "batch")
    assert r.rc == 0 and r.err == "", r
    ionly, batch = r.out.split("QUEUE: batch")
    assert "\nSCHEDULING POLICIES:  ONLY_INTERACTIVE\n" in ionly
    assert "\nSCHEDULING POLICIES:  NO_INTERACTIVE\n" in batch


def test_queues_take_or_refuse_interactive_jobs(make_cluster):
    cluster = make_cluster(extra_queues=QUEUES)
    r = cluster.run("bsub", "-I", "-q", "batch", "echo hi", input="")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("batch: Queue does not accept interactive jobs. "
                     "Job not submitted.\n")
    r = cluster.run("bsub", "-Ip", "-q", "batch", "echo hi", input="")
    assert (r.rc, r.out) == (255, ""), r
    # The daemon goes on: the interactive-only queue runs the job, its
    # output on bsub's own standard output.
    r = cluster.run("bsub", "-I", "-q", "ionly", "echo hi; exit 4", input="")
    assert r.rc == 4, r
    assert r.out.splitlines()[1:] == ["hi"], r
    assert r.out.startswith("Job <") and "<ionly>" in r.out.splitlines()[0]
    assert r.err.splitlines()[0] == "<<Waiting for dispatch ...>>"
    assert r.err.splitlines()[1].startswith("<<Starting on ")


def test_bad_interactive_value_is_refused_by_reconfig(cluster):
    from tests.lib.reconfig import assert_reconfig_refuses
    assert_reconfig_refuses(
        cluster, "    DESCRIPTION: the default queue\n",
        "    DESCRIPTION: the default queue\n    INTERACTIVE: SOMETIMES\n",
        r"INTERACTIVE: must be one of YES, NO, ONLY")
    job = cluster.submit("true")
    cluster.wait_stat(job, "DONE")
