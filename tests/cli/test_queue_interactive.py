"""Queue INTERACTIVE, as LSF 10.1 applies it.  xce has no interactive
jobs (bsub -I is refused), so an INTERACTIVE = ONLY queue refuses every
batch job and an INTERACTIVE = NO queue takes them all; bqueues -l names
the policy."""

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


def test_bad_interactive_value_is_refused_by_reconfig(cluster):
    from tests.lib.reconfig import assert_reconfig_refuses
    assert_reconfig_refuses(
        cluster, "    DESCRIPTION: the default queue\n",
        "    DESCRIPTION: the default queue\n    INTERACTIVE: SOMETIMES\n",
        r"INTERACTIVE: must be one of YES, NO, ONLY")
    job = cluster.submit("true")
    cluster.wait_stat(job, "DONE")
